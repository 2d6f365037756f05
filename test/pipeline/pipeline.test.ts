import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ImportedAccount } from '../../src/fixtures/fixture-import.js';
import { MemoryRateLimitStore } from '../../src/infra/rate-limit.js';
import { KeyHasher } from '../../src/infra/secrets.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { accountFixture, seed } from '../support/seed.js';

let t: TestApp;
let acme: ImportedAccount;
const keys = () => acme.apiKeys;

beforeAll(async () => {
  t = await createTestApp({ rateLimits: new MemoryRateLimitStore() });
});
afterAll(async () => t.close());
beforeEach(async () => {
  await t.db.truncate();
  const result = await seed(t.db, {
    accounts: [
      accountFixture({
        apiKeys: [
          { ref: 'full', scopes: ['read:forms', 'write:forms', 'read:submissions', 'write:submissions'] },
          { ref: 'readonly' },
          { ref: 'revoked', revoked: true },
          { ref: 'expired', expiresAt: '2020-01-01T00:00:00.000Z' },
          { ref: 'tiny', rateLimitPerHour: 2 },
        ],
      }),
      accountFixture({ ref: 'freebie', plan: 'free', apiKeys: [{ ref: 'k' }], sites: [] }),
    ],
  });
  acme = result.accounts.acme!;
  freeKey = result.accounts.freebie!.apiKeys.k!.key;
});
let freeKey: string;

const unauthorized = { error: 'Unauthorized', code: 'invalid_api_key' };

describe('API key authentication', () => {
  it('answers 401 invalid_api_key for a missing, malformed, unknown, revoked or expired key, without rate-limit headers', async () => {
    const wellFormedUnknown = `svc_live_${'A'.repeat(43)}`;
    const cases: (string | undefined)[] = [undefined, 'nope', `svc_live_${'A'.repeat(42)}`, `svc_site_${'A'.repeat(43)}`, wellFormedUnknown, keys().revoked!.key, keys().expired!.key];
    for (const key of cases) {
      const res = await t.request('GET', '/v1/forms', { key });
      expect(res.status, String(key)).toBe(401);
      expect(res.body).toStrictEqual(unauthorized);
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    }
    const basic = await t.request('GET', '/v1/forms', { headers: { authorization: `Basic ${keys().full!.key}` } });
    expect(basic.status).toBe(401);
  });

  it('refuses a malformed key without a single SQL statement', async () => {
    t.db.resetQueryCount();
    await t.request('GET', '/v1/forms', { key: 'svc_live_short' });
    await t.request('GET', '/v1/forms', { key: `svc_live_${'!'.repeat(43)}` });
    expect(t.db.queries).toEqual([]);
  });

  it('hashes the presented key once per request: the lookup and the constant-time check share the hash', async () => {
    const hash = vi.spyOn(KeyHasher.prototype, 'hash');
    const res = await t.request('GET', '/v1/forms', { key: keys().full!.key });
    const calls = [...hash.mock.calls];
    hash.mockRestore();
    expect(res.status).toBe(200);
    expect(calls).toStrictEqual([[keys().full!.key]]);
  });

  it('revocation takes effect on the very next request, and a rotated pair both work until then', async () => {
    const old = keys().full!;
    const fresh = keys().readonly!;
    expect((await t.request('GET', '/v1/forms', { key: old.key })).status).toBe(200);
    expect((await t.request('GET', '/v1/forms', { key: fresh.key })).status).toBe(200);
    await t.db.prisma.apiKey.update({ where: { id: old.id }, data: { revokedAt: new Date() } });
    expect((await t.request('GET', '/v1/forms', { key: old.key })).status).toBe(401);
    expect((await t.request('GET', '/v1/forms', { key: fresh.key })).status).toBe(200);
  });
});

describe('plan gate', () => {
  it('answers 402 plan_feature_gated with feature apiAccess for a Free account, and lifts on upgrade', async () => {
    const res = await t.request('GET', '/v1/forms', { key: freeKey });
    expect(res.status).toBe(402);
    expect(res.body).toStrictEqual({ error: expect.any(String), code: 'plan_feature_gated', feature: 'apiAccess' });
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    await t.db.prisma.account.update({ where: { id: (await t.db.prisma.apiKey.findFirstOrThrow({ where: { account: { plan: 'free' } } })).accountId }, data: { plan: 'starter' } });
    expect((await t.request('GET', '/v1/forms', { key: freeKey })).status).toBe(200);
  });
});

describe('scopes', () => {
  it('answers 403 insufficient_scope naming the required scope, with rate-limit headers', async () => {
    const res = await t.request('POST', '/v1/forms', { key: keys().readonly!.key, body: { name: 'x', fields: [] } });
    expect(res.status).toBe(403);
    expect(res.body).toStrictEqual({ error: 'Insufficient scope', code: 'insufficient_scope', required: 'write:forms' });
    expect(res.headers.get('x-ratelimit-remaining')).not.toBeNull();
  });

  it('checks scope before input and input before lookup', async () => {
    const scopeFirst = await t.request('PATCH', '/v1/forms/abc', { key: keys().readonly!.key, body: '{bad' });
    expect(scopeFirst.body.code).toBe('insufficient_scope');
    const inputBeforeLookup = await t.request('PATCH', '/v1/forms/999999', { key: keys().full!.key, body: { id: 1 } });
    expect(inputBeforeLookup.body.code).toBe('forbidden_field');
    const lookup = await t.request('PATCH', '/v1/forms/999999', { key: keys().full!.key, body: { name: 'x' } });
    expect(lookup.status).toBe(404);
  });

  it('reads FORBIDDEN over GraphQL with the same code and required scope, never "Unexpected error."', async () => {
    const res = await t.graphql('mutation { archiveForm(id: 1) }', {}, keys().readonly!.key);
    expect(res.status).toBe(200);
    expect(res.body.errors[0]).toMatchObject({ message: 'Insufficient scope', extensions: { code: 'insufficient_scope', required: 'write:forms' } });
  });
});

describe('hourly rate limit', () => {
  it('counts every authenticated request, sets the headers, and answers 429 with Retry-After and retryAfter', async () => {
    const key = keys().tiny!.key;
    const first = await t.request('GET', '/v1/forms', { key });
    expect(first.headers.get('x-ratelimit-limit')).toBe('2');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
    const reset = Number(first.headers.get('x-ratelimit-reset'));
    expect(reset).toBeGreaterThan(Date.now() / 1000 + 3500);
    expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 3600);
    const second = await t.request('GET', '/v1/forms/999999', { key });
    expect(second.status).toBe(404);
    expect(second.headers.get('x-ratelimit-remaining')).toBe('0');
    const third = await t.request('GET', '/v1/forms', { key });
    expect(third.status).toBe(429);
    const retryAfter = Number(third.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(3500);
    expect(third.body).toStrictEqual({ error: expect.any(String), code: 'rate_limited', retryAfter });
    expect(third.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('is shared between REST and GraphQL', async () => {
    const key = keys().tiny!.key;
    await t.request('GET', '/v1/forms', { key });
    const gql = await t.graphql('{ forms { pagination { total } } }', {}, key);
    expect(gql.headers.get('x-ratelimit-remaining')).toBe('0');
    const limited = await t.graphql('{ forms { pagination { total } } }', {}, key);
    expect(limited.status).toBe(429);
    expect(limited.body.errors[0].extensions).toMatchObject({ code: 'rate_limited', retryAfter: expect.any(Number) });
    const rest = await t.request('GET', '/v1/forms', { key });
    expect(rest.status).toBe(429);
    expect(limited.body.errors[0].message).toBe(rest.body.error);
  });
});

describe('pagination', () => {
  const page = (query: string) => t.request('GET', `/v1/forms?${query}`, { key: keys().full!.key });

  it('refuses invalid page and limit values with 400 invalid_pagination', async () => {
    for (const query of ['page=0', 'page=-1', 'page=1.5', 'page=abc', 'page=1000001', 'page=', 'limit=0', 'limit=-1', 'limit=abc', 'limit=1.5', 'limit=']) {
      const res = await page(query);
      expect(res.status, query).toBe(400);
      expect(res.body).toStrictEqual({ error: expect.any(String), code: 'invalid_pagination' });
    }
  });

  it('accepts the edges, clamps limit above 100, and defaults to page 1 limit 20', async () => {
    expect((await page('')).body.pagination).toStrictEqual({ page: 1, limit: 20, total: 1, pages: 1 });
    expect((await page('page=1000000')).body).toStrictEqual({ data: [], pagination: { page: 1000000, limit: 20, total: 1, pages: 1 } });
    expect((await page('limit=101')).body.pagination.limit).toBe(100);
    expect((await page('limit=99999999999999999999')).body.pagination.limit).toBe(100);
    expect((await page('limit=1')).body.pagination).toStrictEqual({ page: 1, limit: 1, total: 1, pages: 1 });
  });

  it('applies the same rules over GraphQL', async () => {
    const res = await t.graphql('{ forms(limit: 0) { pagination { total } } }', {}, keys().full!.key);
    expect(res.body.errors[0].extensions.code).toBe('invalid_pagination');
  });
});

describe('errors over both transports', () => {
  it('gives the same code, message and context for the same failure', async () => {
    const key = keys().full!.key;
    const rest = await t.request('GET', '/v1/forms/999999', { key });
    const gql = await t.graphql('query($id: Int!) { form(id: $id) { id } }', { id: 999999 }, key);
    const { message, extensions } = gql.body.errors[0];
    const { http: _http, ...context } = extensions;
    expect({ error: message, ...context }).toStrictEqual(rest.body);
  });

  it('answers 401 and 402 over GraphQL with the HTTP status of the table', async () => {
    const none = await t.graphql('{ forms { pagination { total } } }');
    expect(none.status).toBe(401);
    expect(none.body.errors[0]).toMatchObject({ message: 'Unauthorized', extensions: { code: 'invalid_api_key' } });
    const free = await t.graphql('{ forms { pagination { total } } }', {}, freeKey);
    expect(free.status).toBe(402);
    expect(free.body.errors[0].extensions).toMatchObject({ code: 'plan_feature_gated', feature: 'apiAccess' });
  });

  it('refuses over-costly GraphQL queries with query_too_complex, counting list sizes from arguments', async () => {
    const dashboard = '{ forms(limit: 100) { data { id name submissionCount latestSubmissions(limit: 5) { id createdAt } } } }';
    const ok = await t.graphql(dashboard, {}, keys().full!.key);
    expect(ok.body.errors, JSON.stringify(ok.body.errors)).toBeUndefined();
    const costly = '{ forms(limit: 100) { data { id latestSubmissions(limit: 100) { id createdAt } } } }';
    const res = await t.graphql(costly, {}, keys().full!.key);
    // The same status as the token and nesting limits' refusal (test/hardening/graphql-limits.test.ts): one code, one status.
    expect(res.status).toBe(400);
    // Pothos measures the cost as the root field starts, hence its path and `data: null`; nothing ran.
    expect(res.body).toStrictEqual({
      data: null,
      errors: [{ message: 'The query exceeds the complexity limit (depth 8, breadth 200, complexity 10000)', path: ['forms'], extensions: { code: 'query_too_complex' } }],
      // Refused past the budget step (decisions §7.1): it returned no object, so it costs the minimum, 1 point.
      extensions: { cost: expect.objectContaining({ actual: 1 }) },
    });
  });
});

describe('routing and request ids', () => {
  it('answers an unknown /v1 path with 404 before authentication and a wrong method with 405 and Allow', async () => {
    const unknown = await t.request('GET', '/v1/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toStrictEqual({ error: 'Not found', code: 'not_found' });
    const wrong = await t.request('PUT', '/v1/forms/1');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, HEAD, PATCH, DELETE');
    expect(wrong.body).toStrictEqual({ error: expect.any(String), code: 'method_not_allowed' });
  });

  it('puts an X-Request-Id on every response, keeping a sane incoming one', async () => {
    expect((await t.request('GET', '/v1/forms')).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect((await t.request('GET', '/healthz', { headers: { 'x-request-id': 'abc-123' } })).headers.get('x-request-id')).toBe('abc-123');
  });

  it('answers /healthz and /readyz without authentication', async () => {
    expect((await t.request('GET', '/healthz')).body).toStrictEqual({ status: 'ok' });
    expect((await t.request('GET', '/readyz')).body).toStrictEqual({ status: 'ready' });
  });
});
