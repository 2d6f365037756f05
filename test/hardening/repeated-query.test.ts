import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { TableRoute } from '../../src/execution/route.js';
import { routes } from '../../src/execution/routes.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { seedWorld, type World } from './world.js';

/** Values one of which every query parameter of the table accepts. */
const CANDIDATES = ['1', 'true', '2026-01-01T00:00:00Z'];

/** The first value the parameter's schema accepts: an enum's first option, else a candidate above. */
function validValue(schema: z.ZodType, name: string): string {
  const options = (schema as { unwrap?: () => { options?: unknown[] } }).unwrap?.().options;
  const value = [...(options ?? []).map(String), ...CANDIDATES].find((candidate) => schema.safeParse(candidate).success);
  if (value === undefined) throw new Error(`add a valid sample value for query parameter ${name} to this test`);
  return value;
}

/** Every parameter a GET route reads from the query string, with a value it accepts. */
function queryParameters(route: TableRoute): [name: string, value: string][] {
  const own = Object.entries(route.query?.shape ?? {}).map(([name, schema]) => [name, validValue(schema as z.ZodType, name)] as [string, string]);
  return route.paginated ? [['page', '1'], ['limit', '10'], ...own] : own;
}

describe('a query parameter given twice', () => {
  let t: TestApp;
  let world: World;
  beforeAll(async () => {
    t = await createTestApp();
    world = await seedWorld(t.db);
  });
  afterAll(async () => t.close());

  const cases = routes
    .filter((route) => route.method === 'GET')
    .flatMap((route) => queryParameters(route).map(([name, value]) => [`${route.path} ?${name}`, route, name, value] as const));

  it('covers the filters and the pagination of the table', () => {
    const names = new Set(cases.map(([, , name]) => name));
    for (const name of ['page', 'limit', 'domainId', 'status', 'createdFrom', 'format', 'type']) expect(names).toContain(name);
  });

  it.each(cases)('is refused on %s, which once is accepted', async (_name, route, name, value) => {
    const auth = route.auth === 'apiKey' ? { key: world.key } : { siteKey: world.siteKey };
    const path = `/v1${world.pathOf(route)}`;
    const once = await t.request('GET', `${path}?${name}=${encodeURIComponent(value)}`, auth);
    // A cursor is accepted only when the list issued it (decisions §7.6; test/lists/cursors.test.ts walks real ones):
    // the sample is refused as a cursor once, and as a repeated parameter twice.
    if (name === 'after') expect(once.body.code).toBe('invalid_cursor');
    // Likewise a stream resumes only after a retained event of the account (decisions §7.2): the sample is refused
    // for that once, and as a repeated parameter twice.
    else if (name === 'lastEventId') expect(once.body).toStrictEqual({ error: expect.any(String), code: 'validation_failed', fields: [{ field: name, message: 'is not a retained event of this account' }] });
    else expect(once.status, `once: ${JSON.stringify(once.body)}`).toBeLessThan(400);

    const twice = await t.request('GET', `${path}?${name}=${encodeURIComponent(value)}&${name}=${encodeURIComponent(value)}`, auth);
    expect(twice.status).toBe(400);
    if (name === 'page' || name === 'limit') expect(twice.body).toStrictEqual({ error: expect.any(String), code: 'invalid_pagination' });
    else expect(twice.body).toStrictEqual({ error: expect.any(String), code: 'validation_failed', fields: [{ field: name, message: 'must be given once' }] });
  });

  it('is no error for a parameter the route does not read (a cache-buster, say)', async () => {
    const res = await t.request('GET', '/v1/forms?_=1&_=2&limit=5', { key: world.key });
    expect(res.status).toBe(200);
    expect(res.body.pagination.limit).toBe(5);
  });
});
