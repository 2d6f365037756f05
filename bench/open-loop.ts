import net from 'node:net';

/**
 * An open-loop load: requests sent at a steady `rate` whatever the answers do (autocannon's overallRate is a
 * per-second quota per connection, spent in a burst at the start of each second: a burst that a shedding server
 * refuses in a few ms, after which nothing arrives until the next second). Each answer's latency counts from when
 * its request was due, so a generator that falls behind does not hide it (coordinated omission).
 *
 * A request goes on an idle keep-alive connection, or a new one: at 3 × saturation most answers are refusals, and a
 * generator that paid a node:http request object for each (as the first version of this file did) took most of
 * the core the server's database needed, on a 2-core machine. Here each request is the same bytes written on a
 * socket, and each answer is read only far enough to know its status and where it ends.
 */
export interface OpenLoopResult {
  sent: number;
  durationS: number;
  statuses: Record<string, number>;
  /** Latencies (ms, sorted) by status. */
  latencies: Map<number, Float64Array>;
  /** Answers carrying `Retry-After`, by status. */
  retryAfter: Record<string, number>;
  /** How late this process wrote requests against when they were due (ms, sorted): the generator's own lag. */
  sendLags: Float64Array;
  /** Connections opened, the warm ones included. */
  connections: number;
  /** Requests sent again because the server had closed their keep-alive connection as idle before answering. */
  resent: number;
}

const HEAD_END = Buffer.from('\r\n\r\n');
const CHUNKED_END = Buffer.from('\r\n0\r\n\r\n');
const EMPTY = Buffer.alloc(0);
/**
 * Every connection reads into this one buffer (net's `onread`), each chunk handled before the next read: at 3 ×
 * saturation the answers are ~70 MB/s, and a Buffer allocated per read made this process collect garbage in pauses of
 * up to 33 ms, counted as the server's latency of the answers it had not yet read.
 */
const READ_BUFFER = Buffer.allocUnsafe(64 * 1024);

/** One answer as far as it was read: null until its head is whole. */
interface Answer {
  status: number;
  /** The whole answer's length in bytes, or -1: chunked (ends at CHUNKED_END). */
  length: number;
  headLength: number;
  retryAfter: boolean;
  close: boolean;
}

function parseHead(buffer: Buffer): Answer | null {
  const end = buffer.indexOf(HEAD_END);
  if (end === -1) return null;
  const head = buffer.toString('latin1', 0, end).toLowerCase();
  const status = Number(head.slice(9, 12));
  const header = (name: string): string | null => {
    const at = head.indexOf(`\r\n${name}:`);
    if (at === -1) return null;
    const lineEnd = head.indexOf('\r\n', at + 2);
    return head.slice(at + name.length + 3, lineEnd === -1 ? undefined : lineEnd).trim();
  };
  const contentLength = header('content-length');
  const headLength = end + HEAD_END.length;
  return {
    status,
    length: contentLength !== null ? headLength + Number(contentLength) : header('transfer-encoding') === 'chunked' ? -1 : headLength,
    headLength,
    retryAfter: header('retry-after') !== null,
    close: header('connection') === 'close',
  };
}

/**
 * `warmConnections` are connected before the clock starts, as a client's keep-alive pool (or a balancer's) would be:
 * a server whose event loop is busy accepts new connections late, and a full accept queue drops SYNs that the
 * client's kernel sends again only after 1 s and 3 s, which would time the handshake, not the answer.
 */
export async function openLoop(options: { url: string; path: string; headers: Record<string, string>; rate: number; durationS: number; warmConnections?: number }): Promise<OpenLoopResult> {
  const target = new URL(options.url);
  const port = Number(target.port);
  const headers = { host: target.host, ...options.headers };
  const requestBytes = Buffer.from(`GET ${options.path} HTTP/1.1\r\n${Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`);
  const intervalMs = 1000 / options.rate;
  const total = Math.round(options.rate * options.durationS);
  const statuses: Record<string, number> = {};
  const retryAfter: Record<string, number> = {};
  const byStatus = new Map<number, number[]>();
  const idle: net.Socket[] = [];
  const sockets = new Set<net.Socket>();
  const sendLags: number[] = [];
  let connections = 0;
  let resent = 0;
  let answered = 0;
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (finish = resolve));

  const record = (status: number | 'error', dueAt: number, answer: Answer | null): void => {
    statuses[status] = (statuses[status] ?? 0) + 1;
    if (status !== 'error') {
      if (answer?.retryAfter) retryAfter[status] = (retryAfter[status] ?? 0) + 1;
      let list = byStatus.get(status);
      if (!list) byStatus.set(status, (list = []));
      list.push(performance.now() - dueAt);
    }
    answered += 1;
    if (answered === total) finish();
  };

  /** A connection carrying one request at a time; back on the idle list after each whole answer. */
  function open(): net.Socket {
    const onread = {
      buffer: READ_BUFFER,
      callback: (size: number): boolean => {
        onData(READ_BUFFER.subarray(0, size));
        return true;
      },
    };
    const socket = net.connect({ host: target.hostname, port, noDelay: true, onread });
    sockets.add(socket);
    connections += 1;
    let dueAt: number | null = null;
    /** The answer's bytes so far while its head is incomplete; then only its last bytes (a chunked answer's end). */
    let kept = EMPTY;
    let received = 0;
    let answer: Answer | null = null;
    /** It has carried a whole answer: the server may close it as idle at any moment from now on. */
    let reused = false;
    const done = (status: number | 'error'): void => {
      const due = dueAt;
      dueAt = null;
      kept = EMPTY;
      received = 0;
      const whole = answer;
      answer = null;
      if (due !== null) record(status, due, whole);
    };
    // `chunk` is a view of READ_BUFFER, valid only during this call: what must outlive it is copied (a few bytes).
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      const seen = kept.length === 0 ? chunk : Buffer.concat([kept, chunk]);
      if (!answer) answer = parseHead(seen);
      if (!answer) {
        kept = Buffer.from(seen);
        return;
      }
      kept = answer.length === -1 ? Buffer.from(seen.subarray(-CHUNKED_END.length)) : EMPTY;
      const complete = answer.length === -1 ? kept.equals(CHUNKED_END) : received >= answer.length;
      if (!complete) return;
      const close = answer.close;
      reused = true;
      done(answer.status);
      if (close) socket.destroy();
      else idle.push(socket);
    };
    socket.on('error', () => undefined);
    socket.on('close', () => {
      sockets.delete(socket);
      const at = idle.indexOf(socket);
      if (at !== -1) idle.splice(at, 1);
      if (dueAt === null) return;
      // A keep-alive connection the server closed as idle (keepAliveTimeout) while the request was on its way: no
      // byte of an answer came back, so the GET is sent again on another connection, as HTTP clients do (RFC 9112
      // §9.3.1), with its latency still counted from when it was due. Anything else is an error.
      if (reused && received === 0) {
        const due = dueAt;
        dueAt = null;
        resent += 1;
        send(due);
      } else done('error');
    });
    (socket as net.Socket & { send: (due: number) => void }).send = (due: number) => {
      dueAt = due;
      socket.write(requestBytes);
    };
    return socket;
  }

  const send = (dueAt: number): void => {
    const socket = (idle.pop() ?? open()) as net.Socket & { send: (due: number) => void };
    socket.send(dueAt);
  };
  const fire = (dueAt: number): void => {
    sendLags.push(performance.now() - dueAt);
    send(dueAt);
  };

  const warm = Array.from({ length: options.warmConnections ?? 0 }, open);
  await Promise.all(warm.map((socket) => new Promise((resolve) => socket.once('connect', resolve).once('close', resolve))));
  idle.push(...warm.filter((socket) => !socket.destroyed));

  const started = performance.now();
  let sent = 0;
  await new Promise<void>((resolve) => {
    const tick = (): void => {
      const due = Math.min(total, Math.floor((performance.now() - started) / intervalMs) + 1);
      while (sent < due) fire(started + sent++ * intervalMs);
      if (sent >= total) resolve();
      else setTimeout(tick, 1);
    };
    tick();
  });
  if (total > 0) await finished;
  for (const socket of sockets) socket.destroy();
  const latencies = new Map([...byStatus].map(([status, list]) => [status, Float64Array.from(list).sort()]));
  return { sent, durationS: options.durationS, statuses, latencies, retryAfter, sendLags: Float64Array.from(sendLags).sort(), connections, resent };
}
