import type { GraphQLResolveInfo } from 'graphql';
import { Store, getFieldIdentity, getGraphQLRateLimiter, type Identity } from 'graphql-rate-limit';
import type { Redis } from 'ioredis';
import { AppError } from '../errors.js';

/**
 * Small per-field limits on a few expensive or abusable GraphQL fields (e.g. at most 5 verification attempts per
 * minute per key), on top of the hourly budget. This is NOT the v1 hourly budget: that is one fixed window per key
 * in rate-limit.service.ts, drawn once per request by both transports. graphql-rate-limit keeps a sliding log of
 * call times per (caller, field[, args]) and exposes no remaining/reset, so it answers only "refused, retry in N s",
 * as the same 429 `rate_limited` AppError (with `retryAfter` and `Retry-After`) the hourly budget throws.
 *
 * Its stores read the log, decide, then write it back, which lets concurrent calls all pass (50 of 50 at a limit of
 * 10, measured against graphql-rate-limit 3.3). The store below closes that gap: in one process each (caller, field) is serialized
 * from the read to the write; across processes on Redis the write is a compare-and-set against what was read, and
 * a call that lost the race is decided again from the new log.
 */

/** `window`: milliseconds, or a whole number of seconds, minutes or hours ('30s', '1m', '1h'). */
export interface FieldLimit {
  max: number;
  window: number | `${number}${'s' | 'm' | 'h'}`;
  /** Argument names whose values make separate logs (`['siteId']`: one log per site). */
  identityArgs?: readonly string[];
}

export interface FieldCall<C> {
  parent: unknown;
  args: Record<string, unknown>;
  context: C;
  info: GraphQLResolveInfo;
}

/** Resolves when the call may proceed; throws AppError('rate_limited', { retryAfter }) when it may not. */
export type LimitField<C> = (call: FieldCall<C>, limit: FieldLimit) => Promise<void>;

export interface FieldRateLimiterOptions<C> {
  /** Who is calling, e.g. the API key id. Never the key itself: it becomes part of a Redis key name. */
  identifyContext: (context: C) => string;
  /** Shared logs for every replica; in-process logs without it. The connection stays the caller's. */
  redis?: Redis | null;
  keyPrefix?: string;
}

const UNITS = { s: 1000, m: 60_000, h: 3_600_000 } as const;
const MAX_ATTEMPTS = 8;

export function windowToMs(window: FieldLimit['window']): number {
  if (typeof window === 'number') return window;
  const match = /^(\d+)([smh])$/.exec(window);
  if (!match) throw new Error(`Invalid field rate-limit window "${window}"`);
  return Number(match[1]) * UNITS[match[2] as keyof typeof UNITS];
}

class WriteConflict extends Error {}

interface LogBackend {
  /** `version` is handed back to `write`, which fails (false) when the log changed in between. */
  read(key: string): Promise<{ timestamps: number[]; version: string }>;
  write(key: string, timestamps: readonly number[], ttlMs: number, version: string): Promise<boolean>;
}

function parseLog(raw: string | null): number[] {
  if (!raw) return [];
  const parsed: unknown = JSON.parse(raw);
  return Array.isArray(parsed) ? parsed.filter((t): t is number => typeof t === 'number') : [];
}

class MemoryLogBackend implements LogBackend {
  private readonly logs = new Map<string, { timestamps: number[]; expiresAt: number }>();
  private nextSweepAt = 0;

  async read(key: string): Promise<{ timestamps: number[]; version: string }> {
    const now = Date.now();
    if (now >= this.nextSweepAt) {
      this.nextSweepAt = now + 60_000;
      for (const [k, log] of this.logs) if (log.expiresAt <= now) this.logs.delete(k);
    }
    const log = this.logs.get(key);
    return { timestamps: log && log.expiresAt > now ? log.timestamps : [], version: '' };
  }

  async write(key: string, timestamps: readonly number[], ttlMs: number): Promise<boolean> {
    if (timestamps.length === 0) this.logs.delete(key);
    else this.logs.set(key, { timestamps: [...timestamps], expiresAt: Date.now() + ttlMs });
    return true;
  }
}

const COMPARE_AND_SET = `
local current = redis.call('GET', KEYS[1]) or ''
if current ~= ARGV[1] then return 0 end
if ARGV[2] == '[]' then redis.call('DEL', KEYS[1]) else redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) end
return 1
`;

type RedisWithCas = Redis & { fieldLimitCas(key: string, expected: string, value: string, ttlMs: number): Promise<unknown> };

class RedisLogBackend implements LogBackend {
  private readonly redis: RedisWithCas;

  constructor(redis: Redis) {
    redis.defineCommand('fieldLimitCas', { numberOfKeys: 1, lua: COMPARE_AND_SET });
    this.redis = redis as RedisWithCas;
  }

  async read(key: string): Promise<{ timestamps: number[]; version: string }> {
    const raw = await this.redis.get(key);
    return { timestamps: parseLog(raw), version: raw ?? '' };
  }

  async write(key: string, timestamps: readonly number[], ttlMs: number, version: string): Promise<boolean> {
    return (await this.redis.fieldLimitCas(key, version, JSON.stringify(timestamps), Math.max(1, Math.ceil(ttlMs)))) === 1;
  }
}

/**
 * graphql-rate-limit's store protocol is getForIdentity → decide → setForIdentity, always in that order for one
 * call (we never pass `readOnly`). `getForIdentity` takes a per-key lock that `setForIdentity` releases, so calls in
 * this process for one (caller, field) take turns.
 */
class SerializedStore extends Store {
  private readonly tails = new Map<string, Promise<void>>();
  private readonly held = new Map<string, { release: () => void; version: string }>();

  constructor(
    private readonly backend: LogBackend,
    private readonly keyPrefix: string,
  ) {
    super();
  }

  keyOf(identity: Identity): string {
    return `${this.keyPrefix}${identity.contextIdentity}:${identity.fieldIdentity}`;
  }

  /** The log without taking the lock, only to work out `retryAfter` of a refused call. */
  async peek(identity: Identity): Promise<number[]> {
    return (await this.backend.read(this.keyOf(identity))).timestamps;
  }

  async getForIdentity(identity: Identity): Promise<readonly number[]> {
    const key = this.keyOf(identity);
    const previous = this.tails.get(key) ?? Promise.resolve();
    let unlock = (): void => {};
    const turn = new Promise<void>((resolve) => (unlock = resolve));
    const tail = previous.then(() => turn);
    this.tails.set(key, tail);
    const release = (): void => {
      unlock();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    };
    await previous;
    try {
      const { timestamps, version } = await this.backend.read(key);
      this.held.set(key, { release, version });
      return timestamps;
    } catch (error) {
      release();
      throw error;
    }
  }

  async setForIdentity(identity: Identity, timestamps: readonly number[], windowMs?: number): Promise<void> {
    const key = this.keyOf(identity);
    const holder = this.held.get(key);
    this.held.delete(key);
    try {
      const written = await this.backend.write(key, timestamps, windowMs ?? 60_000, holder?.version ?? '');
      if (!written) throw new WriteConflict();
    } finally {
      holder?.release();
    }
  }
}

/** Seconds until the oldest call that keeps the log full leaves the window. */
function secondsUntilFree(timestamps: readonly number[], max: number, windowMs: number, now: number): number {
  const live = timestamps.filter((t) => t + windowMs > now).sort((a, b) => a - b);
  const blocking = live[live.length - max];
  if (blocking === undefined) return 1;
  return Math.max(1, Math.ceil((blocking + windowMs - now) / 1000));
}

function rateLimited(retryAfter: number): AppError {
  return new AppError('rate_limited', { retryAfter }, { headers: { 'Retry-After': String(retryAfter) } });
}

/**
 * Create once at startup; call the returned `limitField` first thing in the resolver of a limited field:
 *
 *   const limitField = createFieldRateLimiter<Context>({ identifyContext: (ctx) => `key:${ctx.viewer.keyId}`, redis });
 *   resolve: async (parent, args, context, info) => {
 *     await limitField({ parent, args, context, info }, { max: 5, window: '1m' });
 *     …
 *   }
 */
export function createFieldRateLimiter<C>(options: FieldRateLimiterOptions<C>): LimitField<C> {
  const backend = options.redis ? new RedisLogBackend(options.redis) : new MemoryLogBackend();
  const store = new SerializedStore(backend, options.keyPrefix ?? 'rl-field:');
  const identifyContext = (context: C): string => options.identifyContext(context);
  const limiter = getGraphQLRateLimiter({ store, identifyContext });

  return async function limitField(call, limit) {
    const windowMs = windowToMs(limit.window);
    // uncountRejected: a refused call does not push the caller's wait further out.
    const config = { max: limit.max, window: String(windowMs), identityArgs: limit.identityArgs, uncountRejected: true };
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      let refused: string | undefined;
      try {
        refused = await limiter(call, config);
      } catch (error) {
        if (error instanceof WriteConflict) continue;
        throw error;
      }
      if (refused === undefined) return;
      const identity = {
        contextIdentity: identifyContext(call.context), fieldIdentity: getFieldIdentity(call.info.fieldName, limit.identityArgs ?? [], call.args),
      };
      throw rateLimited(secondsUntilFree(await store.peek(identity), limit.max, windowMs, Date.now()));
    }
    // Lost the race to other replicas MAX_ATTEMPTS times in a row: the field is being hammered; refuse briefly.
    throw rateLimited(1);
  };
}
