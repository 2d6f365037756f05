import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/infra/log.js';
import { runShutdown } from '../../src/shutdown.js';

/** The parts of the graceful stop that need no process (the process-level proofs are in graceful-stop.test.ts). */

const quiet = { log: createLogger(process.stdout, 'silent') };

describe('SHUTDOWN_DELAY_MS and SHUTDOWN_TIMEOUT_MS', () => {
  const base = { SECRET_KEY: Buffer.alloc(32, 1).toString('base64'), DATABASE_URL: 'postgresql://127.0.0.1/x' };

  it('default to 1 s of readiness delay and a 10 s drain bound', () => {
    expect(loadConfig(base)).toMatchObject({ shutdownDelayMs: 1_000, shutdownTimeoutMs: 10_000 });
  });

  it('take whole milliseconds, 0 included', () => {
    expect(loadConfig({ ...base, SHUTDOWN_DELAY_MS: '0', SHUTDOWN_TIMEOUT_MS: '2500' })).toMatchObject({ shutdownDelayMs: 0, shutdownTimeoutMs: 2_500 });
  });

  it('refuse anything else at start', () => {
    for (const value of ['-1', '1.5', '10s', '99999999']) {
      expect(() => loadConfig({ ...base, SHUTDOWN_TIMEOUT_MS: value })).toThrow(ConfigError);
    }
  });
});

describe('runShutdown', () => {
  it('waits the delay, drains the steps together, closes in order, and answers 0 when nothing was cut', async () => {
    // Node may fire a 100 ms timer a millisecond early by Date.now(): 95 still tells the delay from none.
    const events: string[] = [];
    const started = Date.now();
    const code = await runShutdown(
      {
        drain: [
          { name: 'http', run: async () => void events.push(`http after ${Date.now() - started >= 95 ? 'the delay' : 'no delay'}`) },
          { name: 'jobs', run: async () => void events.push('jobs') },
        ],
        close: [
          { name: 'queue', run: async () => void events.push('queue') },
          { name: 'database', run: async () => void events.push('database') },
        ],
      },
      { delayMs: 100, timeoutMs: 1_000, ...quiet },
    );
    expect(code).toBe(0);
    expect(events).toEqual(['http after the delay', 'jobs', 'queue', 'database']);
  });

  it('answers 1 when a drain step cut work, and still closes everything', async () => {
    const closed: string[] = [];
    const code = await runShutdown(
      { drain: [{ name: 'http', run: async () => 2 }], close: [{ name: 'database', run: async () => void closed.push('database') }] },
      { delayMs: 0, timeoutMs: 100, ...quiet },
    );
    expect(code).toBe(1);
    expect(closed).toEqual(['database']);
  });

  it('does not wait for a close step that hangs past the deadline (a pool waiting on a blocked query)', async () => {
    const started = Date.now();
    const code = await runShutdown(
      { drain: [], close: [{ name: 'database', run: () => new Promise<void>(() => undefined) }] },
      { delayMs: 0, timeoutMs: 200, ...quiet },
    );
    expect(code).toBe(1);
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
