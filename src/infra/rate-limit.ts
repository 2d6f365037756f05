import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract, type RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import { connectRedis, redisHealth, withRedisFallback } from './redis.js';

/**
 * The hourly request budgets (contract: "rate limit", "rate-limit window", site-key budgets) and the per-field
 * GraphQL limits, counted by rate-limiter-flexible in process or in Redis. A bucket is any string the caller picks
 * (`key:<apiKeyId>`, `site:<siteId>`, `site-attempt:<siteId>`, `field:…`); its window is fixed: it starts at the
 * bucket's first hit and lasts `windowMs` (GitHub's way), refused hits never move it, and `resetAt` is its end.
 *
 * A refused hit is counted too (rate-limiter-flexible's way; a bucket's budget never changes within a window, so
 * nobody sees the difference): `remaining` is floored at 0.
 */
export interface RateLimitResult {
  allowed: boolean;
  /** The budget of the window (`X-RateLimit-Limit`). */
  limit: number;
  /** Requests left after this one (`X-RateLimit-Remaining`), never negative. */
  remaining: number;
  /** Unix seconds when the window ends (`X-RateLimit-Reset`), rounded up so that waiting until then is enough. */
  resetAt: number;
  /** Whole seconds until the window ends, at least 1 (`Retry-After` and `retryAfter` on a 429). */
  retryAfter: number;
}

export interface RateLimitStore {
  readonly kind: 'memory' | 'redis';
  /** True while a shared store is unreachable and this process counts on its own. */
  readonly degraded: boolean;
  /**
   * Takes `points` (1 unless told) atomically, refused when the bucket would pass its budget (what a refused hit of
   * several points took is given back, so a large refused request leaves the rest for smaller ones).
   * `windowMs`: whole seconds only (Redis keeps TTLs in seconds here); one hour unless told.
   */
  hit(bucket: string, limit: number, windowMs?: number, points?: number): Promise<RateLimitResult>;
  /**
   * Charges after the fact (decisions §7.1: a GraphQL operation reserves `requested`, then pays `actual`): adds
   * `delta` points (negative gives some back), never refused; `allowed` is true.
   */
  adjust(bucket: string, limit: number, delta: number, windowMs?: number): Promise<RateLimitResult>;
  /**
   * What `hit` would answer, using nothing: `remaining` is the budget left before this request, `allowed` false
   * when it is spent. A conditional GET peeks, and hits only when its answer is not a 304 (contract §6.2: a 304
   * uses no budget); a hit refused after an allowed peek (another replica took the last unit) is still a 429.
   */
  peek(bucket: string, limit: number, windowMs?: number, points?: number): Promise<RateLimitResult>;
  /** Quits the Redis connection the store opened; forgets the in-process counters. */
  close(): Promise<void>;
}

export const HOUR_MS = 60 * 60 * 1000;

/** Builds the result every store returns, from the count after this hit and the milliseconds the window has left. */
export function rateLimitResult(allowed: boolean, limit: number, count: number, msLeft: number, now: number = Date.now()): RateLimitResult {
  const left = Math.max(0, msLeft);
  return {
    allowed,
    limit,
    remaining: Math.max(0, limit - count),
    resetAt: Math.ceil((now + left) / 1000),
    retryAfter: Math.max(1, Math.ceil(left / 1000)),
  };
}

/** The headers of every response after the rate-limit step (contract: "rate-limit headers"); a refusal adds Retry-After. */
export function rateLimitHeaders(result: RateLimitResult): Record<string, string> {
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(result.limit),
    'X-RateLimit-Remaining': String(result.remaining),
    'X-RateLimit-Reset': String(result.resetAt),
  };
  if (!result.allowed) headers['Retry-After'] = String(result.retryAfter);
  return headers;
}

/** The 429 for a refused hit: `{ error, code: "rate_limited", retryAfter }` (and a GraphQL operation's `cost`) with all four headers. */
export function rateLimitedError(result: RateLimitResult, cost?: number): AppError {
  return new AppError('rate_limited', { retryAfter: result.retryAfter, ...(cost === undefined ? {} : { cost }) }, { headers: rateLimitHeaders(result) });
}

function windowSeconds(windowMs: number): number {
  // rate-limiter-flexible's Redis store floors to whole seconds, and 0 there means "never expires".
  if (!Number.isInteger(windowMs / 1000) || windowMs < 1000) throw new Error(`Rate-limit windows are whole seconds, got ${windowMs} ms`);
  return windowMs / 1000;
}

/**
 * One limiter serves buckets of different budgets (each API key has its own), so it never refuses by itself
 * (`points` is unbounded): it keeps each bucket's counter and window atomically, and the budget is compared here.
 */
abstract class FlexibleRateLimitStore implements RateLimitStore {
  abstract readonly kind: 'memory' | 'redis';
  abstract readonly degraded: boolean;

  constructor(private readonly limiter: RateLimiterAbstract) {}

  async hit(bucket: string, limit: number, windowMs: number = HOUR_MS, points = 1): Promise<RateLimitResult> {
    const res = await this.limiter.consume(bucket, points, { customDuration: windowSeconds(windowMs) });
    if (res.consumedPoints <= limit) return rateLimitResult(true, limit, res.consumedPoints, res.msBeforeNext);
    // A one-point refusal leaves the bucket at or past its budget either way; a larger one gives its points back.
    if (points > 1) await this.limiter.reward(bucket, points, { customDuration: windowSeconds(windowMs) });
    return rateLimitResult(false, limit, res.consumedPoints - points, res.msBeforeNext);
  }

  async adjust(bucket: string, limit: number, delta: number, windowMs: number = HOUR_MS): Promise<RateLimitResult> {
    if (delta === 0) return { ...(await this.peek(bucket, limit, windowMs)), allowed: true };
    const options = { customDuration: windowSeconds(windowMs) };
    const res = await (delta > 0 ? this.limiter.consume(bucket, delta, options) : this.limiter.reward(bucket, -delta, options));
    return rateLimitResult(true, limit, res.consumedPoints, res.msBeforeNext);
  }

  async peek(bucket: string, limit: number, windowMs: number = HOUR_MS, points = 1): Promise<RateLimitResult> {
    const res: RateLimiterRes | null = await this.limiter.get(bucket);
    // No live window: none is started (a 304 is not a request of the budget); the next hit starts it.
    if (!res || res.msBeforeNext <= 0) return rateLimitResult(points <= limit, limit, 0, windowSeconds(windowMs) * 1000);
    return rateLimitResult(res.consumedPoints + points <= limit, limit, res.consumedPoints, res.msBeforeNext);
  }

  abstract close(): Promise<void>;
}

const UNBOUNDED = { points: Number.MAX_SAFE_INTEGER, duration: HOUR_MS / 1000 };

/** Counters of this process only (no REDIS_URL): one Map entry per live window, dropped by a timer when it ends. */
export class MemoryRateLimitStore extends FlexibleRateLimitStore {
  readonly kind = 'memory' as const;
  readonly degraded = false;
  private readonly memory: RateLimiterMemory;

  constructor() {
    const memory = new RateLimiterMemory(UNBOUNDED);
    super(memory);
    this.memory = memory;
  }

  /** Buckets with a live window. */
  get size(): number {
    return this.memory.dump().storage.length;
  }

  async close(): Promise<void> {
    for (const { key } of this.memory.dump().storage) await this.memory.delete(key);
  }
}

/**
 * Counters shared by every replica (REDIS_URL): one Lua call per hit (SET NX EX, INCRBY, PTTL, atomic, so replicas
 * sharing Redis allow exactly the budget between them); a peek is one MULTI of GET and PTTL. Keys are
 * `<keyPrefix>:<bucket>` (`rl:key:<id>` by default) and expire with their window.
 *
 * While Redis is unreachable or slower than REDIS_COMMAND_TIMEOUT_MS, hits are counted in this process instead
 * (fail open, contract "Redis unavailable"): each replica then enforces the budget on its own, so a key may get up
 * to one budget per replica for that while, and no request waits for Redis or fails for it. Back on Redis, the
 * counts kept there go on (Redis's own, if it kept its data).
 */
export class RedisRateLimitStore extends FlexibleRateLimitStore {
  readonly kind = 'redis' as const;
  private readonly fallback = new MemoryRateLimitStore();

  /** `redis` stays the caller's (close() leaves it open) unless `ownsConnection` (as from `connect`). */
  constructor(
    private readonly redis: Redis,
    private readonly options: { keyPrefix?: string; ownsConnection?: boolean } = {},
  ) {
    super(new RateLimiterRedis({ ...UNBOUNDED, storeClient: redis, keyPrefix: options.keyPrefix ?? 'rl' }));
  }

  /** True while hits are counted in this process (Redis unreachable): /readyz reports it. */
  get degraded(): boolean {
    return redisHealth(this.redis).down;
  }

  static async connect(url: string, options: { keyPrefix?: string } = {}): Promise<RedisRateLimitStore> {
    return new RedisRateLimitStore(await connectRedis(url), { ...options, ownsConnection: true });
  }

  override async hit(bucket: string, limit: number, windowMs: number = HOUR_MS, points = 1): Promise<RateLimitResult> {
    return withRedisFallback(this.redis, () => super.hit(bucket, limit, windowMs, points), () => this.fallback.hit(bucket, limit, windowMs, points));
  }

  override async adjust(bucket: string, limit: number, delta: number, windowMs: number = HOUR_MS): Promise<RateLimitResult> {
    return withRedisFallback(this.redis, () => super.adjust(bucket, limit, delta, windowMs), () => this.fallback.adjust(bucket, limit, delta, windowMs));
  }

  override async peek(bucket: string, limit: number, windowMs: number = HOUR_MS, points = 1): Promise<RateLimitResult> {
    return withRedisFallback(this.redis, () => super.peek(bucket, limit, windowMs, points), () => this.fallback.peek(bucket, limit, windowMs, points));
  }

  async close(): Promise<void> {
    await this.fallback.close();
    if (this.options.ownsConnection) await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/**
 * Redis when REDIS_URL is set, so that every replica draws on one budget (contract: "shared counters");
 * in-process otherwise. `redis`: the process's connection (src/infra/redis.ts), left open by `close()`; without it the
 * store opens (and on `close()` quits) its own.
 */
export async function createRateLimitStore(
  config: Pick<Config, 'redisUrl'>,
  options: { keyPrefix?: string; redis?: Redis | null } = {},
): Promise<MemoryRateLimitStore | RedisRateLimitStore> {
  const { redis, ...storeOptions } = options;
  if (!config.redisUrl) return new MemoryRateLimitStore();
  return redis ? new RedisRateLimitStore(redis, storeOptions) : RedisRateLimitStore.connect(config.redisUrl, storeOptions);
}
