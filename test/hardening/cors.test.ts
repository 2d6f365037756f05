import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { seedAccount } from '../support/seed.js';

const ORIGIN = 'https://dashboard.example';

/** CORS (src/app.ts GRAPHQL_CORS): /graphql for browser dashboards on any origin, without credentials; /v1 for servers. */
describe('CORS', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await createTestApp();
    key = (await seedAccount(t.db)).apiKeys.full!.key;
  });
  afterAll(async () => t.close());

  it('answers a preflight to /graphql for any origin, with the Authorization header and no credentials, before any key is checked', async () => {
    t.db.resetQueryCount();
    const res = await t.request('OPTIONS', '/graphql', {
      headers: { origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(res.headers.get('vary')).toContain('Origin');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST');
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase().split(', ')).toEqual(expect.arrayContaining(['authorization', 'content-type']));
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('access-control-max-age')).toBe('600');
    expect(t.db.queries).toStrictEqual([]);
  });

  it('lets a cross-origin POST /graphql read its answer and its budget and request-id headers', async () => {
    const res = await t.request('POST', '/graphql', { key, headers: { origin: ORIGIN }, body: { query: '{ forms(limit: 1) { pagination { total } } }' } });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('access-control-expose-headers')?.split(', ')).toStrictEqual(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'X-Request-Id']);
    expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  });

  it('sends no CORS headers on /v1, whose keys belong on servers', async () => {
    const res = await t.request('GET', '/v1/forms', { key, headers: { origin: ORIGIN } });
    expect(res.status).toBe(200);
    expect([...res.headers.keys()].filter((name) => name.startsWith('access-control-'))).toStrictEqual([]);
  });
});
