import type { Redis } from 'ioredis';
import { errorKind, logger } from './log.js';

/**
 * The process's Redis connection (REDIS_URL), shared by the rate-limit counters and the stream slots, and what they do
 * while Redis is away: requests never wait for it or fail for it (contract §1 "Redis unavailable"). Each user falls
 * back to its in-process store meanwhile and goes back to Redis by itself.
 */

/** How long a command may take before its caller falls back to the process's own store. */
export const REDIS_COMMAND_TIMEOUT_MS = 250;
/** After a command failed on a connection that still looks up (a stalled Redis), how long before Redis is asked again. */
const REDIS_RETRY_MS = 1_000;

/**
 * Whether Redis is worth asking: down at the first failed command or client error (ioredis emits one per failed
 * reconnect: only the change is logged, one JSON line each way), up again when the client is ready or a command
 * succeeds. One per client, whoever uses it.
 */
export class RedisHealth {
  private isDown = false;
  private retryAt = 0;

  constructor(private readonly redis: Redis) {
    redis.on('error', (error: unknown) => this.failed(error));
    redis.on('ready', () => this.succeeded());
  }

  /** Not down, or down but due for another try (a stalled Redis sends no event when it answers again). */
  get usable(): boolean {
    return !this.isDown || (this.redis.status === 'ready' && Date.now() >= this.retryAt);
  }

  get down(): boolean {
    return this.isDown;
  }

  failed(error: unknown): void {
    this.retryAt = Date.now() + REDIS_RETRY_MS;
    if (this.isDown) return;
    this.isDown = true;
    // The kind only: a message may quote the URL, password included.
    logger.warn({ error: errorKind(error) }, 'redis unavailable: rate limits and stream slots counted per process until it is back');
  }

  succeeded(): void {
    this.retryAt = 0;
    if (!this.isDown) return;
    this.isDown = false;
    logger.info('redis available again: rate limits and stream slots shared');
  }
}

const healths = new WeakMap<Redis, RedisHealth>();

/** The health of `redis`, made on first use and shared by every user of that client. */
export function redisHealth(redis: Redis): RedisHealth {
  let health = healths.get(redis);
  if (!health) {
    health = new RedisHealth(redis);
    healths.set(redis, health);
  }
  return health;
}

/** Runs `onRedis`, or `inProcess` while Redis is down or when `onRedis` fails. */
export async function withRedisFallback<T>(redis: Redis, onRedis: () => Promise<T>, inProcess: () => Promise<T>): Promise<T> {
  const health = redisHealth(redis);
  if (!health.usable) return inProcess();
  try {
    const result = await onRedis();
    health.succeeded();
    return result;
  } catch (error) {
    health.failed(error);
    return inProcess();
  }
}

/**
 * Connects to REDIS_URL. Commands are never queued while the connection is down (they would answer late, all at
 * once), time out after REDIS_COMMAND_TIMEOUT_MS while Redis stalls, and reconnects are at most a second apart so that
 * Redis is back in use soon after it returns. A process starting while Redis is away starts anyway (after 2 s).
 */
export async function connectRedis(url: string): Promise<Redis> {
  // Loaded only with REDIS_URL: a single replica never pays the client's ~10 MB.
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: 1_000,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
  });
  redisHealth(redis);
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 2_000);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return redis;
}
