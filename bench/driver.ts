import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import net from 'node:net';
import autocannon, { type AutocannonRequest } from 'autocannon';

/** Child processes (gateway, references) and the autocannon load generator. */

export interface Child {
  name: string;
  pid: number;
  port: number;
  /** The last lines it wrote to stderr/stdout, for a useful error when it dies. */
  tail(): string;
  /** null while it runs; how it ended otherwise. */
  exit(): string | null;
  stop(): Promise<void>;
}

const children = new Set<ChildProcess>();

/** Whatever happens to the bench, no child outlives it. */
function killAllSync(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}
process.on('exit', killAllSync);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    killAllSync();
    process.exit(130);
  });
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

/**
 * The node arguments of a production npm script (`start:prod`, `worker:prod`: `node [flags] ENTRY`), so that the bench
 * runs the compiled gateway and worker exactly as production starts them, V8 start-up flags included.
 */
export function productionArgs(root: string, script: 'start:prod' | 'worker:prod'): string[] {
  const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const [command, ...args] = (scripts[script] ?? '').split(/\s+/).filter(Boolean);
  if (command !== 'node' || args.length === 0 || args.slice(0, -1).some((arg) => !arg.startsWith('--'))) {
    throw new Error(`package.json "${script}" must read "node [--flag ...] ENTRY", got "${scripts[script]}"`);
  }
  return [...args.slice(0, -1), join(root, args.at(-1)!)];
}

export interface StartOptions {
  name: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** Resolves with the port once the process serves. */
  ready: (child: ChildProcess, output: () => string) => Promise<number>;
  timeoutMs?: number;
}

export async function startChild(options: StartOptions): Promise<Child> {
  const child = spawn(process.execPath, options.args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString('utf8')).slice(-8000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<never>((_, reject) => {
    child.once('exit', (code, signal) => reject(new Error(`${options.name} exited (${code ?? signal}) before it was ready:\n${output}`)));
  });
  const timeoutMs = options.timeoutMs ?? 90_000;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${options.name} not ready after ${timeoutMs} ms:\n${output}`)), timeoutMs);
  });
  let port: number;
  try {
    port = await Promise.race([options.ready(child, () => output), exited, timeout]);
  } catch (error) {
    child.kill('SIGKILL');
    children.delete(child);
    throw error;
  } finally {
    clearTimeout(timer);
  }
  exited.catch(() => undefined);
  let exit: string | null = null;
  child.once('exit', (code, signal) => {
    exit = `exited with ${code ?? signal}`;
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${options.name}: no pid`);
  return {
    name: options.name,
    pid,
    port,
    tail: () => output,
    exit: () => exit,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) {
        children.delete(child);
        return;
      }
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await gone;
      clearTimeout(timer);
      children.delete(child);
    },
  };
}

/** Ready when a line `listening <port>` appears on stdout (the reference servers). */
export const readyOnListeningLine = (child: ChildProcess): Promise<number> =>
  new Promise((resolve) => {
    let buffered = '';
    const onData = (chunk: Buffer): void => {
      buffered += chunk.toString('utf8');
      const match = /listening (\d+)/.exec(buffered);
      if (match) {
        child.stdout?.off('data', onData);
        resolve(Number(match[1]));
      }
    };
    child.stdout?.on('data', onData);
  });

/** Ready when `port` answers HTTP at all (the gateway: any status, e.g. 401 without a key). */
export const readyOnHttp = (port: number, path: string) => async (): Promise<number> => {
  for (;;) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      return port;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
};

/** Resident memory of a process from /proc (Linux): current and peak ("high water mark"). */
export function readRss(pid: number): { rssMb: number; hwmMb: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssMb: kb('VmRSS') / 1024, hwmMb: kb('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

/** Samples a process's RSS while a scenario runs and keeps the largest value seen. */
export function sampleRss(pid: number | null, everyMs = 200): () => number | null {
  if (pid === null) return () => null;
  let max = readRss(pid)?.rssMb ?? 0;
  const timer = setInterval(() => {
    const rss = readRss(pid)?.rssMb;
    if (rss !== undefined && rss > max) max = rss;
  }, everyMs);
  return () => {
    clearInterval(timer);
    const rss = readRss(pid)?.rssMb;
    if (rss !== undefined && rss > max) max = rss;
    return max;
  };
}

export interface LoadOptions {
  url: string;
  connections: number;
  /** Seconds; ignored when `amount` is set. */
  duration: number;
  amount?: number;
  requests: AutocannonRequest[];
}

export interface LoadResult {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  durationS: number;
  statusCodes: Record<string, number>;
  /** Every 2xx latency in ms, sorted (to merge interleaved slices). */
  latencies: Float64Array;
}

export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

/**
 * One autocannon run. Latencies are collected from autocannon's per-response event, in fractional
 * milliseconds: its own histogram rounds to whole milliseconds, too coarse for the p99 ratio here.
 * Only 2xx responses count towards req/s and latency (as autocannon itself does for latency), and 304: the
 * answer a revalidation expects (bench/stages/revalidation.ts; no other run sends If-None-Match).
 */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  const started = performance.now();
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    ...(options.amount ? { amount: options.amount } : { duration: options.duration }),
    timeout: 30,
    requests: options.requests,
  });
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    statusCodes[statusCode] = (statusCodes[statusCode] ?? 0) + 1;
    if ((statusCode >= 200 && statusCode < 300) || statusCode === 304) latencies.push(responseTime);
  });
  const result = await instance;
  const elapsedS = options.amount ? (performance.now() - started) / 1000 : result.duration;
  return summarize(Float64Array.from(latencies).sort(), elapsedS, result.non2xx - (statusCodes[304] ?? 0), result.errors, result.timeouts, statusCodes);
}

function summarize(sorted: Float64Array, durationS: number, non2xx: number, errors: number, timeouts: number, statusCodes: Record<string, number>): LoadResult {
  const sum = sorted.reduce((total, value) => total + value, 0);
  return {
    reqPerSec: sorted.length / durationS,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    meanMs: sorted.length ? sum / sorted.length : NaN,
    ok: sorted.length,
    non2xx,
    errors,
    timeouts,
    durationS,
    statusCodes,
    latencies: sorted,
  };
}

/** Slices of one target's interleaved runs as if they were one run: counts add up, latencies merge. */
export function mergeResults(parts: LoadResult[]): LoadResult {
  const all = new Float64Array(parts.reduce((n, part) => n + part.latencies.length, 0));
  let offset = 0;
  for (const part of parts) {
    all.set(part.latencies, offset);
    offset += part.latencies.length;
  }
  const statusCodes: Record<string, number> = {};
  for (const part of parts) for (const [code, n] of Object.entries(part.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + n;
  const total = (pick: (part: LoadResult) => number): number => parts.reduce((n, part) => n + pick(part), 0);
  return summarize(all.sort(), total((p) => p.durationS), total((p) => p.non2xx), total((p) => p.errors), total((p) => p.timeouts), statusCodes);
}

export interface InterleavedTarget {
  label: string;
  url: string;
  requests: AutocannonRequest[];
}

/**
 * Targets measured on a shared machine, interleaved: a warm-up each, then `rounds` slices of `durationS / rounds`
 * in turn (A B A B …), merged per target, so that a busy spell weighs on every target alike.
 */
export async function measureInterleaved(
  targets: InterleavedTarget[],
  options: { durationS: number; warmupS: number; connections: number; rounds: number },
): Promise<Map<string, LoadResult>> {
  if (options.warmupS > 0) for (const target of targets) await load({ url: target.url, connections: options.connections, duration: options.warmupS, requests: target.requests });
  const slices = new Map<string, LoadResult[]>(targets.map((target) => [target.label, []]));
  for (let round = 0; round < options.rounds; round++) {
    for (const target of targets) {
      slices.get(target.label)!.push(await load({ url: target.url, connections: options.connections, duration: options.durationS / options.rounds, requests: target.requests }));
    }
  }
  return new Map(targets.map((target) => [target.label, mergeResults(slices.get(target.label)!)]));
}
