import { randomUUID } from 'node:crypto';
import { GraphQLInt, GraphQLObjectType, GraphQLSchema, GraphQLString, graphql, type GraphQLResolveInfo } from 'graphql';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../src/errors.js';
import { MemoryRateLimitStore, RedisRateLimitStore } from '../../src/infra/rate-limit.js';
import { createFieldRateLimiter, windowToMs, type FieldCall, type LimitField } from '../../src/gate/field-rate-limit.js';
import { hasRedis } from '../support/database.js';

interface Ctx {
  keyId: string;
}

const T0 = Date.UTC(2025, 0, 1, 12, 0, 0);

function call(keyId: string, fieldName = 'verifySite', args: Record<string, unknown> = {}): FieldCall<Ctx> {
  // Only fieldName is read from info.
  return { parent: null, args, context: { keyId }, info: { fieldName } as GraphQLResolveInfo };
}

async function refusal(promise: Promise<void>): Promise<AppError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

const identifyContext = (ctx: Ctx): string => `key:${ctx.keyId}`;

describe('createFieldRateLimiter (in process)', () => {
  let limitField: LimitField<Ctx>;

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T0);
    limitField = createFieldRateLimiter<Ctx>({ identifyContext, store: new MemoryRateLimitStore() });
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('lets max calls through, then throws rate_limited with the seconds until the window that started at the first call ends', async () => {
    await limitField(call('1'), { max: 2, window: '1m' });
    vi.setSystemTime(T0 + 10_000);
    await limitField(call('1'), { max: 2, window: '1m' });
    vi.setSystemTime(T0 + 20_000);
    const error = await refusal(limitField(call('1'), { max: 2, window: '1m' }));
    expect(error.code).toBe('rate_limited');
    expect(error.status).toBe(429);
    expect(error.headers).toStrictEqual({ 'Retry-After': '40' });
    expect(error.toBody()).toStrictEqual({ error: 'Rate limit exceeded', code: 'rate_limited', retryAfter: 40 });
  });

  it('does not move the window on refused calls, so the wait does not grow while the caller keeps trying', async () => {
    await limitField(call('1'), { max: 1, window: '1m' });
    for (const offset of [1000, 30_000, 59_000]) {
      vi.setSystemTime(T0 + offset);
      expect((await refusal(limitField(call('1'), { max: 1, window: '1m' }))).context).toStrictEqual({
        retryAfter: Math.ceil((60_000 - offset) / 1000),
      });
    }
    vi.setSystemTime(T0 + 60_000);
    await expect(limitField(call('1'), { max: 1, window: '1m' })).resolves.toBeUndefined();
  });

  it('opens a fresh window of max calls at the first call after the last one ended (a fixed window, not a sliding log)', async () => {
    await limitField(call('1'), { max: 2, window: '1m' });
    vi.setSystemTime(T0 + 59_000);
    await limitField(call('1'), { max: 2, window: '1m' });
    vi.setSystemTime(T0 + 60_000);
    await limitField(call('1'), { max: 2, window: '1m' });
    await limitField(call('1'), { max: 2, window: '1m' });
    expect((await refusal(limitField(call('1'), { max: 2, window: '1m' }))).context).toStrictEqual({ retryAfter: 60 });
  });

  it('keeps separate windows per caller, per field and per identity argument', async () => {
    const limit = { max: 1, window: '1h' as const, identityArgs: ['siteId'] };
    await limitField(call('1', 'verifySite', { siteId: 7 }), limit);
    await expect(refusal(limitField(call('1', 'verifySite', { siteId: 7 }), limit))).resolves.toBeInstanceOf(AppError);
    await limitField(call('2', 'verifySite', { siteId: 7 }), limit);
    await limitField(call('1', 'verifySite', { siteId: 8 }), limit);
    await limitField(call('1', 'exportSubmissions', { siteId: 7 }), limit);
  });

  it('allows exactly max out of 50 concurrent calls', async () => {
    const outcomes = await Promise.allSettled(Array.from({ length: 50 }, () => limitField(call('1'), { max: 10, window: '1m' })));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(10);
    for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(AppError);
  });

  it('reads windows in milliseconds or whole seconds, minutes and hours', () => {
    expect([windowToMs(1500), windowToMs('30s'), windowToMs('2m'), windowToMs('1h')]).toStrictEqual([1500, 30_000, 120_000, 3_600_000]);
    expect(() => windowToMs('1 day' as '1h')).toThrow('Invalid field rate-limit window');
  });
});

describe('a limited field in an executed GraphQL schema', () => {
  it('answers errors[0] with extensions code rate_limited, retryAfter and HTTP 429 with Retry-After', async () => {
    const limitField = createFieldRateLimiter<Ctx>({ identifyContext, store: new MemoryRateLimitStore() });
    const schema = new GraphQLSchema({
      query: new GraphQLObjectType({
        name: 'Query',
        fields: {
          expensive: {
            type: GraphQLString,
            args: { n: { type: GraphQLInt } },
            resolve: async (parent: unknown, args: Record<string, unknown>, context: Ctx, info: GraphQLResolveInfo) => {
              await limitField({ parent, args, context, info }, { max: 1, window: '1m' });
              return 'ok';
            },
          },
        },
      }),
    });
    // Serialized as a GraphQL server sends it.
    const run = async () => JSON.parse(JSON.stringify(await graphql({ schema, source: '{ expensive }', contextValue: { keyId: '9' } })));
    expect(await run()).toStrictEqual({ data: { expensive: 'ok' } });
    const refused = await run();
    const retryAfter: unknown = refused.errors?.[0]?.extensions?.retryAfter;
    expect(retryAfter).toBeGreaterThanOrEqual(59);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused).toStrictEqual({
      errors: [
        {
          message: 'Rate limit exceeded',
          locations: [{ line: 1, column: 3 }],
          path: ['expensive'],
          extensions: {
            code: 'rate_limited',
            retryAfter,
            http: { status: 429, headers: { 'Retry-After': String(retryAfter) } },
          },
        },
      ],
      data: { expensive: null },
    });
  });
});

describe.runIf(hasRedis)('createFieldRateLimiter on Redis', () => {
  const keyPrefix = `rl-field-test:${process.pid}:${randomUUID()}`;
  let redisA: Redis;
  let redisB: Redis;

  beforeAll(() => {
    redisA = new Redis(process.env.REDIS_URL ?? '');
    redisB = new Redis(process.env.REDIS_URL ?? '');
  });

  afterAll(async () => {
    const keys = await redisA.keys(`${keyPrefix}:*`);
    if (keys.length > 0) await redisA.del(...keys);
    await redisA.quit();
    await redisB.quit();
  });

  it('throws rate_limited with retryAfter once max is reached, and keeps the window in Redis with a TTL', async () => {
    const limitField = createFieldRateLimiter<Ctx>({ identifyContext, store: new RedisRateLimitStore(redisA, { keyPrefix }) });
    await limitField(call('r1'), { max: 2, window: '1m' });
    await limitField(call('r1'), { max: 2, window: '1m' });
    const error = await refusal(limitField(call('r1'), { max: 2, window: '1m' }));
    expect(error.code).toBe('rate_limited');
    expect(error.context.retryAfter).toBeGreaterThanOrEqual(59);
    expect(error.context.retryAfter).toBeLessThanOrEqual(60);
    expect(error.headers).toStrictEqual({ 'Retry-After': String(error.context.retryAfter) });
    const key = `${keyPrefix}:field:key:r1:verifySite`;
    expect(await redisA.get(key)).toBe('3');
    expect(await redisA.pttl(key)).toBeGreaterThan(0);
    expect(await redisA.pttl(key)).toBeLessThanOrEqual(60_000);
  });

  it('allows exactly max out of 50 concurrent calls split between two limiters on separate connections', async () => {
    // Two limiters with their own connections behave like two replicas: only the atomic count in Redis keeps
    // them from both taking the same free slot.
    const a = createFieldRateLimiter<Ctx>({ identifyContext, store: new RedisRateLimitStore(redisA, { keyPrefix }) });
    const b = createFieldRateLimiter<Ctx>({ identifyContext, store: new RedisRateLimitStore(redisB, { keyPrefix }) });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? a : b)(call('r2'), { max: 10, window: '1m' })),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(10);
    for (const o of outcomes) if (o.status === 'rejected') expect((o.reason as AppError).code).toBe('rate_limited');
  });
});
