import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { HOUR_MS, MemoryRateLimitStore, RedisRateLimitStore, type RateLimitStore } from '../../src/infra/rate-limit.js';
import { hasRedis } from '../support/database.js';

/* `peek` answers what `hit` would without using anything (contract §6.2: a 304 uses no budget). */

const T0 = Date.UTC(2025, 0, 1, 12, 0, 0);

const redis = hasRedis ? new Redis(process.env.REDIS_URL ?? '') : null;
afterAll(async () => {
  await redis?.quit();
});

const stores: [string, () => RateLimitStore][] = [['MemoryRateLimitStore', () => new MemoryRateLimitStore()]];
if (redis) stores.push(['RedisRateLimitStore', () => new RedisRateLimitStore(redis, { keyPrefix: `rl-peek:${randomUUID()}:` })]);

describe.each(stores)('%s.peek', (_name, make) => {
  it('shows the whole budget before any hit, starts no window, and uses nothing', async () => {
    const store = make();
    const peeked = await store.peek('key:1', 3, HOUR_MS, T0);
    expect(peeked).toMatchObject({ allowed: true, limit: 3, remaining: 3 });
    expect(await store.peek('key:1', 3, HOUR_MS, T0 + 1000)).toMatchObject({ allowed: true, remaining: 3 });
    expect(await store.hit('key:1', 3, HOUR_MS, T0 + 2000)).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('answers the remaining budget before the request, as often as asked, and refuses once it is spent', async () => {
    const store = make();
    await store.hit('key:2', 2, HOUR_MS, T0);
    const first = await store.peek('key:2', 2, HOUR_MS, T0 + 10);
    const second = await store.peek('key:2', 2, HOUR_MS, T0 + 20);
    expect([first.allowed, first.remaining, second.remaining]).toStrictEqual([true, 1, 1]);
    const hit = await store.hit('key:2', 2, HOUR_MS, T0 + 30);
    expect(hit).toMatchObject({ allowed: true, remaining: 0 });
    expect(await store.peek('key:2', 2, HOUR_MS, T0 + 40)).toMatchObject({ allowed: false, remaining: 0, resetAt: hit.resetAt });
  });
});
