import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import type { Redis } from 'ioredis';

/**
 * The hourly request budgets (contract: "rate limit", "rate-limit window", site-key budgets). A bucket is any
 * string the caller picks (`key:<apiKeyId>`, `site:<siteId>`, `site-attempt:<siteId>`); its window starts at the
 * bucket's first hit and lasts `windowMs` (GitHub's way), and `resetAt` is that window's end.
 *
 * A refused hit changes nothing: it neither counts nor moves the window, so `remaining` is never negative, the
 * counter always equals the requests actually served, and a raised per-key limit takes effect on the next request
 * of the same window.
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
  hit(bucket: string, limit: number, windowMs: number, now?: number): Promise<RateLimitResult>;
  /**
   * What `hit` would answer, using nothing: `remaining` is the budget left before this request, `allowed` false
   * when it is spent. A conditional GET peeks, and hits only when its answer is not a 304 (contract §6.2: a 304
   * uses no budget); a hit refused after an allowed peek (another replica took the last unit) is still a 429.
   */
  peek(bucket: string, limit: number, windowMs: number, now?: number): Promise<RateLimitResult>;
}

export const HOUR_MS = 60 * 60 * 1000;

/** Builds the result every store returns, from the count after this hit and the milliseconds the window has left. */
export function rateLimitResult(allowed: boolean, limit: number, count: number, msLeft: number, now: number): RateLimitResult {
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

/** The 429 for a refused hit: `{ error, code: "rate_limited", retryAfter }` with all four headers. */
export function rateLimitedError(result: RateLimitResult): AppError {
  return new AppError('rate_limited', { retryAfter: result.retryAfter }, { headers: rateLimitHeaders(result) });
}

interface Window {
  count: number;
  endsAt: number;
}

/**
 * In-process counters for a single server (no REDIS_URL). `hit` does all its work synchronously, so concurrent
 * requests cannot interleave between the read and the write. Expired windows are swept at most once per
 * `sweepEveryMs` (on a hit, with the same clock), so the Map holds only buckets with a live window.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly kind = 'memory' as const;
  private readonly windows = new Map<string, Window>();
  private nextSweepAt = 0;
  private readonly sweepEveryMs: number;

  constructor(options: { sweepEveryMs?: number } = {}) {
    this.sweepEveryMs = options.sweepEveryMs ?? 60_000;
  }

  /** Buckets currently held (expired ones not yet swept included). */
  get size(): number {
    return this.windows.size;
  }

  async hit(bucket: string, limit: number, windowMs: number, now: number = Date.now()): Promise<RateLimitResult> {
    this.sweep(now);
    let window = this.windows.get(bucket);
    if (!window || window.endsAt <= now) {
      window = { count: 0, endsAt: now + windowMs };
      this.windows.set(bucket, window);
    }
    const allowed = window.count < limit;
    if (allowed) window.count += 1;
    return rateLimitResult(allowed, limit, window.count, window.endsAt - now, now);
  }

  async peek(bucket: string, limit: number, windowMs: number, now: number = Date.now()): Promise<RateLimitResult> {
    const window = this.windows.get(bucket);
    // No live window: none is started (a 304 is not a request of the budget); the next hit starts it.
    if (!window || window.endsAt <= now) return rateLimitResult(limit > 0, limit, 0, windowMs, now);
    return rateLimitResult(window.count < limit, limit, window.count, window.endsAt - now, now);
  }

  async close(): Promise<void> {
    this.windows.clear();
  }

  private sweep(now: number): void {
    if (now < this.nextSweepAt) return;
    this.nextSweepAt = now + this.sweepEveryMs;
    for (const [bucket, window] of this.windows) {
      if (window.endsAt <= now) this.windows.delete(bucket);
    }
  }
}

/**
 * The Lua script runs atomically inside Redis, so two server processes sharing it can never both take the last
 * request of a budget; one EVALSHA per hit. The window is created by the bucket's first hit (SET … PX) and never
 * extended; refused hits leave the counter alone. A key found without a TTL (written by hand) gets one, so it cannot
 * block a bucket forever. Returns { count after this hit, ms left in the window, 1 when allowed }.
 */
const HIT_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '-1')
if count == -1 then
  redis.call('SET', KEYS[1], 0, 'PX', ARGV[2])
  count = 0
end
local allowed = 0
if count < tonumber(ARGV[1]) then
  count = redis.call('INCR', KEYS[1])
  allowed = 1
end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  ttl = tonumber(ARGV[2])
end
return { count, ttl, allowed }
`;

/** Reads the count and the window's time left in one atomic step, writing nothing: { count, ms left, 1 when allowed }. */
const PEEK_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  count = 0
  ttl = tonumber(ARGV[2])
end
local allowed = 0
if count < tonumber(ARGV[1]) then allowed = 1 end
return { count, ttl, allowed }
`;

type RedisWithHit = Redis & {
  rateLimitHit(key: string, limit: number, windowMs: number): Promise<unknown>;
  rateLimitPeek(key: string, limit: number, windowMs: number): Promise<unknown>;
};

function isHitReply(reply: unknown): reply is [number, number, number] {
  return Array.isArray(reply) && reply.length === 3 && reply.every((n) => typeof n === 'number');
}

/**
 * Counters shared by every replica (REDIS_URL). Keys are `<keyPrefix><bucket>` and expire with their window, so
 * Redis holds only live windows. Redis keeps the window's time (PX); `now` only turns its TTL into `resetAt`.
 */
export class RedisRateLimitStore implements RateLimitStore {
  readonly kind = 'redis' as const;
  private readonly redis: RedisWithHit;
  private readonly keyPrefix: string;
  private readonly ownsConnection: boolean;

  /** `redis` stays the caller's (close() leaves it open) unless it came from `connect`. */
  constructor(redis: Redis, options: { keyPrefix?: string; ownsConnection?: boolean } = {}) {
    redis.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    redis.defineCommand('rateLimitPeek', { numberOfKeys: 1, lua: PEEK_SCRIPT });
    this.redis = redis as RedisWithHit;
    this.keyPrefix = options.keyPrefix ?? 'rl:';
    this.ownsConnection = options.ownsConnection ?? false;
  }

  static async connect(url: string, options: { keyPrefix?: string } = {}): Promise<RedisRateLimitStore> {
    // Loaded only with REDIS_URL: a single replica never pays the client's ~10 MB.
    const { Redis } = await import('ioredis');
    // Requests must not hang behind a dead Redis: fail fast and let the error surface as a 500.
    const redis = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true });
    return new RedisRateLimitStore(redis, { ...options, ownsConnection: true });
  }

  /** The connection, for the per-field limiter to share (src/schema/field-rate-limit.ts). */
  get client(): Redis {
    return this.redis;
  }

  async hit(bucket: string, limit: number, windowMs: number, now: number = Date.now()): Promise<RateLimitResult> {
    const reply = await this.redis.rateLimitHit(this.keyPrefix + bucket, limit, Math.max(1, Math.round(windowMs)));
    if (!isHitReply(reply)) throw new Error('Unexpected reply from the rate-limit script');
    const [count, msLeft, allowed] = reply;
    return rateLimitResult(allowed === 1, limit, count, msLeft, now);
  }

  async peek(bucket: string, limit: number, windowMs: number, now: number = Date.now()): Promise<RateLimitResult> {
    const reply = await this.redis.rateLimitPeek(this.keyPrefix + bucket, limit, Math.max(1, Math.round(windowMs)));
    if (!isHitReply(reply)) throw new Error('Unexpected reply from the rate-limit peek script');
    const [count, msLeft, allowed] = reply;
    return rateLimitResult(allowed === 1, limit, count, msLeft, now);
  }

  async close(): Promise<void> {
    if (this.ownsConnection) await this.redis.quit();
  }
}

/**
 * Redis when REDIS_URL is set, so that every replica draws on one budget (contract: "shared counters");
 * in-process otherwise. Call `close()` on shutdown (it quits the Redis connection it opened).
 */
export async function createRateLimitStore(
  config: Pick<Config, 'redisUrl'>,
  options: { keyPrefix?: string } = {},
): Promise<MemoryRateLimitStore | RedisRateLimitStore> {
  return config.redisUrl ? RedisRateLimitStore.connect(config.redisUrl, options) : new MemoryRateLimitStore();
}
