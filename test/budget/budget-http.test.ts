import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ImportedAccount } from '../../src/fixtures/fixture-import.js';
import { MemoryRateLimitStore, RedisRateLimitStore, type RateLimitStore } from '../../src/infra/rate-limit.js';
import { createTestApp, type TestApp, type TestResponse } from '../support/app.js';
import { hasRedis } from '../support/database.js';
import { formFixture, seedAccount } from '../support/seed.js';

/*
 * Decisions §7.1 end to end: one budget in points for REST and GraphQL, priced by cost, through the one gate, on two
 * app instances over one database and one budget store (Redis with REDIS_URL, each instance its own connection;
 * embedded: the one in-process store a single process has).
 */

let a: TestApp;
let b: TestApp;
let stores: RateLimitStore[] = [];
let acme: ImportedAccount;

async function budgetStores(): Promise<RateLimitStore[]> {
  if (!hasRedis) {
    const shared = new MemoryRateLimitStore();
    return [shared, shared];
  }
  const keyPrefix = `rl-test-${randomUUID()}`;
  return Promise.all([RedisRateLimitStore.connect(process.env.REDIS_URL!, { keyPrefix }), RedisRateLimitStore.connect(process.env.REDIS_URL!, { keyPrefix })]);
}

const closeStores = async () => {
  for (const store of new Set(stores)) await store.close();
};

beforeAll(async () => {
  a = await createTestApp();
  b = await createTestApp({ db: a.db });
});
afterAll(async () => {
  await b.close();
  await a.close();
  await closeStores();
});

const forms = (count: number) => Array.from({ length: count }, (_, i) => formFixture({ ref: `f${i}`, name: `Form ${i}`, submissions: Array.from({ length: 3 }, (_, j) => ({ formData: { n: j } })) }));

beforeEach(async () => {
  // Fresh budgets each test: the truncated database gives its keys the same ids (and buckets) again.
  await closeStores();
  stores = await budgetStores();
  [a.deps.rateLimits, b.deps.rateLimits] = stores as [RateLimitStore, RateLimitStore];
  await a.db.truncate();
  // Fresh keys each test: their budgets start empty (a key's bucket is its id).
  acme = await seedAccount(a.db, {
    apiKeys: [
      { ref: 'full', scopes: ['read:forms', 'write:forms', 'read:submissions'], rateLimitPerHour: 50 },
      { ref: 'small', scopes: ['read:forms', 'write:forms', 'read:submissions'], rateLimitPerHour: 5 },
      { ref: 'none', scopes: [], rateLimitPerHour: 3 },
    ],
    sites: [{ ref: 'main', domain: 'acme.example', environment: 'production', verified: true, method: 'dns_txt', forms: forms(12) }],
  });
});

const costOf = (res: TestResponse) => res.body.extensions?.cost;
const headersOf = (res: TestResponse) => ({
  limit: Number(res.headers.get('x-ratelimit-limit')),
  remaining: Number(res.headers.get('x-ratelimit-remaining')),
  resetAt: new Date(Number(res.headers.get('x-ratelimit-reset')) * 1000).toISOString(),
});

const DASHBOARD = `query Dashboard($limit: Int) {
  forms(limit: $limit) { data { id name latestSubmissions(limit: 10) { id } } pagination { total } }
}`;

describe('/graphql priced by cost', () => {
  it('reports requested and actual in extensions.cost, equal to the X-RateLimit-* headers, and charges actual', async () => {
    const key = acme.apiKeys.full!.key;
    // 1 page + 1 pagination + 100 × (1 form + 10 submissions) = 1102 objects requested: 2 points.
    // Returned: 1 + 1 + 12 forms + 36 submissions = 50 objects: 1 point.
    const res = await a.graphql(DASHBOARD, { limit: 100 }, key);
    expect(res.status).toBe(200);
    expect(res.body.data.forms.data).toHaveLength(12);
    const { limit, remaining, resetAt } = headersOf(res);
    expect(costOf(res)).toStrictEqual({ requested: 2, actual: 1, limit, remaining, resetAt });
    expect([limit, remaining]).toStrictEqual([50, 49]);
    // The same budget on the other replica and on REST.
    const rest = await b.request('GET', '/v1/forms', { key });
    expect(headersOf(rest).remaining).toBe(48);
  });

  it('prices a mutation 1 point per root field, and refuses one that does not fit before running it (nothing written)', async () => {
    const key = acme.apiKeys.small!.key;
    const ids = [acme.forms.f0!.id, acme.forms.f1!.id, acme.forms.f2!.id];
    const mutation = `mutation { a: archiveForm(id: ${ids[0]}) b: archiveForm(id: ${ids[1]}) c: archiveForm(id: ${ids[2]}) }`;
    await a.request('GET', '/v1/forms', { key });
    await b.request('GET', '/v1/forms', { key });
    await a.request('GET', '/v1/forms', { key });
    const refused = await b.graphql(mutation, {}, key);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.body.data).toBeUndefined();
    expect(refused.body.errors).toHaveLength(1);
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'rate_limited', cost: 3, retryAfter: Number(refused.headers.get('retry-after')) });
    expect(costOf(refused)).toStrictEqual({ requested: 3, actual: 0, ...headersOf(refused) });
    expect(headersOf(refused).remaining).toBe(2);
    expect(await a.db.prisma.form.count({ where: { id: { in: ids }, archivedAt: { not: null } } })).toBe(0);
    // Two root fields fit in the two points left.
    const two = await a.graphql(`mutation { a: archiveForm(id: ${ids[0]}) b: archiveForm(id: ${ids[1]}) }`, {}, key);
    expect(two.status).toBe(200);
    expect(costOf(two)).toStrictEqual({ requested: 2, actual: 2, ...headersOf(two) });
    expect(headersOf(two).remaining).toBe(0);
  });

  it('answers rateLimit for 0 points and no scope; GET /v1/rate_limit costs 0 and is never 429', async () => {
    const key = acme.apiKeys.none!.key;
    const free = await a.graphql('{ rateLimit { limit remaining used resetAt } __typename }', {}, key);
    expect(free.body.data.rateLimit).toStrictEqual({ limit: 3, remaining: 3, used: 0, resetAt: headersOf(free).resetAt });
    expect(costOf(free)).toStrictEqual({ requested: 0, actual: 0, ...headersOf(free) });
    for (const app of [a, b, a]) expect((await app.graphql('{ __schema { queryType { name } } }', {}, key)).status).toBe(200);
    const spent = await b.graphql('{ __schema { queryType { name } } }', {}, key);
    expect(spent.status).toBe(429);
    for (const app of [a, b]) {
      const res = await app.request('GET', '/v1/rate_limit', { key });
      expect(res.status).toBe(200);
      expect(res.body).toStrictEqual({ limit: 3, remaining: 0, used: 3, reset: Number(res.headers.get('x-ratelimit-reset')) });
      expect(headersOf(res)).toMatchObject({ limit: 3, remaining: 0 });
      const graphql = await app.graphql('{ rateLimit { remaining used } }', {}, key);
      expect([graphql.status, graphql.body.data]).toStrictEqual([200, { rateLimit: { remaining: 0, used: 3 } }]);
    }
  });

  it("starts the key's window at its first request, a free one included: the reset it reports is the window's end", async () => {
    const key = acme.apiKeys.small!.key;
    const first = await a.request('GET', '/v1/rate_limit', { key });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const later = await b.request('GET', '/v1/rate_limit', { key });
    const graphql = await a.graphql('{ rateLimit { resetAt } }', {}, key);
    const paid = await b.request('GET', '/v1/forms?limit=1', { key });
    expect([later.body.reset, Number(paid.headers.get('x-ratelimit-reset'))]).toStrictEqual([first.body.reset, first.body.reset]);
    expect(graphql.body.data.rateLimit.resetAt).toBe(new Date(first.body.reset * 1000).toISOString());
    expect(paid.headers.get('x-ratelimit-remaining')).toBe('4');
  });

  it('shares one budget exactly between two replicas, REST and GraphQL together', async () => {
    const key = acme.apiKeys.full!.key;
    const calls = Array.from({ length: 80 }, (_, i) => {
      const app = i % 2 ? b : a;
      return i % 4 < 2 ? app.request('GET', '/v1/forms?limit=1', { key }) : app.graphql('{ forms(limit: 1) { data { id } } }', {}, key);
    });
    const answers = await Promise.all(calls);
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(50);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30);
    expect((await a.request('GET', '/v1/rate_limit', { key })).body).toMatchObject({ remaining: 0, used: 50 });
  });
});
