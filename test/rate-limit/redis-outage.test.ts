import { spawnSync } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { logger } from '../../src/infra/log.js';
import { RedisRateLimitStore } from '../../src/infra/rate-limit.js';
import { connectRedis } from '../../src/infra/redis.js';
import { RedisStreamSlots } from '../../src/infra/stream-slots.js';
import { startRedisServer, type RedisServer } from '../chaos/side-services.js';

/**
 * Issue 38: a Redis that goes away (this file's own redis-server, killed with SIGKILL) never fails or slows a
 * budget check: the store counts in process meanwhile (the stream slots too), says so once in the JSON log, and goes back to Redis by
 * itself when it is back.
 */
const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await run();
  return { value, ms: performance.now() - started };
}

describe.runIf(hasRedisServer)('RedisRateLimitStore and RedisStreamSlots while their Redis is away', () => {
  let server: RedisServer;
  let client: Redis;
  let store: RedisRateLimitStore;
  let slots: RedisStreamSlots;
  const warn = vi.spyOn(logger, 'warn');
  const info = vi.spyOn(logger, 'info');
  const stderr = vi.spyOn(process.stderr, 'write');

  beforeAll(async () => {
    server = await startRedisServer();
    // One connection for both, as a gateway has (src/main.ts).
    client = await connectRedis(server.url);
    store = new RedisRateLimitStore(client, { keyPrefix: 'rl-outage' });
    slots = new RedisStreamSlots(client, { leaseMs: 60_000, keyPrefix: 'streams-outage' });
  });
  afterAll(async () => {
    await store?.close();
    await slots?.close();
    client?.disconnect();
    await server?.stop();
    vi.restoreAllMocks();
  });

  const redisMessages = (spy: typeof warn): unknown[] => spy.mock.calls.map((call) => call.find((arg) => typeof arg === 'string')).filter((msg) => /redis/i.test(String(msg)));

  it('counts in Redis while it is up', async () => {
    expect(store.degraded).toBe(false);
    expect(await store.hit('key:1', 5)).toMatchObject({ allowed: true, remaining: 4 });
  });

  it('answers at once from this process while Redis is down, keeps the budget there, and logs it once', async () => {
    await server.kill();
    const answers = [];
    for (let i = 0; i < 30; i++) {
      answers.push(await timed(() => store.hit('key:2', 3)));
      await sleep(20);
    }
    expect(Math.max(...answers.map((answer) => answer.ms))).toBeLessThan(300);
    expect(answers.map((answer) => answer.value.allowed)).toStrictEqual([true, true, true, ...Array(27).fill(false)]);
    expect((await timed(() => store.peek('key:2', 3))).value).toMatchObject({ allowed: false, remaining: 0 });
    expect(store.degraded).toBe(true);
    const leases = await timed(async () => [await slots.acquire('key:9', 2), await slots.acquire('key:9', 2), await slots.acquire('key:9', 2)]);
    expect(leases.ms).toBeLessThan(300);
    expect(leases.value.map((lease) => typeof lease)).toStrictEqual(['string', 'string', 'object']);
    await slots.release('key:9', leases.value[0]!);
    expect(typeof (await slots.acquire('key:9', 2))).toBe('string');
    // ioredis retried meanwhile (an error each time): one line for all of them.
    expect(redisMessages(warn)).toStrictEqual(['redis unavailable: rate limits and stream slots counted per process until it is back']);
    expect(stderr.mock.calls.filter((call) => /redis/i.test(String(call[0])))).toStrictEqual([]);
  });

  it('goes back to Redis by itself once it is back, and logs that once', async () => {
    await server.start();
    const deadline = Date.now() + 5_000;
    while (store.degraded && Date.now() < deadline) await sleep(50);
    expect(store.degraded).toBe(false);
    expect(await store.hit('key:3', 5)).toMatchObject({ allowed: true, remaining: 4 });
    const direct = new Redis(server.url);
    expect(await direct.get('rl-outage:key:3')).toBe('1');
    expect(await slots.acquire('key:10', 1)).toEqual(expect.any(String));
    expect(await direct.zcard('streams-outage:key:10')).toBe(1);
    direct.disconnect();
    expect(redisMessages(info)).toStrictEqual(['redis available again: rate limits and stream slots shared']);
    expect(redisMessages(warn)).toHaveLength(1);
  });
});
