import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HOUR_MS, MemoryRateLimitStore, RedisRateLimitStore, type RateLimitStore } from '../../src/infra/rate-limit.js';
import { hasRedis } from '../support/database.js';

/* `peek` answers what `hit` would without using anything (contract §6.2: a 304 uses no budget). */

const T0 = Date.UTC(2025, 0, 1, 12, 0, 0);

const redis = hasRedis ? new Redis(process.env.REDIS_URL ?? '') : null;
afterAll(async () => {
  await redis?.quit();
});

const stores: [string, () => RateLimitStore][] = [['MemoryRateLimitStore', () => new MemoryRateLimitStore()]];
if (redis) stores.push(['RedisRateLimitStore', () => new RedisRateLimitStore(redis, { keyPrefix: `rl-peek:${randomUUID()}` })]);

describe.each(stores)('%s.peek', (name, make) => {
  // Redis keeps its own clock for the window; the in-process store reads Date.now(), faked here.
  const fake = name === 'MemoryRateLimitStore';
  beforeEach(() => {
    if (!fake) return;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T0);
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const later = (ms: number): void => {
    if (fake) vi.setSystemTime(T0 + ms);
  };

  it('shows the whole budget before any hit, starts no window, and uses nothing', async () => {
    const store = make();
    const peeked = await store.peek('key:1', 3, HOUR_MS);
    expect(peeked).toMatchObject({ allowed: true, limit: 3, remaining: 3 });
    later(1000);
    expect(await store.peek('key:1', 3, HOUR_MS)).toMatchObject({ allowed: true, remaining: 3 });
    later(2000);
    const hit = await store.hit('key:1', 3, HOUR_MS);
    expect(hit).toMatchObject({ allowed: true, remaining: 2 });
    // The window started at the hit, not at the peeks.
    if (fake) expect(hit.resetAt).toBe((T0 + 2000 + HOUR_MS) / 1000);
  });

  it('answers the remaining budget before the request, as often as asked, and refuses once it is spent', async () => {
    const store = make();
    await store.hit('key:2', 2, HOUR_MS);
    later(10);
    const first = await store.peek('key:2', 2, HOUR_MS);
    later(20);
    const second = await store.peek('key:2', 2, HOUR_MS);
    expect([first.allowed, first.remaining, second.remaining]).toStrictEqual([true, 1, 1]);
    later(30);
    const hit = await store.hit('key:2', 2, HOUR_MS);
    expect(hit).toMatchObject({ allowed: true, remaining: 0 });
    later(40);
    const spent = await store.peek('key:2', 2, HOUR_MS);
    expect(spent).toMatchObject({ allowed: false, remaining: 0 });
    // The same window end, give or take the second a real clock may cross between the two calls.
    expect(Math.abs(spent.resetAt - hit.resetAt)).toBeLessThanOrEqual(fake ? 0 : 1);
  });
});
