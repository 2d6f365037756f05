import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { connectRedis, withRedisFallback } from './redis.js';

/**
 * Slots of a capped resource shared by every replica (contract §7.2: at most 5 open streams per key, whichever the
 * replica). A slot is a lease: held while its stream is open, renewed by its replica, and gone `leaseMs` after that
 * replica stopped renewing it (kill -9), so a dead replica's streams never hold slots for ever.
 */
export interface StreamSlots {
  readonly kind: 'memory' | 'redis';
  /** Takes one of `cap` slots of `owner`: the lease id, or null when every slot is taken. */
  acquire(owner: string, cap: number): Promise<string | null>;
  release(owner: string, lease: string): Promise<void>;
  close(): Promise<void>;
}

/** One process: a replica that dies takes its slots with it. */
export class MemoryStreamSlots implements StreamSlots {
  readonly kind = 'memory' as const;
  private readonly held = new Map<string, Set<string>>();

  async acquire(owner: string, cap: number): Promise<string | null> {
    const leases = this.held.get(owner) ?? new Set<string>();
    if (leases.size >= cap) return null;
    const lease = randomUUID();
    leases.add(lease);
    this.held.set(owner, leases);
    return lease;
  }

  async release(owner: string, lease: string): Promise<void> {
    const leases = this.held.get(owner);
    leases?.delete(lease);
    if (leases?.size === 0) this.held.delete(owner);
  }

  async close(): Promise<void> {
    this.held.clear();
  }
}

/**
 * A sorted set per owner (`<prefix>:<owner>`): lease → expiry in Redis's clock (TIME, so replicas' clocks never
 * matter). Taking a slot first drops expired leases, all in one script, so replicas allow exactly `cap` together.
 */
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1]))
return 1`;

const RENEW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[1]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1]))
return 1`;

/**
 * While Redis is away (src/infra/redis.ts), slots are taken in this process instead: the cap then holds per replica,
 * and no stream is refused or slowed for Redis.
 */
export class RedisStreamSlots implements StreamSlots {
  readonly kind = 'redis' as const;
  private readonly held = new Map<string, string>();
  private readonly fallback = new MemoryStreamSlots();
  private readonly timer: NodeJS.Timeout;

  /** `redis` stays the caller's (close() leaves it open) unless `ownsConnection` (as from `connect`). */
  constructor(
    private readonly redis: Redis,
    private readonly options: { leaseMs: number; keyPrefix: string; ownsConnection?: boolean },
  ) {
    // Renewed three times per lease period: one late renewal never loses a live stream's slot.
    this.timer = setInterval(() => void this.renew(), Math.max(100, Math.floor(options.leaseMs / 3)));
    this.timer.unref();
  }

  static async connect(url: string, options: { leaseMs: number; keyPrefix?: string }): Promise<RedisStreamSlots> {
    return new RedisStreamSlots(await connectRedis(url), { leaseMs: options.leaseMs, keyPrefix: options.keyPrefix ?? 'streams', ownsConnection: true });
  }

  private key(owner: string): string {
    return `${this.options.keyPrefix}:${owner}`;
  }

  async acquire(owner: string, cap: number): Promise<string | null> {
    return withRedisFallback(
      this.redis,
      async () => {
        const lease = randomUUID();
        const taken = await this.redis.eval(ACQUIRE, 1, this.key(owner), this.options.leaseMs, cap, lease);
        if (taken !== 1) return null;
        this.held.set(lease, owner);
        return lease;
      },
      () => this.fallback.acquire(owner, cap),
    );
  }

  async release(owner: string, lease: string): Promise<void> {
    if (!this.held.delete(lease)) return this.fallback.release(owner, lease);
    // Unreachable Redis: the lease expires there by itself.
    await this.redis.zrem(this.key(owner), lease).catch(() => undefined);
  }

  private async renew(): Promise<void> {
    if (this.held.size === 0) return;
    const batch = this.redis.pipeline();
    for (const [lease, owner] of this.held) batch.eval(RENEW, 1, this.key(owner), this.options.leaseMs, lease);
    // A failed renewal is retried on the next tick; a lease lost meanwhile only lets one more stream open.
    await batch.exec().catch(() => undefined);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    const batch = this.redis.pipeline();
    for (const [lease, owner] of this.held) batch.zrem(this.key(owner), lease);
    this.held.clear();
    await batch.exec().catch(() => undefined);
    await this.fallback.close();
    if (this.options.ownsConnection) await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/** `redis`: the process's connection (src/infra/redis.ts), left open by `close()`; without it the slots open their own. */
export async function createStreamSlots(
  config: { redisUrl: string | null; streamLeaseMs: number },
  options: { keyPrefix?: string; redis?: Redis | null } = {},
): Promise<StreamSlots> {
  if (!config.redisUrl) return new MemoryStreamSlots();
  const keyPrefix = options.keyPrefix ?? 'streams';
  return options.redis
    ? new RedisStreamSlots(options.redis, { leaseMs: config.streamLeaseMs, keyPrefix })
    : RedisStreamSlots.connect(config.redisUrl, { leaseMs: config.streamLeaseMs, keyPrefix });
}
