import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  HOUR_MS,
  MemoryRateLimitStore,
  RedisRateLimitStore,
  createRateLimitStore,
  rateLimitHeaders,
  rateLimitedError,
  type RateLimitResult,
} from '../../src/infra/rate-limit.js';
import { hasRedis } from '../support/database.js';

const REDIS_URL = process.env.REDIS_URL ?? '';
/** Whole seconds, so that window ends are exact numbers. */
const T0 = Date.UTC(2025, 0, 1, 12, 0, 0);
const T0_S = T0 / 1000;

describe('MemoryRateLimitStore', () => {
  beforeEach(() => {
    // rate-limiter-flexible reads Date.now(); its expiry timers are faked only where a test says so.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T0);
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const at = (ms: number): void => void vi.setSystemTime(ms);

  it('starts the window at the first hit and ends it one hour later', async () => {
    const store = new MemoryRateLimitStore();
    at(T0 + 1234);
    expect(await store.hit('key:1', 5000)).toStrictEqual({
      allowed: true,
      limit: 5000,
      remaining: 4999,
      resetAt: Math.ceil((T0 + 1234 + HOUR_MS) / 1000),
      retryAfter: 3600,
    });
  });

  it('counts remaining down within one window whose end does not move', async () => {
    const store = new MemoryRateLimitStore();
    const first = await store.hit('key:1', 3, HOUR_MS);
    at(T0 + 10 * 60_000);
    const second = await store.hit('key:1', 3, HOUR_MS);
    at(T0 + 59 * 60_000);
    const third = await store.hit('key:1', 3, HOUR_MS);
    expect([first, second, third]).toStrictEqual([
      { allowed: true, limit: 3, remaining: 2, resetAt: T0_S + 3600, retryAfter: 3600 },
      { allowed: true, limit: 3, remaining: 1, resetAt: T0_S + 3600, retryAfter: 3000 },
      { allowed: true, limit: 3, remaining: 0, resetAt: T0_S + 3600, retryAfter: 60 },
    ]);
  });

  it('refuses the hit after the budget with the 429 data, without moving the window', async () => {
    const store = new MemoryRateLimitStore();
    await store.hit('key:1', 2, HOUR_MS);
    at(T0 + 1000);
    await store.hit('key:1', 2, HOUR_MS);
    at(T0 + 30 * 60_000);
    expect(await store.hit('key:1', 2, HOUR_MS)).toStrictEqual({
      allowed: false,
      limit: 2,
      remaining: 0,
      resetAt: T0_S + 3600,
      retryAfter: 1800,
    });
    at(T0 + HOUR_MS - 1);
    expect(await store.hit('key:1', 2, HOUR_MS)).toStrictEqual({
      allowed: false,
      limit: 2,
      remaining: 0,
      resetAt: T0_S + 3600,
      retryAfter: 1,
    });
  });

  it('opens a new window at the first hit after the old one ended, however many hits were refused', async () => {
    const store = new MemoryRateLimitStore();
    await store.hit('key:1', 1, HOUR_MS);
    for (let i = 1; i <= 5; i++) {
      at(T0 + i * 1000);
      expect((await store.hit('key:1', 1, HOUR_MS)).allowed).toBe(false);
    }
    const later = T0 + HOUR_MS + 90_000;
    at(later);
    expect(await store.hit('key:1', 1, HOUR_MS)).toStrictEqual({
      allowed: true,
      limit: 1,
      remaining: 0,
      resetAt: (later + HOUR_MS) / 1000,
      retryAfter: 3600,
    });
  });

  it('keeps buckets independent', async () => {
    const store = new MemoryRateLimitStore();
    await store.hit('key:1', 1, HOUR_MS);
    at(T0 + 1);
    expect((await store.hit('key:1', 1, HOUR_MS)).allowed).toBe(false);
    at(T0 + 60_000);
    expect(await store.hit('key:2', 1, HOUR_MS)).toMatchObject({ allowed: true, resetAt: T0_S + 3660 });
    expect(await store.hit('site:1', 600, HOUR_MS)).toMatchObject({ allowed: true, remaining: 599 });
  });

  it('keeps windows of other lengths (the per-field limits) in whole seconds', async () => {
    const store = new MemoryRateLimitStore();
    expect(await store.hit('field:key:1:createForm', 2, 60_000)).toMatchObject({ allowed: true, remaining: 1, retryAfter: 60, resetAt: T0_S + 60 });
    await expect(store.hit('field:key:1:createForm', 2, 1500)).rejects.toThrow('whole seconds');
  });

  it('drops ended windows so that memory does not grow with every key ever seen', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    vi.setSystemTime(T0);
    const store = new MemoryRateLimitStore();
    for (let i = 0; i < 1000; i++) await store.hit(`key:${i}`, 10, HOUR_MS);
    expect(store.size).toBe(1000);
    vi.advanceTimersByTime(HOUR_MS);
    await store.hit('key:late', 10, HOUR_MS);
    expect(store.size).toBe(1);
  });

  it('allows exactly the limit out of 50 concurrent hits', async () => {
    const store = new MemoryRateLimitStore();
    const results = await Promise.all(Array.from({ length: 50 }, () => store.hit('key:1', 10, HOUR_MS)));
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
    expect(results.map((r) => r.remaining).sort((a, b) => a - b)[0]).toBe(0);
  });
});

describe('rateLimitHeaders and rateLimitedError', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T0);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('give the three X-RateLimit headers to an allowed hit', async () => {
    const result = await new MemoryRateLimitStore().hit('key:1', 5000, HOUR_MS);
    expect(rateLimitHeaders(result)).toStrictEqual({
      'X-RateLimit-Limit': '5000',
      'X-RateLimit-Remaining': '4999',
      'X-RateLimit-Reset': String(T0_S + 3600),
    });
  });

  it('give a refused hit the 429 body with retryAfter and all four headers', async () => {
    const store = new MemoryRateLimitStore();
    await store.hit('key:1', 1, HOUR_MS);
    vi.setSystemTime(T0 + 600_000);
    const error = rateLimitedError(await store.hit('key:1', 1, HOUR_MS));
    expect(error.status).toBe(429);
    expect(error.toBody()).toStrictEqual({ error: 'Rate limit exceeded', code: 'rate_limited', retryAfter: 3000 });
    expect(error.headers).toStrictEqual({
      'X-RateLimit-Limit': '1',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(T0_S + 3600),
      'Retry-After': '3000',
    });
  });
});

describe('createRateLimitStore', () => {
  it('keeps counters in process without REDIS_URL', async () => {
    const store = await createRateLimitStore({ redisUrl: null });
    expect(store).toBeInstanceOf(MemoryRateLimitStore);
    expect(store.kind).toBe('memory');
    await store.close();
  });

  it.runIf(hasRedis)('keeps counters in Redis with REDIS_URL', async () => {
    const store = await createRateLimitStore({ redisUrl: REDIS_URL }, { keyPrefix: `rl-test:${randomUUID()}` });
    expect(store).toBeInstanceOf(RedisRateLimitStore);
    expect(store.kind).toBe('redis');
    expect((await store.hit('key:1', 2, HOUR_MS)).remaining).toBe(1);
    await store.close();
  });
});

describe.runIf(hasRedis)('RedisRateLimitStore', () => {
  const prefix = `rl-test:${process.pid}:${randomUUID()}`;
  const redisKey = (bucket: string): string => `${prefix}:${bucket}`;
  let redis: Redis;
  let store: RedisRateLimitStore;

  beforeAll(async () => {
    redis = new Redis(REDIS_URL);
    store = new RedisRateLimitStore(redis, { keyPrefix: prefix });
  });

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await store.close();
    await redis.quit();
  });

  it('starts a one-hour window at the first hit and counts remaining down', async () => {
    const before = Date.now();
    const results: RateLimitResult[] = [];
    for (let i = 0; i < 4; i++) results.push(await store.hit('key:countdown', 3, HOUR_MS));
    expect(results.map((r) => [r.allowed, r.remaining])).toStrictEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    const first = results[0]!;
    expect(first.limit).toBe(3);
    expect(first.resetAt).toBeGreaterThanOrEqual(Math.floor((before + HOUR_MS) / 1000));
    expect(first.resetAt).toBeLessThanOrEqual(Math.ceil((Date.now() + HOUR_MS) / 1000));
    for (const r of results) expect(Math.abs(r.resetAt - first.resetAt)).toBeLessThanOrEqual(1);
    expect(results[3]!.retryAfter).toBeGreaterThan(3500);
    const ttl = await redis.pttl(redisKey('key:countdown'));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(HOUR_MS);
    // rate-limiter-flexible counts the refused hit too; the window did not move.
    expect(await redis.get(redisKey('key:countdown'))).toBe('4');
  });

  it('opens a new window once the old one expired', async () => {
    await store.hit('key:short', 1, 1000);
    expect((await store.hit('key:short', 1, 1000)).allowed).toBe(false);
    // Redis expires the key itself: poll for that event rather than sleeping a guess.
    while ((await redis.exists(redisKey('key:short'))) === 1) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await store.hit('key:short', 1, 1000)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('keeps buckets independent', async () => {
    await store.hit('key:a', 1, HOUR_MS);
    expect((await store.hit('key:a', 1, HOUR_MS)).allowed).toBe(false);
    expect((await store.hit('key:b', 1, HOUR_MS)).allowed).toBe(true);
  });

  it('allows exactly the limit out of 50 concurrent hits', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, () => store.hit('key:concurrent', 10, HOUR_MS)));
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
    expect(results.filter((r) => r.remaining === 0)).toHaveLength(41);
  });

  it('gives a key left without a TTL a window instead of blocking it forever', async () => {
    await redis.set(redisKey('key:no-ttl'), '5');
    const result = await store.hit('key:no-ttl', 5, HOUR_MS);
    expect(result).toMatchObject({ allowed: false, remaining: 0 });
    expect(await redis.pttl(redisKey('key:no-ttl'))).toBeGreaterThan(0);
  });

  it('lets two server processes sharing Redis allow exactly the limit between them', async () => {
    const script = fileURLToPath(new URL('./hit-shared-bucket.script.ts', import.meta.url));
    const cwd = fileURLToPath(new URL('../..', import.meta.url));
    const limit = 37;
    const hitsEach = 60;
    const children: ChildProcessWithoutNullStreams[] = [0, 1].map(() =>
      spawn(process.execPath, ['--import', 'tsx', script, REDIS_URL, prefix, 'key:shared', String(limit), String(hitsEach)], {
        cwd,
        stdio: 'pipe',
      }),
    );
    const outputs = children.map((child) => {
      const lines = createInterface({ input: child.stdout });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const ready = new Promise<void>((resolve, reject) => {
        lines.once('line', (line) => (line === 'ready' ? resolve() : reject(new Error(`unexpected: ${line}`))));
        child.once('exit', (code) => reject(new Error(`child exited ${code} before ready: ${stderr}`)));
      });
      const result = new Promise<{ allowed: number; minRemaining: number }>((resolve, reject) => {
        lines.on('line', (line) => {
          if (line !== 'ready') resolve(JSON.parse(line) as { allowed: number; minRemaining: number });
        });
        child.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`child exited ${code}: ${stderr}`))));
      });
      return { ready, result };
    });
    try {
      await Promise.all(outputs.map((o) => o.ready));
      for (const child of children) child.stdin.write('go\n');
      const results = await Promise.all(outputs.map((o) => o.result));
      expect(results[0]!.allowed + results[1]!.allowed).toBe(limit);
      expect(results.map((r) => r.minRemaining)).toStrictEqual([0, 0]);
      expect(await redis.get(redisKey('key:shared'))).toBe(String(2 * hitsEach));
    } finally {
      for (const child of children) if (child.exitCode === null) child.kill();
    }
  });
});
