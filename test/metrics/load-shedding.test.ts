import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../src/infra/metrics.js';
import { QUEUE_WAIT_MS } from '../../src/load-shedding.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { closeHttpServer, serveOnLoopback } from '../support/http-server.js';
import { seedAccount } from '../support/seed.js';

const TOKEN = 'shedding-test-token';

let t: TestApp;
let key: string;
let formId: number;

beforeAll(async () => {
  t = await createTestApp({ env: { MAX_CONCURRENT_REQUESTS: '2', MAX_QUEUED_REQUESTS: '0', METRICS_TOKEN: TOKEN } });
  const account = await seedAccount(t.db);
  key = account.apiKeys.full!.key;
  formId = Object.values(account.forms)[0]!.id;
});
afterAll(async () => {
  await t?.close();
});

/** An ingest whose body arrives only when `finish()` is called: a request being worked on until then. */
function heldRequest(target: { app: TestApp['app']; key: string; formId: number } = { app: t.app, key, formId }): { response: Promise<Response>; finish(): void } {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  controller.enqueue(new TextEncoder().encode('{"formData":'));
  const response = target.app.fetch(
    new Request(`http://gateway.test/v1/forms/${target.formId}/submissions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${target.key}`, 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit),
  );
  return {
    response,
    finish: () => {
      controller.enqueue(new TextEncoder().encode('{"name":"Ada"}}'));
      controller.close();
    },
  };
}

const shedCount = async (): Promise<number> => {
  const line = (await registry.metrics()).split('\n').find((candidate) => candidate.startsWith('http_requests_shed_total '));
  return Number(line?.split(' ')[1] ?? 0);
};

/** Refusals as http_requests_total counts them: under the route `shed` (never routed), not `unmatched`. */
const shedLabelled = async (method: string): Promise<number> => {
  const line = (await registry.metrics()).split('\n').find((candidate) => candidate.startsWith(`http_requests_total{route="shed",method="${method}",status="503"} `));
  return Number(line?.split(' ')[1] ?? 0);
};

describe('load shedding (MAX_CONCURRENT_REQUESTS)', () => {
  it('refuses past the limit at once with 503 overloaded and Retry-After, never sheds the probes or /metrics, and /readyz reports it', async () => {
    const held = [heldRequest(), heldRequest()];
    // Both are in the app, reading their bodies.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const before = await shedCount();
    const [gets, posts] = [await shedLabelled('GET'), await shedLabelled('POST')];
    t.db.resetQueryCount();
    const refused = await t.request('GET', '/v1/forms', { key });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body).toStrictEqual({ error: 'The service is overloaded; retry after Retry-After seconds', code: 'overloaded', retryAfter: 1 });
    // Refused before any work: not one statement (no key lookup, no budget).
    expect(t.db.queries).toStrictEqual([]);
    expect((await t.request('POST', '/graphql', { key, body: { query: '{ __typename }' } })).status).toBe(503);
    expect(await shedCount()).toBe(before + 2);
    expect([await shedLabelled('GET'), await shedLabelled('POST')]).toStrictEqual([gets + 1, posts + 1]);

    expect((await t.request('GET', '/healthz')).status).toBe(200);
    const metrics = await t.app.fetch(new Request('http://gateway.test/metrics', { headers: { authorization: `Bearer ${TOKEN}` } }));
    expect(metrics.status).toBe(200);
    const ready = await t.request('GET', '/readyz');
    expect([ready.status, ready.body]).toStrictEqual([503, { status: 'overloaded' }]);

    // The admitted requests finish as if nothing happened.
    for (const request of held) request.finish();
    expect((await Promise.all(held.map((request) => request.response))).map((response) => response.status)).toStrictEqual([201, 201]);
    expect((await t.request('GET', '/v1/forms', { key })).status).toBe(200);
    // A second without refusals: ready again.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await t.request('GET', '/readyz')).body).toStrictEqual({ status: 'ready' });
  });

  it('over HTTP, refuses at the server before the app builds anything, with the same answer as the app', async () => {
    const held = [heldRequest(), heldRequest()];
    await new Promise((resolve) => setTimeout(resolve, 50));
    const entered: string[] = [];
    const app = { ...t.app, fetch: (request: Request) => (entered.push(new URL(request.url).pathname), t.app.fetch(request)) };
    const { server, baseUrl } = await serveOnLoopback(app);
    try {
      const before = await shedCount();
      const gets = await shedLabelled('GET');
      const fromServer = await fetch(`${baseUrl}/v1/forms`, { headers: { authorization: `Bearer ${key}` } });
      const fromApp = await t.app.fetch(new Request('http://gateway.test/v1/forms', { headers: { authorization: `Bearer ${key}` } }));
      expect(fromServer.status).toBe(503);
      expect(fromServer.headers.get('retry-after')).toBe('1');
      expect(fromServer.headers.get('content-type')).toBe(fromApp.headers.get('content-type'));
      expect(await fromServer.text()).toBe(await fromApp.text());
      // The refusal never reached the app: no Request, no context, no gate.
      expect(entered).toStrictEqual([]);
      expect(await shedCount()).toBe(before + 2);
      expect(await shedLabelled('GET')).toBe(gets + 2);
      // The probes pass the door.
      expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);
      expect(entered).toStrictEqual(['/healthz']);
    } finally {
      for (const request of held) request.finish();
      await Promise.all(held.map((request) => request.response));
      await closeHttpServer(server);
    }
    // Room again: the door lets requests in.
    const { server: again, baseUrl: url } = await serveOnLoopback(t.app);
    try {
      expect((await fetch(`${url}/v1/forms`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    } finally {
      await closeHttpServer(again);
    }
  });

  describe('with a queue (MAX_QUEUED_REQUESTS)', () => {
    let queued: TestApp;
    let target: { app: TestApp['app']; key: string; formId: number };
    beforeAll(async () => {
      queued = await createTestApp({ env: { MAX_CONCURRENT_REQUESTS: '2', MAX_QUEUED_REQUESTS: '2' } });
      const account = await seedAccount(queued.db);
      target = { app: queued.app, key: account.apiKeys.full!.key, formId: Object.values(account.forms)[0]!.id };
    });
    afterAll(async () => {
      await queued?.close();
    });
    const list = (): Promise<Response> => queued.app.fetch(new Request('http://gateway.test/v1/forms', { headers: { authorization: `Bearer ${target.key}` } }));

    it('lets a burst wait for a place, in arrival order, and refuses at once only past the queue', async () => {
      const held = [heldRequest(target), heldRequest(target)];
      await new Promise((resolve) => setTimeout(resolve, 50));
      const order: number[] = [];
      const waiting = [list(), list()].map((response, i) => response.then((r) => (order.push(i), r)));
      const refusedAt = performance.now();
      const refused = await list();
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(performance.now() - refusedAt).toBeLessThan(200);
      // The two waiting get the places the held ones free, first come first.
      held[0]!.finish();
      held[1]!.finish();
      expect((await Promise.all(held.map((request) => request.response))).map((r) => r.status)).toStrictEqual([201, 201]);
      expect((await Promise.all(waiting)).map((r) => r.status)).toStrictEqual([200, 200]);
      expect(order).toStrictEqual([0, 1]);
    });

    it('refuses a request that waited QUEUE_WAIT_MS without a place; during an overload nothing waits', async () => {
      // A second without refusals since the last test's: the queue is open again.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const held = [heldRequest(target), heldRequest(target)];
      await new Promise((resolve) => setTimeout(resolve, 50));
      const startedAt = performance.now();
      const waited = await list();
      expect(waited.status).toBe(503);
      expect(performance.now() - startedAt).toBeGreaterThanOrEqual(QUEUE_WAIT_MS - 20);
      // That was a refusal: an overload is on, so the next past the limit is refused at once, though the queue is empty.
      const nextAt = performance.now();
      expect((await list()).status).toBe(503);
      expect(performance.now() - nextAt).toBeLessThan(200);
      for (const request of held) request.finish();
      await Promise.all(held.map((request) => request.response));
      // A second after the overload, a burst past the limit waits again, and its place in the queue was given back.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect((await Promise.all([list(), list(), list(), list()])).map((r) => r.status)).toStrictEqual([200, 200, 200, 200]);
    });
  });
});
