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
  /** Statement texts (whitespace collapsed, the first `chars`: 160) with how often each ran since the last `reset`. */
  texts(chars?: number): Map<string, number>;
  /** How many statements since the last `reset` had a whole text (whitespace collapsed) matching `pattern`. */
  countMatching(pattern: RegExp): number;
  /**
   * Statement texts (as `texts`) with the milliseconds they took since the last `reset`: from the statement's
   * Sync (or simple Query) reaching the proxy, or the previous answer on that connection if later, to its
   * ReadyForQuery coming back. Wall time, the round trip over loopback included: on a busy machine it grows with the
   * load; it says which statements weigh, not what they cost alone.
   */
  timings(chars?: number): Map<string, number>;
  /**
   * The local ports of every connection the proxy opened to the server so far: PostgreSQL's `client_port` of the
   * backends serving its clients (backend-cpu.ts measures those alone).
   */
  upstreamPorts(): ReadonlySet<number>;
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
  let elapsed = new Map<string, number>();
  const sockets = new Set<net.Socket>();
  const ports = new Set<number>();

  /** The key a statement is counted under, or null when ignored. */
  const record = (text: string): string | null => {
    if (options.ignore?.test(text)) return null;
    statements++;
    const key = text.replace(/\s+/g, ' ').trim();
    tally.set(key, (tally.get(key) ?? 0) + 1);
    return key;
  };
  const spent = (keys: string[], ms: number): void => {
    for (const key of keys) elapsed.set(key, (elapsed.get(key) ?? 0) + ms / keys.length);
  };

  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    upstream.once('connect', () => {
      if (upstream.localPort !== undefined) ports.add(upstream.localPort);
    });
    sockets.add(client);
    sockets.add(upstream);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    // Untyped packets come first (startup, and SSL/GSS requests that precede it).
    let untyped = true;
    let pending: Buffer = Buffer.alloc(0);
    const statementsByName = new Map<string, string>();
    const portals = new Map<string, string>();
    // Statements executed since the last Sync, then each Sync's (or Query's) statements awaiting their ReadyForQuery.
    let executed: string[] = [];
    const awaiting: { keys: string[]; at: number }[] = [];
    let lastReadyAt = 0;
    let sslAnswerPending = false;
    let answers: Buffer = Buffer.alloc(0);
    let answersTyped = false;

    const parse = (): void => {
      for (;;) {
        if (untyped) {
          if (pending.length < 8) return;
          const length = pending.readInt32BE(0);
          if (pending.length < length) return;
          const code = pending.readInt32BE(4);
          if (code === SSL_REQUEST || code === GSS_REQUEST) sslAnswerPending = true;
          else if (code !== CANCEL_REQUEST) answersTyped = true;
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
          const key = record(cString(body, 0)[0]);
          awaiting.push({ keys: key === null ? [] : [key], at: performance.now() });
        } else if (type === 'S') {
          awaiting.push({ keys: executed, at: performance.now() });
          executed = [];
        } else if (type === 'P') {
          const [name, next] = cString(body, 0);
          statementsByName.set(name, cString(body, next)[0]);
        } else if (type === 'B') {
          const [portal, next] = cString(body, 0);
          portals.set(portal, statementsByName.get(cString(body, next)[0]) ?? '?');
        } else if (type === 'E') {
          const key = record(portals.get(cString(body, 0)[0]) ?? '?');
          if (key !== null) executed.push(key);
        }
        pending = pending.subarray(1 + length);
      }
    };

    client.on('data', (chunk: Buffer) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      parse();
      upstream.write(chunk);
    });
    // The server's answers, read for their ReadyForQuery ('Z') only.
    const parseAnswers = (): void => {
      for (;;) {
        if (sslAnswerPending) {
          if (answers.length < 1) return;
          answers = answers.subarray(1);
          sslAnswerPending = false;
          continue;
        }
        if (!answersTyped || answers.length < 5) return;
        const length = answers.readInt32BE(1);
        if (answers.length < 1 + length) return;
        if (answers[0] === 0x5a) {
          const now = performance.now();
          const done = awaiting.shift();
          if (done?.keys.length) spent(done.keys, now - Math.max(done.at, lastReadyAt));
          lastReadyAt = now;
        }
        answers = answers.subarray(1 + length);
      }
    };
    upstream.on('data', (chunk: Buffer) => {
      answers = answers.length ? Buffer.concat([answers, chunk]) : chunk;
      parseAnswers();
      client.write(chunk);
    });
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
    texts: (chars = 160) => {
      const short = new Map<string, number>();
      for (const [text, n] of tally) short.set(text.slice(0, chars), (short.get(text.slice(0, chars)) ?? 0) + n);
      return short;
    },
    timings: (chars = 160) => {
      const short = new Map<string, number>();
      for (const [text, ms] of elapsed) short.set(text.slice(0, chars), (short.get(text.slice(0, chars)) ?? 0) + ms);
      return short;
    },
    countMatching: (pattern) => [...tally].filter(([text]) => pattern.test(text)).reduce((sum, [, n]) => sum + n, 0),
    upstreamPorts: () => ports,
    reset: () => {
      statements = 0;
      tally = new Map();
      elapsed = new Map();
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
