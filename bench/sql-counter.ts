import net from 'node:net';

/**
 * A PostgreSQL wire-protocol proxy that counts the statements its clients send.
 *
 * Why a proxy: `pg_stat_statements` needs `shared_preload_libraries` (a server restart this machine's
 * shared PostgreSQL cannot take), and the gateway has no statement counter of its own. Reading the
 * frontend stream counts exactly what reaches the server: one per simple `Query` ('Q') and one per
 * extended-protocol `Execute` ('E'), BEGIN and COMMIT included. The proxy adds a hop, so it is used only
 * in a separate counting pass, never while throughput is measured.
 */

const SSL_REQUEST = 80877103;
const GSS_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;

export interface SqlCounter {
  port: number;
  /** Statements executed since start (or the last `reset`). */
  count(): number;
  /** Statement texts (whitespace collapsed, the first 160 characters) with how often each ran since the last `reset`. */
  texts(): Map<string, number>;
  /** How many statements since the last `reset` had a whole text (whitespace collapsed) matching `pattern`. */
  countMatching(pattern: RegExp): number;
  reset(): void;
  close(): Promise<void>;
}

function cString(buffer: Buffer, start: number): [string, number] {
  const end = buffer.indexOf(0, start);
  if (end < 0) return ['', buffer.length];
  return [buffer.toString('utf8', start, end), end + 1];
}

/** `ignore`: statements not counted (e.g. /pgboss\./: the job queue's polling on its timers, not any request's). */
export async function startSqlCounter(target: { host: string; port: number }, options: { ignore?: RegExp } = {}): Promise<SqlCounter> {
  let statements = 0;
  let tally = new Map<string, number>();
  const sockets = new Set<net.Socket>();

  const record = (text: string): void => {
    if (options.ignore?.test(text)) return;
    statements++;
    const key = text.replace(/\s+/g, ' ').trim();
    tally.set(key, (tally.get(key) ?? 0) + 1);
  };

  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    sockets.add(client);
    sockets.add(upstream);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    // Untyped packets come first (startup, and SSL/GSS requests that precede it).
    let untyped = true;
    let pending: Buffer = Buffer.alloc(0);
    const statementsByName = new Map<string, string>();
    const portals = new Map<string, string>();

    const parse = (): void => {
      for (;;) {
        if (untyped) {
          if (pending.length < 8) return;
          const length = pending.readInt32BE(0);
          if (pending.length < length) return;
          const code = pending.readInt32BE(4);
          pending = pending.subarray(length);
          if (code !== SSL_REQUEST && code !== GSS_REQUEST && code !== CANCEL_REQUEST) untyped = false;
          continue;
        }
        if (pending.length < 5) return;
        const type = String.fromCharCode(pending[0]!);
        const length = pending.readInt32BE(1);
        if (pending.length < 1 + length) return;
        const body = pending.subarray(5, 1 + length);
        if (type === 'Q') {
          record(cString(body, 0)[0]);
        } else if (type === 'P') {
          const [name, next] = cString(body, 0);
          statementsByName.set(name, cString(body, next)[0]);
        } else if (type === 'B') {
          const [portal, next] = cString(body, 0);
          portals.set(portal, statementsByName.get(cString(body, next)[0]) ?? '?');
        } else if (type === 'E') {
          record(portals.get(cString(body, 0)[0]) ?? '?');
        }
        pending = pending.subarray(1 + length);
      }
    };

    client.on('data', (chunk: Buffer) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      parse();
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    const closeBoth = (): void => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', closeBoth);
    upstream.on('close', closeBoth);
    client.on('error', closeBoth);
    upstream.on('error', closeBoth);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('sql counter: no port');
  return {
    port: address.port,
    count: () => statements,
    texts: () => {
      const short = new Map<string, number>();
      for (const [text, n] of tally) short.set(text.slice(0, 160), (short.get(text.slice(0, 160)) ?? 0) + n);
      return short;
    },
    countMatching: (pattern) => [...tally].filter(([text]) => pattern.test(text)).reduce((sum, [, n]) => sum + n, 0),
    reset: () => {
      statements = 0;
      tally = new Map();
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
