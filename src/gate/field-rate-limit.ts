import type { GraphQLResolveInfo } from 'graphql';
import type { RequestContext } from '../context.js';
import { AppError } from '../errors.js';
import type { RateLimitStore } from '../infra/rate-limit.js';

/**
 * Small per-field limits on a few expensive or abusable GraphQL fields (e.g. at most 30 form creations a minute
 * per key), on top of the hourly budget, which is drawn once per request by both transports. They live in the same
 * store as the hourly budgets (in process, or Redis shared by every replica) as fixed windows of their own,
 * `field:<caller>:<field>[:<identity args>]`. A refusal is the same 429 `rate_limited` AppError (with `retryAfter`
 * and `Retry-After`) the hourly budget throws; the X-RateLimit-* headers stay the hourly budget's.
 */

/** `window`: milliseconds (whole seconds), or a whole number of seconds, minutes or hours ('30s', '1m', '1h'). */
export interface FieldLimit {
  max: number;
  window: number | `${number}${'s' | 'm' | 'h'}`;
  /** Argument names whose values make separate windows (`['siteId']`: one per site). */
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
  store: RateLimitStore;
}

const UNITS = { s: 1000, m: 60_000, h: 3_600_000 } as const;

export function windowToMs(window: FieldLimit['window']): number {
  if (typeof window === 'number') return window;
  const match = /^(\d+)([smh])$/.exec(window);
  if (!match) throw new Error(`Invalid field rate-limit window "${window}"`);
  return Number(match[1]) * UNITS[match[2] as keyof typeof UNITS];
}

/**
 * Create once at startup; call the returned `limitField` first thing in the resolver of a limited field:
 *
 *   const limitField = createFieldRateLimiter<Context>({ identifyContext: (ctx) => `key:${ctx.viewer.keyId}`, store });
 *   resolve: async (parent, args, context, info) => {
 *     await limitField({ parent, args, context, info }, { max: 5, window: '1m' });
 *     …
 *   }
 */
export function createFieldRateLimiter<C>(options: FieldRateLimiterOptions<C>): LimitField<C> {
  return async function limitField(call, limit) {
    const identity = [call.info.fieldName, ...(limit.identityArgs ?? []).map((name) => JSON.stringify(call.args[name] ?? null))].join(':');
    const result = await options.store.hit(`field:${options.identifyContext(call.context)}:${identity}`, limit.max, windowToMs(limit.window));
    if (!result.allowed) {
      throw new AppError('rate_limited', { retryAfter: result.retryAfter }, { headers: { 'Retry-After': String(result.retryAfter) } });
    }
  };
}

const limiters = new WeakMap<RateLimitStore, LimitField<RequestContext>>();

/**
 * For a resolver: the field limit of this request's caller (its API key, else the request alone), in the store of
 * the hourly budgets. One limiter per store, made on first use, so the request context carries nothing for it.
 */
export function limitField(context: RequestContext, call: Omit<FieldCall<RequestContext>, 'context'>, limit: FieldLimit): Promise<void> {
  const store = context.deps.rateLimits;
  let limiter = limiters.get(store);
  if (!limiter) {
    limiter = createFieldRateLimiter<RequestContext>({
      identifyContext: (caller) => (caller.viewer?.kind === 'apiKey' ? `key:${caller.viewer.keyId}` : `request:${caller.requestId}`),
      store,
    });
    limiters.set(store, limiter);
  }
  return limiter({ ...call, context }, limit);
}
