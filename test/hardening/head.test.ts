import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../src/execution/routes.js';
import { createTestApp, responseText, type TestApp } from '../support/app.js';
import { seedWorld, type World } from './world.js';

/** Headers that differ between any two requests, by design. */
const PER_REQUEST = new Set(['x-request-id', 'x-ratelimit-remaining', 'date']);

const comparable = (headers: Headers): Record<string, string> =>
  Object.fromEntries([...headers].map(([name, value]) => [name.toLowerCase(), value] as const).filter(([name]) => !PER_REQUEST.has(name)));

describe('HEAD on a GET route (RFC 9110 §9.3.2)', () => {
  let t: TestApp;
  let world: World;
  beforeAll(async () => {
    t = await createTestApp();
    world = await seedWorld(t.db);
  });
  afterAll(async () => t.close());

  const getRoutes = routes.filter((route) => route.method === 'GET');

  it.each(getRoutes.map((route) => [route.path, route] as const))('answers HEAD %s like GET, without a body, using budget like GET', async (_path, route) => {
    const auth = route.auth === 'apiKey' ? { key: world.key } : { siteKey: world.siteKey };
    const path = `/v1${world.pathOf(route)}`;
    const get = await t.app.fetch(new Request(`http://gateway.test${path}`, { headers: auth.key ? { authorization: `Bearer ${auth.key}` } : { 'x-service-site-key': auth.siteKey ?? '' } }));
    // An event stream never ends, so it has no length to announce; every other body has one.
    const live = get.headers.get('content-type')?.startsWith('text/event-stream') === true;
    const getBody = Buffer.from(await responseText(get));
    const head = await t.app.fetch(new Request(`http://gateway.test${path}`, { method: 'HEAD', headers: auth.key ? { authorization: `Bearer ${auth.key}` } : { 'x-service-site-key': auth.siteKey ?? '' } }));
    expect(get.status, path).toBe(200);
    expect(head.status, path).toBe(200);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    expect(comparable(head.headers)).toStrictEqual({ ...comparable(get.headers), ...(!live && { 'content-length': String(getBody.byteLength) }) });
    // A request like any other: the budget moves as GET's does (by one; by none for a free row, decisions §7.1).
    expect(Number(head.headers.get('x-ratelimit-remaining'))).toBe(Number(get.headers.get('x-ratelimit-remaining')) - ('budget' in route && route.budget === 'free' ? 0 : 1));
  });

  it('passes the same gate: 401 without a key, 404 for an unknown id, with no body', async () => {
    const noKey = await t.request('HEAD', '/v1/forms');
    expect(noKey).toMatchObject({ status: 401, text: '' });
    const unknown = await t.request('HEAD', '/v1/forms/999999', { key: world.key });
    expect(unknown).toMatchObject({ status: 404, text: '' });
    expect(unknown.headers.get('x-ratelimit-limit')).not.toBeNull();
  });

  it('is 405 on a path without GET, and Allow names HEAD wherever GET is allowed', async () => {
    const attempt = await t.request('HEAD', '/v1/site-verification/attempt', { siteKey: world.siteKey });
    expect(attempt).toMatchObject({ status: 405, text: '' });
    expect(attempt.headers.get('allow')).toBe('POST');
    expect((await t.request('PUT', '/v1/forms')).headers.get('allow')).toBe('GET, HEAD, POST');
  });

  it.each(['/v1/openapi.json', '/docs', '/docs/reference.js'])('serves %s too, with the headers GET sends', async (path) => {
    const get = await t.app.fetch(new Request(`http://gateway.test${path}`));
    const getBody = await get.arrayBuffer();
    const head = await t.app.fetch(new Request(`http://gateway.test${path}`, { method: 'HEAD' }));
    expect([get.status, head.status]).toStrictEqual([200, 200]);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    expect(comparable(head.headers)).toStrictEqual({ ...comparable(get.headers), 'content-length': String(getBody.byteLength) });
  });
});
