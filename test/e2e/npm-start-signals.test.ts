import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/* A supervisor stops `npm start` by signalling the npm process it started (systemd, a container runtime, a
   terminal's kill): the server behind npm must stop within its shutdown timeout and release the embedded database's
   lock, so that the next start works. */

const SHUTDOWN_TIMEOUT_MS = 10_000;
const started: ChildProcess[] = [];
afterAll(() => {
  // Only if a test failed midway: the whole group, npm and what it started.
  for (const npm of started) if (npm.exitCode === null && npm.signalCode === null) process.kill(-npm.pid!, 'SIGKILL');
});

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The real `npm start` on the embedded database in `dataDir`; resolves once it listens, with npm's child's pid. */
async function npmStart(dataDir: string): Promise<{ npm: ChildProcess; serverPid: number; output: () => string; exited: Promise<void> }> {
  const npm = spawn('npm', ['start'], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', SECRET_KEY: '', NODE_OPTIONS: '', DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' },
  });
  started.push(npm);
  let output = '';
  npm.stdout?.on('data', (chunk) => (output += chunk));
  npm.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => npm.once('exit', () => resolve()));
  for (let waited = 0; !output.includes('"msg":"listening"'); waited += 100) {
    if (npm.exitCode !== null || waited > 60_000) throw new Error(`npm start did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // npm's only child: the server itself (package.json's start script execs node, so no shell stands between).
  const children = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(npm.pid)], { encoding: 'utf8' }).trim().split('\n');
  expect(children).toHaveLength(1);
  expect(children[0]).toMatch(/node .*scripts\/start\.mjs$/);
  return { npm, serverPid: Number.parseInt(children[0]!, 10), output: () => output, exited };
}

/** Signals npm, waits for it, and checks that the server behind it is gone, stopped by that signal, in time. */
async function stopBy(signal: 'SIGTERM' | 'SIGINT', run: Awaited<ReturnType<typeof npmStart>>): Promise<void> {
  const sent = performance.now();
  run.npm.kill(signal);
  await run.exited;
  expect(performance.now() - sent).toBeLessThan(SHUTDOWN_TIMEOUT_MS);
  expect(alive(run.serverPid), run.output()).toBe(false);
  expect(run.output()).toContain(`"signal":"${signal}","inFlight":0,"msg":"stopping"`);
  expect(run.output()).toContain('"msg":"stopped"');
  expect(run.npm.exitCode).toBe(0);
}

describe('npm start, stopped by a signal to the npm process', () => {
  it('stops the server within the shutdown timeout on SIGTERM, releases the data directory for a restart, and stops that one on SIGINT', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'wg-signal-'));
    await stopBy('SIGTERM', await npmStart(dataDir));
    // The embedded database's lock was released: a second server opens the same directory.
    await stopBy('SIGINT', await npmStart(dataDir));
  }, 150_000);
});
