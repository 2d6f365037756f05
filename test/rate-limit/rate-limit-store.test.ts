import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  it('starts the window at the first hit and ends it one hour later', async () => {
    const store = new MemoryRateLimitStore();
    expect(await store.hit('key:1', 5000, HOUR_MS, T0 + 1234)).toStrictEqual({
      allowed: true,
      limit: 5000,
      remaining: 4999,
      resetAt: Math.ceil((T0 + 1234 + HOUR_MS) / 1000),
      retryAfter: 3600,
    });
  });

  it('counts remaining down within one window whose end does not move', async () => {
    const store = new MemoryRateLimitStore();
    const first = await store.hit('key:1', 3, HOUR_MS, T0);
    const second = await store.hit('key:1', 3, HOUR_MS, T0 + 10 * 60_000);
    const third = await store.hit('key:1', 3, HOUR_MS, T0 + 59 * 60_000);
    expect([first, second, third]).toStrictEqual([
      { allowed: true, limit: 3, remaining: 2, resetAt: T0_S + 3600, retryAfter: 3600 },
      { allowed: true, limit: 3, remaining: 1, resetAt: T0_S + 3600, retryAfter: 3000 },
      { allowed: true, limit: 3, remaining: 0, resetAt: T0_S + 3600, retryAfter: 60 },
    ]);
  });

  it('refuses the hit after the budget with the 429 data, without moving the window', async () => {
    const store = new MemoryRateLimitStore();
    await store.hit('key:1', 2, HOUR_MS, T0);
    await store.hit('key:1', 2, HOUR_MS, T0 + 1000);
    expect(await store.hit('key:1', 2, HOUR_MS, T0 + 30 * 60_000)).toStrictEqual({
      allowed: false,
      limit: 2,
      remaining: 0,
      resetAt: T0_S + 3600,
      retryAfter: 1800,
    });
    expect(await store.hit('key:1', 2, HOUR_MS, T0 + HOUR_MS - 1)).toStrictEqual({
      allowed: false,
      limit: 2,
      remaining: 0,
      resetAt: T0_S + 3600,
      retryAfter: 1,
    });
  });

  it('does not count refused hits, so a raised limit applies within the same window', async () => {
    const store = new MemoryRateLimitStore();
    await store.hit('key:1', 1, HOUR_MS, T0);
    for (let i = 0; i < 5; i++) expect((await store.hit('key:1', 1, HOUR_MS, T0 + i)).allowed).toBe(false);
    expect(await store.hit('key:1', 3, HOUR_MS, T0 + 10)).toMatchObject({ allowed: true, remaining: 1, resetAt: T0_S + 3600 });
  });

  it('opens a new window at the first hit after the old one ended', async () => {
    const store = new MemoryRateLimitStore();
    await store.hit('key:1', 1, HOUR_MS, T0);
    expect((await store.hit('key:1', 1, HOUR_MS, T0 + 5000)).allowed).toBe(false);
    const later = T0 + HOUR_MS + 90_000;
    expect(await store.hit('key:1', 1, HOUR_MS, later)).toStrictEqual({
      allowed: true,
      limit: 1,
      remaining: 0,
      resetAt: (later + HOUR_MS) / 1000,
      retryAfter: 3600,
    });
  });

  it('keeps buckets independent', async () => {
    const store = new MemoryRateLimitStore();
    await store.hit('key:1', 1, HOUR_MS, T0);
    expect((await store.hit('key:1', 1, HOUR_MS, T0 + 1)).allowed).toBe(false);
    expect(await store.hit('key:2', 1, HOUR_MS, T0 + 60_000)).toMatchObject({ allowed: true, resetAt: T0_S + 3660 });
    expect(await store.hit('site:1', 600, HOUR_MS, T0 + 2)).toMatchObject({ allowed: true, remaining: 599 });
  });

  it('sweeps ended windows so that memory does not grow with every key ever seen', async () => {
    const store = new MemoryRateLimitStore({ sweepEveryMs: 60_000 });
    for (let i = 0; i < 1000; i++) await store.hit(`key:${i}`, 10, HOUR_MS, T0);
    expect(store.size).toBe(1000);
    await store.hit('key:late', 10, HOUR_MS, T0 + HOUR_MS + 1);
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
  it('give the three X-RateLimit headers to an allowed hit', async () => {
    const result = await new MemoryRateLimitStore().hit('key:1', 5000, HOUR_MS, T0);
    expect(rateLimitHeaders(result)).toStrictEqual({
      'X-RateLimit-Limit': '5000',
      'X-RateLimit-Remaining': '4999',
      'X-RateLimit-Reset': String(T0_S + 3600),
    });
  });

  it('give a refused hit the 429 body with retryAfter and all four headers', async () => {
    const store = new MemoryRateLimitStore();
    await store.hit('key:1', 1, HOUR_MS, T0);
    const error = rateLimitedError(await store.hit('key:1', 1, HOUR_MS, T0 + 600_000));
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
    const store = await createRateLimitStore({ redisUrl: REDIS_URL }, { keyPrefix: `rl-test:${randomUUID()}:` });
    expect(store).toBeInstanceOf(RedisRateLimitStore);
    expect(store.kind).toBe('redis');
    expect((await store.hit('key:1', 2, HOUR_MS)).remaining).toBe(1);
    await store.close();
  });
});

describe.runIf(hasRedis)('RedisRateLimitStore', () => {
  const prefix = `rl-test:${process.pid}:${randomUUID()}:`;
  let redis: Redis;
  let store: RedisRateLimitStore;

  beforeAll(async () => {
    redis = new Redis(REDIS_URL);
    store = new RedisRateLimitStore(redis, { keyPrefix: prefix });
  });

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
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
    const ttl = await redis.pttl(`${prefix}key:countdown`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(HOUR_MS);
    expect(await redis.get(`${prefix}key:countdown`)).toBe('3');
  });

  it('opens a new window once the old one expired', async () => {
    await store.hit('key:short', 1, 200);
    expect((await store.hit('key:short', 1, 200)).allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await store.hit('key:short', 1, 200)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('keeps buckets independent', async () => {
    await store.hit('key:a', 1, HOUR_MS);
    expect((await store.hit('key:a', 1, HOUR_MS)).allowed).toBe(false);
    expect((await store.hit('key:b', 1, HOUR_MS)).allowed).toBe(true);
  });

  it('allows exactly the limit out of 50 concurrent hits and never counts past it', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, () => store.hit('key:concurrent', 10, HOUR_MS)));
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
    expect(await redis.get(`${prefix}key:concurrent`)).toBe('10');
  });

  it('gives a key left without a TTL a window instead of blocking it forever', async () => {
    await redis.set(`${prefix}key:no-ttl`, '5');
    const result = await store.hit('key:no-ttl', 5, HOUR_MS);
    expect(result).toMatchObject({ allowed: false, remaining: 0 });
    expect(await redis.pttl(`${prefix}key:no-ttl`)).toBeGreaterThan(0);
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
      expect(await redis.get(`${prefix}key:shared`)).toBe(String(limit));
    } finally {
      for (const child of children) if (child.exitCode === null) child.kill();
    }
  });
});
