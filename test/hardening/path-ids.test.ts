import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../src/rest/routes.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { seedAccount } from '../support/seed.js';

/** Encodings decodeURIComponent refuses: a lone `%`, bad hex, an overlong UTF-8 `/`, bytes that are no UTF-8. */
const BAD_ENCODINGS = ['%', '%zz', '%C0%AF', '%FF%FE', '1%', '%E0%A4%A'];

describe('a malformed percent-encoding in a path id', () => {
  let t: TestApp;
  let key: string;
  let siteKey: string;
  beforeAll(async () => {
    t = await createTestApp();
    const acme = await seedAccount(t.db);
    key = acme.apiKeys.full!.key;
    siteKey = acme.sites.main!.siteKey;
  });
  afterAll(async () => t.close());

  const withId = routes.filter((route) => route.path.includes('{id}'));

  it.each(withId.map((route) => [`${route.method} ${route.path}`, route] as const))('is 400 invalid_id on %s', async (_name, route) => {
    for (const raw of BAD_ENCODINGS) {
      const path = `/v1${route.path.replace('{id}', raw)}`;
      const res = await t.request(route.method, path, route.auth === 'apiKey' ? { key, body: route.body ? {} : undefined } : { siteKey });
      expect(res.status, `${route.method} ${path}`).toBe(400);
      expect(res.body, `${route.method} ${path}`).toStrictEqual({ error: expect.any(String), code: 'invalid_id' });
    }
  });

  it('is 404 not_found on a path the table does not know, before authentication', async () => {
    for (const raw of BAD_ENCODINGS) {
      const res = await t.request('GET', `/v1/nothing/${raw}`);
      expect(res.status).toBe(404);
      expect(res.body).toStrictEqual({ error: 'Not found', code: 'not_found' });
    }
  });
});
