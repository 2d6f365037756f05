import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ImportedAccount } from '../../src/fixtures/fixture-import.js';
import { startWorker, type RunningWorker } from '../../src/worker/start-worker.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { startHttpsServer, type TestHttpsServer } from '../support/https-server.js';
import { seedAccount } from '../support/seed.js';
import { fastRetries, recordingSender, waitFor } from './support.js';

/** The delivery log, redelivery, replay and ping over HTTP, delivered by a worker to the local HTTPS receiver. */

let t: TestApp;
let receiver: TestHttpsServer;
let worker: RunningWorker;
let acme: ImportedAccount;
let other: ImportedAccount;
let key: string;
const sender = recordingSender();
/** The deliveries' clock: null is the real time. */
let now: Date | null = null;

const iso = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

beforeAll(async () => {
  receiver = await startHttpsServer();
  t = await createTestApp({ env: { OUTBOUND_TEST_RESOLVE: receiver.resolveFor(), OUTBOUND_TEST_CA: receiver.caFile } });
  worker = await startWorker({
    config: t.deps.config,
    db: t.db,
    queue: t.queue,
    retryPolicy: fastRetries(2),
    emailSender: sender,
    pollingIntervalSeconds: 0.5,
    clock: () => now ?? new Date(),
  });
});
afterAll(async () => {
  await worker?.stop();
  await t?.close();
  await receiver?.close();
});
beforeEach(async () => {
  now = null;
  // A delivery still in flight from the previous test would record its attempt on the row that takes its id
  // after the truncation (ids restart): let it finish first.
  await waitFor(async () => ((await t.queue.boss.findJobs('webhook.deliver')).every((job) => job.state !== 'active') ? true : null));
  receiver.reset();
  sender.sent.length = 0;
  await t.queue.boss.deleteAllJobs();
  await t.db.truncate();
  acme = await seedAccount(t.db, {
    apiKeys: [
      { ref: 'full', scopes: ['read:forms', 'write:forms', 'read:submissions', 'write:submissions'] },
      { ref: 'forms', scopes: ['read:forms'] },
    ],
  });
  other = await seedAccount(t.db, { ref: 'other', name: 'Other', ownerEmail: 'owner@other.example' });
  key = acme.apiKeys.full!.key;
});

const formId = () => acme.forms.contact!.id;
const subscribe = async (path: string, account = acme) => {
  const res = await t.request('POST', '/v1/webhooks', { key: account.apiKeys.full!.key, body: { url: `https://receiver.test${path}`, event: 'submission.created' } });
  expect(res.status).toBe(201);
  return res.body as { id: number; secret: string };
};
const ingest = async (name: string) => {
  const res = await t.request('POST', `/v1/forms/${formId()}/submissions`, { key, body: { formData: { Name: name } } });
  expect(res.status).toBe(201);
  return res.body as { id: number };
};
const deliveries = (webhookId: number, query = '') => t.request('GET', `/v1/webhooks/${webhookId}/deliveries${query}`, { key });
/** Waits until the subscription has `count` deliveries, none pending. */
const settled = (webhookId: number, count = 1) =>
  waitFor(async () => {
    const res = await deliveries(webhookId);
    const data = res.body.data as { id: number; status: string }[];
    return data.length === count && data.every((d) => d.status !== 'pending') ? data : null;
  }, 20_000, 'settled deliveries');
const verify = (secret: string, request: { body: string; headers: Record<string, unknown> }) =>
  new Webhook(secret).verify(request.body, {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  });

describe('GET /v1/webhooks/{id}/deliveries and /deliveries/{deliveryId}', () => {
  it('logs a successful delivery: the object, the exact body sent and its one attempt', async () => {
    receiver.handle('/ok', { status: 204 });
    const sub = await subscribe('/ok');
    await ingest('Ada');
    const [request] = await receiver.waitForRequests(1);
    const [listed] = await settled(sub.id);
    const list = await deliveries(sub.id);
    expect(list.body).toStrictEqual({
      data: [
        {
          id: expect.any(Number),
          webhookId: sub.id,
          eventId: expect.stringMatching(/^evt_/),
          eventType: 'submission.created',
          status: 'succeeded',
          attempts: 1,
          lastAttemptAt: iso,
          lastStatusCode: 204,
          lastError: null,
          nextAttemptAt: null,
          createdAt: iso,
        },
      ],
      pagination: { page: 1, limit: 20, total: 1, pages: 1 },
    });
    const detail = await t.request('GET', `/v1/webhooks/${sub.id}/deliveries/${list.body.data[0].id}`, { key });
    expect(detail.status).toBe(200);
    expect(detail.body).toStrictEqual({
      ...listed,
      payload: JSON.parse(request!.body),
      attemptLog: [{ at: detail.body.lastAttemptAt, statusCode: 204, error: null, durationMs: expect.any(Number) }],
    });
    // The exact bytes sent, and the event id is the payload's.
    expect(JSON.stringify(detail.body.payload)).toBe(request!.body);
    expect(detail.body.eventId).toBe(detail.body.payload.id);
    expect(detail.text).not.toContain('receiver.test');
  });

  it('follows a redirect within the host (the same signed body), and fails one off the host with redirect_off_host', async () => {
    receiver.handle('/moved', { status: 307, redirect: '/ok' });
    receiver.handle('/ok', { status: 204 });
    receiver.handle('/away', { status: 308, redirect: 'https://other.test/ok' });
    const moved = await subscribe('/moved');
    const away = await subscribe('/away');
    await ingest('Ada');
    const [followed] = await settled(moved.id);
    expect(followed).toMatchObject({ status: 'succeeded', attempts: 1, lastStatusCode: 204, lastError: null });
    const reached = receiver.requests.filter((request) => request.pathname === '/ok');
    expect(reached.map((request) => [request.method, request.host])).toStrictEqual([['POST', 'receiver.test']]);
    expect(verify(moved.secret, reached[0]!)).toMatchObject({ type: 'submission.created' });
    const [refused] = await settled(away.id);
    expect(refused).toMatchObject({ status: 'failed', lastStatusCode: null, lastError: 'redirect_off_host' });
    expect(receiver.requests.filter((request) => request.host === 'other.test')).toStrictEqual([]);
  });

  it('logs a failed delivery: every attempt with its status code and reason, and filters by status', async () => {
    receiver.handle('/down', { status: 500 });
    receiver.handle('/ok', { status: 200 });
    const failing = await subscribe('/down');
    await ingest('Ada');
    const [row] = await settled(failing.id);
    expect(row).toMatchObject({ status: 'failed', attempts: 2, lastStatusCode: 500, lastError: 'http_500', nextAttemptAt: null });
    const detail = await t.request('GET', `/v1/webhooks/${failing.id}/deliveries/${row!.id}`, { key });
    expect(detail.body.attemptLog).toStrictEqual([
      { at: iso, statusCode: 500, error: 'http_500', durationMs: expect.any(Number) },
      { at: iso, statusCode: 500, error: 'http_500', durationMs: expect.any(Number) },
    ]);
    expect((await deliveries(failing.id, '?status=failed')).body.pagination.total).toBe(1);
    expect((await deliveries(failing.id, '?status=succeeded')).body).toStrictEqual({ data: [], pagination: { page: 1, limit: 20, total: 0, pages: 0 } });
    const bad = await deliveries(failing.id, '?status=lost');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation_failed');
  });

  it("needs the event's read scope for the payload; the list needs none", async () => {
    receiver.handle('/ok', { status: 200 });
    const sub = await subscribe('/ok');
    await ingest('Ada');
    const [row] = await settled(sub.id);
    const forms = acme.apiKeys.forms!.key;
    expect((await t.request('GET', `/v1/webhooks/${sub.id}/deliveries`, { key: forms })).status).toBe(200);
    const denied = await t.request('GET', `/v1/webhooks/${sub.id}/deliveries/${row!.id}`, { key: forms });
    expect(denied.status).toBe(403);
    expect(denied.body).toStrictEqual({ error: expect.any(String), code: 'insufficient_scope', required: 'read:submissions' });
    // A ping's delivery carries no resource: the same key reads it (decisions §6.5).
    const ping = await t.request('POST', `/v1/webhooks/${sub.id}/ping`, { key: forms });
    expect(ping.status).toBe(202);
    const read = await t.request('GET', `/v1/webhooks/${sub.id}/deliveries/${ping.body.id}`, { key: forms });
    expect([read.status, read.body.eventType]).toStrictEqual([200, 'webhook.ping']);
  });
});

describe('POST /v1/webhooks/{id}/deliveries/{deliveryId}/redeliver', () => {
  it('sends the delivery again with its original webhook-id and payload, validly signed', async () => {
    receiver.handle('/ok', { status: 200 });
    const sub = await subscribe('/ok');
    await ingest('Ada');
    const [row] = await settled(sub.id);
    const res = await t.request('POST', `/v1/webhooks/${sub.id}/deliveries/${row!.id}/redeliver`, { key });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ id: row!.id, status: 'pending', attempts: 1 });
    expect(Object.keys(res.body).sort()).toStrictEqual(
      ['attempts', 'createdAt', 'eventId', 'eventType', 'id', 'lastAttemptAt', 'lastError', 'lastStatusCode', 'nextAttemptAt', 'status', 'webhookId'],
    );
    const [first, second] = await receiver.waitForRequests(2);
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.body).toBe(first!.body);
    expect(verify(sub.secret, second!)).toStrictEqual(JSON.parse(first!.body));
    await waitFor(async () => {
      const detail = await t.request('GET', `/v1/webhooks/${sub.id}/deliveries/${row!.id}`, { key });
      return detail.body.status === 'succeeded' && detail.body.attempts === 2 ? detail : null;
    });
  });
});

describe('POST /v1/webhooks/{id}/replay', () => {
  it('queues again only the failed deliveries of the window with status failed, with their original webhook-ids', async () => {
    let up = false;
    receiver.handle('/flaky', () => ({ status: up ? 200 : 503 }));
    const sub = await subscribe('/flaky');
    const from = new Date(Date.now() - 1000).toISOString();
    await ingest('Ada');
    await ingest('Bob');
    await settled(sub.id, 2);
    up = true;
    await ingest('Cy');
    await waitFor(async () => ((await deliveries(sub.id, '?status=succeeded')).body.pagination.total === 1 ? true : null));
    const failedIds = new Set(receiver.requests.filter((r) => r.body.includes('Ada') || r.body.includes('Bob')).map((r) => r.headers['webhook-id']));
    expect(failedIds.size).toBe(2);
    receiver.reset();
    receiver.handle('/flaky', { status: 200 });

    const res = await t.request('POST', `/v1/webhooks/${sub.id}/replay`, {
      key,
      body: { createdFrom: from, createdBefore: new Date(Date.now() + 1000).toISOString(), status: 'failed' },
    });
    expect(res.status).toBe(202);
    expect(res.body).toStrictEqual({ replayed: 2 });
    const resent = await receiver.waitForRequests(2);
    expect(new Set(resent.map((r) => r.headers['webhook-id']))).toStrictEqual(failedIds);
    for (const request of resent) expect(() => verify(sub.secret, request)).not.toThrow();
    await waitFor(async () => ((await deliveries(sub.id, '?status=succeeded')).body.pagination.total === 3 ? true : null));
    expect(receiver.requests).toHaveLength(2);
  });

  it('refuses a window over 30 days, an inverted one and another status: 400 validation_failed', async () => {
    receiver.handle('/ok', { status: 200 });
    const sub = await subscribe('/ok');
    const replay = (body: unknown) => t.request('POST', `/v1/webhooks/${sub.id}/replay`, { key, body });
    const long = await replay({ createdFrom: '2026-01-01T00:00:00Z', createdBefore: '2026-02-01T00:00:00Z' });
    expect(long.status).toBe(400);
    expect(long.body).toStrictEqual({ error: expect.any(String), code: 'validation_failed', fields: [{ field: 'createdBefore', message: expect.any(String) }] });
    expect((await replay({ createdFrom: '2026-01-02T00:00:00Z', createdBefore: '2026-01-01T00:00:00Z' })).body.code).toBe('validation_failed');
    expect((await replay({ createdFrom: '2026-01-01T00:00:00Z', createdBefore: '2026-01-02T00:00:00Z', status: 'succeeded' })).status).toBe(400);
    expect((await replay({ createdFrom: 'yesterday', createdBefore: '2026-01-02T00:00:00Z' })).status).toBe(400);
    const exactly30 = await replay({ createdFrom: '2026-01-01T00:00:00Z', createdBefore: '2026-01-31T00:00:00Z' });
    expect(exactly30.status).toBe(202);
    expect(exactly30.body).toStrictEqual({ replayed: 0 });
  });
});

describe('POST /v1/webhooks/{id}/ping', () => {
  it('sends a signed webhook.ping at once and answers 202 with the new delivery', async () => {
    receiver.handle('/ok', { status: 200 });
    const sub = await subscribe('/ok');
    const res = await t.request('POST', `/v1/webhooks/${sub.id}/ping`, { key: acme.apiKeys.forms!.key });
    expect(res.status).toBe(202);
    expect(res.body).toStrictEqual({
      id: expect.any(Number),
      webhookId: sub.id,
      eventId: expect.stringMatching(/^evt_/),
      eventType: 'webhook.ping',
      status: 'pending',
      attempts: 0,
      lastAttemptAt: null,
      lastStatusCode: null,
      lastError: null,
      nextAttemptAt: iso,
      createdAt: iso,
    });
    const [request] = await receiver.waitForRequests(1);
    expect(verify(sub.secret, request!)).toStrictEqual({ id: res.body.eventId, type: 'webhook.ping', createdAt: res.body.createdAt, data: { webhookId: sub.id } });
  });
});

describe('PATCH /v1/webhooks/{id}', () => {
  it('changes the url and active, refuses other fields and URLs the creation refuses', async () => {
    const sub = await subscribe('/ok');
    const patch = (body: unknown, k = key) => t.request('PATCH', `/v1/webhooks/${sub.id}`, { key: k, body });
    const moved = await patch({ url: 'https://hooks.example.test/new' });
    expect(moved.status).toBe(200);
    expect(moved.body).toStrictEqual({ id: sub.id, url: 'https://hooks.example.test/new', event: 'submission.created', formId: null, active: true, createdAt: iso });
    expect((await patch({ active: false })).body.active).toBe(false);
    const forbidden = await patch({ active: true, event: 'form.created', secret: 'x' });
    expect(forbidden.status).toBe(400);
    expect(forbidden.body).toStrictEqual({ error: expect.any(String), code: 'forbidden_field', fields: ['event', 'secret'] });
    for (const url of ['http://hooks.example.test/x', 'https://hooks.example.test:8443/x', 'https://u:p@hooks.example.test/x', 'https://127.0.0.1/x', 'https://[::1]/x', 'https://169.254.169.254/x']) {
      const refused = await patch({ url });
      expect(refused.status, url).toBe(400);
      expect(refused.body).toStrictEqual({ error: expect.any(String), code: 'validation_failed', fields: [{ field: 'url', message: expect.any(String) }] });
      expect(refused.text).not.toContain(url);
    }
    expect((await patch({ active: 'yes' })).body.code).toBe('validation_failed');
    // A key without the event's read scope cannot point the subscription elsewhere.
    expect((await patch({ url: 'https://hooks.example.test/mine' }, acme.apiKeys.forms!.key)).status).toBe(403);
    expect((await t.request('GET', `/v1/webhooks/${sub.id}`, { key })).body).toMatchObject({ url: 'https://hooks.example.test/new', active: false });
  });
});

describe('failing endpoints', () => {
  it('deactivates a subscription after 3 days of only failures, emails the owner, and PATCH active: true turns it back on', async () => {
    receiver.handle('/down', { status: 500 });
    const sub = await subscribe('/down');
    now = new Date(Date.now() - 4 * 24 * 3600 * 1000);
    await ingest('Ada');
    await settled(sub.id, 1);
    expect((await t.request('GET', `/v1/webhooks/${sub.id}`, { key })).body.active).toBe(true);
    now = null;
    await ingest('Bob');
    const email = await waitFor(async () => sender.sent.find((e) => e.to === 'owner@acme.example' && e.subject.includes(`#${sub.id}`)), 20_000, 'the email');
    expect(`${email.subject}${email.text}${email.html}`).not.toContain('receiver.test');
    expect(email.text).toContain(`/webhooks/${sub.id}`);
    expect((await t.request('GET', `/v1/webhooks/${sub.id}`, { key })).body.active).toBe(false);
    // No new deliveries while inactive.
    const before = (await deliveries(sub.id)).body.pagination.total;
    await ingest('Cy');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await deliveries(sub.id)).body.pagination.total).toBe(before);

    receiver.handle('/down', { status: 200 });
    const back = await t.request('PATCH', `/v1/webhooks/${sub.id}`, { key, body: { active: true } });
    expect(back.body.active).toBe(true);
    await ingest('Dee');
    await waitFor(async () => ((await deliveries(sub.id, '?status=succeeded')).body.pagination.total === 1 ? true : null));
    expect((await t.request('GET', `/v1/webhooks/${sub.id}`, { key })).body.active).toBe(true);
  });

  it('does not deactivate an endpoint that failed for less than 3 days', async () => {
    receiver.handle('/down', { status: 500 });
    const sub = await subscribe('/down');
    now = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    await ingest('Ada');
    await settled(sub.id, 1);
    now = null;
    await ingest('Bob');
    await settled(sub.id, 2);
    expect((await t.request('GET', `/v1/webhooks/${sub.id}`, { key })).body.active).toBe(true);
    expect(sender.sent.filter((e) => e.subject.includes('Webhook'))).toStrictEqual([]);
  });
});

describe('unknown ids', () => {
  it("answers byte-identical 404s for absent ids and another account's", async () => {
    receiver.handle('/ok', { status: 200 });
    const mine = await subscribe('/ok');
    const theirs = await subscribe('/ok', other);
    await t.request('POST', `/v1/forms/${other.forms.contact!.id}/submissions`, { key: other.apiKeys.full!.key, body: { formData: { Name: 'Zed' } } });
    const [theirDelivery] = (await waitFor(async () => {
      const res = await t.request('GET', `/v1/webhooks/${theirs.id}/deliveries`, { key: other.apiKeys.full!.key });
      return res.body.data.length ? res.body.data : null;
    })) as { id: number }[];
    const absent = 2_000_000_000;
    const pairs: [string, string, string, unknown?][] = [
      ['GET', `/v1/webhooks/${theirs.id}/deliveries`, `/v1/webhooks/${absent}/deliveries`],
      ['GET', `/v1/webhooks/${theirs.id}/deliveries/${theirDelivery!.id}`, `/v1/webhooks/${absent}/deliveries/${theirDelivery!.id}`],
      ['GET', `/v1/webhooks/${mine.id}/deliveries/${theirDelivery!.id}`, `/v1/webhooks/${mine.id}/deliveries/${absent}`],
      ['POST', `/v1/webhooks/${mine.id}/deliveries/${theirDelivery!.id}/redeliver`, `/v1/webhooks/${mine.id}/deliveries/${absent}/redeliver`],
      ['POST', `/v1/webhooks/${theirs.id}/ping`, `/v1/webhooks/${absent}/ping`],
      ['PATCH', `/v1/webhooks/${theirs.id}`, `/v1/webhooks/${absent}`, { active: false }],
      ['POST', `/v1/webhooks/${theirs.id}/replay`, `/v1/webhooks/${absent}/replay`, { createdFrom: '2026-01-01T00:00:00Z', createdBefore: '2026-01-02T00:00:00Z' }],
    ];
    for (const [method, foreign, missing, body] of pairs) {
      const a = await t.request(method, foreign, { key, body });
      const b = await t.request(method, missing, { key, body });
      expect(a.status, foreign).toBe(404);
      expect(a.text, foreign).toBe(b.text);
    }
    const resources = async (path: string) => (await t.request('GET', path, { key })).body.resource;
    expect(await resources(`/v1/webhooks/${absent}/deliveries`)).toBe('webhook');
    expect(await resources(`/v1/webhooks/${mine.id}/deliveries/${absent}`)).toBe('delivery');
    // Nothing of theirs moved.
    expect((await t.db.prisma.webhookSubscription.findUniqueOrThrow({ where: { id: theirs.id } })).active).toBe(true);
    expect((await t.request('GET', `/v1/webhooks/${mine.id}/deliveries/0`, { key })).body.code).toBe('invalid_id');
  });
});
