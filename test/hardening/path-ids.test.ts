import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../src/execution/routes.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { placeholdersOf, seedWorld, type World } from './world.js';

/** Encodings decodeURIComponent refuses: a lone `%`, bad hex, an overlong UTF-8 `/`, bytes that are no UTF-8. */
const BAD_ENCODINGS = ['%', '%zz', '%C0%AF', '%FF%FE', '1%', '%E0%A4%A'];

describe('a malformed percent-encoding in a path id', () => {
  let t: TestApp;
  let world: World;
  beforeAll(async () => {
    t = await createTestApp();
    world = await seedWorld(t.db);
  });
  afterAll(async () => t.close());

  // Every placeholder of every route (`{id}`, `{deliveryId}`, `{eventId}`), the others holding real ids.
  const cases = routes.flatMap((route) => placeholdersOf(route).map((placeholder) => [`${route.method} ${route.path}, {${placeholder}}`, route, placeholder] as const));

  it.each(cases)('is 400 invalid_id on %s', async (_name, route, placeholder) => {
    for (const raw of BAD_ENCODINGS) {
      const path = `/v1${world.pathWith(route, placeholder, raw)}`;
      const res = await t.request(route.method, path, route.auth === 'apiKey' ? { key: world.key, body: route.body ? {} : undefined } : { siteKey: world.siteKey });
      expect(res.status, `${route.method} ${path}`).toBe(400);
      expect(res.body, `${route.method} ${path}`).toStrictEqual({ error: expect.any(String), code: 'invalid_id' });
    }
  });

  it('is documented: every route with a path placeholder lists 400 invalid_id', async () => {
    const doc = (await t.request('GET', '/v1/openapi.json')).body;
    const missing = routes
      .filter((route) => placeholdersOf(route).length)
      .filter((route) => !String(doc.paths[route.path][route.method.toLowerCase()].responses['400']?.description ?? '').includes('`invalid_id`'))
      .map((route) => `${route.method} ${route.path}`);
    expect(missing).toEqual([]);
  });

  it('an event id, looked up as given, holding a NUL (which PostgreSQL cannot store) is simply not found', async () => {
    for (const raw of ['%00', 'evt_%00', `evt_${'0'.repeat(9)}${'A'.repeat(15)}%00`]) {
      const res = await t.request('GET', `/v1/events/${raw}`, { key: world.key });
      expect(res.status, raw).toBe(404);
      expect(res.body, raw).toStrictEqual({ error: expect.any(String), code: 'not_found', resource: 'event' });
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
