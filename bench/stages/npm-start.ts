import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { freePort } from '../driver.js';

/**
 * `npm start` exactly as the README runs it (npm, then whatever the script runs: tsx, the sources, PGlite), on
 * its own data directory and port, for the cold-start and embedded-memory stages. The process that serves is
 * found under npm in /proc: memory is read from it, not from npm or a wrapper.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface NpmStart {
  /** The npm process (the head of its own process group). */
  npm: ChildProcess;
  baseUrl: string;
  /** Milliseconds from spawning npm to the first /readyz 200. */
  readyMs: number;
  /**
   * CPU time (user + system) that npm and everything under it had used by then: what the start costs, whatever
   * else runs on the machine (on an idle machine the wall time is about this, less what ran on a second core).
   */
  cpuMs: number;
  /** The pid of the process that serves (the deepest node process under npm). */
  serverPid: number;
  output(): string;
  /** SIGTERM to the server, then waits for npm to exit (SIGKILL to the group after 15 s). */
  stop(): Promise<void>;
}

function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

const commandLine = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
};

/** The deepest node process under `pid` (npm runs a shell, which runs node; a wrapper such as tsx's CLI would add one). */
export function serverProcess(pid: number): number | null {
  let found: number | null = null;
  const visit = (current: number): void => {
    if (current !== pid && /^\S*node /.test(commandLine(current))) found = current;
    for (const child of childrenOf(current)) visit(child);
  };
  visit(pid);
  return found;
}

/** utime + stime (+ reaped children's) of `pid` and of every process under it, from /proc (clock ticks of 10 ms). */
function treeCpuMs(pid: number): number {
  let ticks = 0;
  const visit = (current: number): void => {
    try {
      const fields = readFileSync(`/proc/${current}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      return;
    }
    for (const child of childrenOf(current)) visit(child);
  };
  visit(pid);
  return ticks * 10;
}

export async function npmStart(dataDir: string, env: Record<string, string> = {}): Promise<NpmStart> {
  const port = await freePort();
  const started = performance.now();
  // A group of its own: whatever npm starts beneath it is killed with it if the bench dies mid-stage.
  const npm = spawn('npm', ['start'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    // The README's defaults: embedded database (no DATABASE_URL / REDIS_URL), generated secret, demo on first start.
    env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', SECRET_KEY: '', NODE_ENV: '', NODE_OPTIONS: '', DATA_DIR: dataDir, PORT: String(port), ...env },
  });
  let output = '';
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString('utf8')).slice(-20_000);
  };
  npm.stdout?.on('data', keep);
  npm.stderr?.on('data', keep);
  const killGroup = (): void => {
    try {
      process.kill(-npm.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  process.once('exit', killGroup);
  const exited = new Promise<void>((resolve) => npm.once('exit', () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;
  let readyMs: number | null = null;
  let cpuMs = 0;
  const deadline = started + 120_000;
  while (readyMs === null) {
    if (npm.exitCode !== null || npm.signalCode !== null) throw new Error(`npm start exited before /readyz answered:\n${output}`);
    if (performance.now() > deadline) {
      killGroup();
      throw new Error(`npm start: no /readyz 200 within 120 s:\n${output}`);
    }
    try {
      const response = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      if (response.status === 200) {
        readyMs = performance.now() - started;
        cpuMs = treeCpuMs(npm.pid!);
      }
    } catch {
      // not listening yet
    }
    if (readyMs === null) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const serverPid = serverProcess(npm.pid!);
  if (serverPid === null) {
    killGroup();
    throw new Error(`npm start: no node process under npm (pid ${npm.pid})`);
  }
  return {
    npm,
    baseUrl,
    readyMs,
    cpuMs,
    serverPid,
    output: () => output,
    stop: async () => {
      if (npm.exitCode === null && npm.signalCode === null) {
        process.kill(serverPid, 'SIGTERM');
        const timer = setTimeout(killGroup, 15_000);
        await exited;
        clearTimeout(timer);
      }
      process.off('exit', killGroup);
    },
  };
}
