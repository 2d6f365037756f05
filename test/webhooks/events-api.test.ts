import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ImportedAccount } from '../../src/fixtures/fixture-import.js';
import { deleteExpiredEvents } from '../../src/worker/jobs/retention.job.js';
import { relayEvents } from '../../src/worker/jobs/event-relay.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { formFixture, seedAccount, siteFixture } from '../support/seed.js';
import { fanOutRecordedEvents } from './fixtures.js';

/** GET /v1/events and /v1/events/{id} (contract §6.5), the 30-day retention, and the list routes' statement counts. */

let t: TestApp;
let acme: ImportedAccount;
let other: ImportedAccount;
let key: string;

const iso = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const DAY = 24 * 3600 * 1000;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());
beforeEach(async () => {
  await t.queue.boss.deleteAllJobs();
  await t.db.truncate();
  acme = await seedAccount(t.db, {
    apiKeys: [
      { ref: 'full', scopes: ['read:forms', 'write:forms', 'read:submissions', 'write:submissions'] },
      { ref: 'forms', scopes: ['read:forms', 'write:forms'] },
      { ref: 'orders', scopes: ['read:orders'] },
    ],
    sites: [siteFixture({ forms: [formFixture(), formFixture({ ref: 'intake', name: 'Intake', phi: true })] })],
  });
  other = await seedAccount(t.db, { ref: 'other', name: 'Other' });
  key = acme.apiKeys.full!.key;
});

const formId = () => acme.forms.contact!.id;
const ingest = async (name: string, form = formId(), account = acme) => {
  const res = await t.request('POST', `/v1/forms/${form}/submissions`, { key: account.apiKeys.full!.key, body: { formData: { Name: name } } });
  expect(res.status).toBe(201);
  return res.body as { id: number; formId: number; createdAt: string };
};
const events = (query = '', k = key) => t.request('GET', `/v1/events${query}`, { key: k });
/** Moves an event back in time (what a clock would have done). */
const age = (eventId: string, days: number) =>
  t.db.prisma.$executeRawUnsafe(`UPDATE "OutboxEvent" SET "createdAt" = "createdAt" - interval '${days} days' WHERE "eventId" = $1`, eventId);

describe('GET /v1/events', () => {
  it('lists the events newest first, exactly as delivered', async () => {
    const first = await ingest('Ada');
    const renamed = await t.request('PATCH', `/v1/forms/${formId()}`, { key, body: { name: 'Contact us' } });
    expect(renamed.status).toBe(200);
    const res = await events();
    expect(res.status).toBe(200);
    expect(res.body).toStrictEqual({
      data: [
        { id: expect.stringMatching(/^evt_/), type: 'form.updated', createdAt: iso, data: renamed.body },
        { id: expect.stringMatching(/^evt_/), type: 'submission.created', createdAt: iso, data: first },
      ],
      pagination: { page: 1, limit: 20, total: 2, pages: 1 },
    });
    // What a receiver got: the delivery's payload is the event.
    await t.request('POST', '/v1/webhooks', { key, body: { url: 'https://hooks.example.test/in', event: 'submission.created' } });
    const second = await ingest('Bob');
    await fanOutRecordedEvents({ db: t.db, queue: t.queue, phi: t.deps.phi });
    const [delivery] = await t.db.prisma.webhookDelivery.findMany();
    const listed = (await events('?type=submission.created')).body.data[0];
    expect(listed).toStrictEqual(delivery!.payload);
    expect(listed.data).toStrictEqual(second);
    expect((await t.request('GET', `/v1/events/${listed.id}`, { key })).body).toStrictEqual(listed);
  });

  it('filters by type and by a createdAt window, and refuses bad filters', async () => {
    await ingest('Ada');
    await ingest('Bob');
    await t.request('PATCH', `/v1/forms/${formId()}`, { key, body: { name: 'Renamed' } });
    const all = (await events()).body.data as { id: string; type: string; createdAt: string }[];
    const oldest = all[2]!;
    await age(oldest.id, 2);
    expect((await events('?type=form.updated')).body.data.map((e: { type: string }) => e.type)).toStrictEqual(['form.updated']);
    const since = new Date(Date.now() - DAY).toISOString();
    const recent = await events(`?createdFrom=${encodeURIComponent(since)}`);
    expect(recent.body.pagination.total).toBe(2);
    expect(recent.body.data.map((e: { id: string }) => e.id)).not.toContain(oldest.id);
    const before = await events(`?createdBefore=${encodeURIComponent(since)}`);
    expect(before.body.data.map((e: { id: string }) => e.id)).toStrictEqual([oldest.id]);
    for (const query of ['?type=order.created', '?createdFrom=yesterday', '?createdFrom=0000-01-01T00:00:00Z', `?createdFrom=${encodeURIComponent(since)}&createdBefore=${encodeURIComponent(since)}`]) {
      const bad = await events(query);
      expect(bad.status, query).toBe(400);
      expect(bad.body.code).toBe('validation_failed');
      expect(bad.body.fields.length).toBeGreaterThan(0);
    }
  });

  it('shows a key only the kinds whose read scope it holds, and hides the others like absent ones', async () => {
    const submission = await ingest('Ada');
    await t.request('PATCH', `/v1/forms/${formId()}`, { key, body: { name: 'Renamed' } });
    const forms = acme.apiKeys.forms!.key;
    const seen = await events('', forms);
    expect(seen.body.data.map((e: { type: string }) => e.type)).toStrictEqual(['form.updated']);
    expect((await events('?type=submission.created', forms)).body).toStrictEqual({ data: [], pagination: { page: 1, limit: 20, total: 0, pages: 0 } });
    expect((await events('', acme.apiKeys.orders!.key)).body.pagination.total).toBe(0);

    const hiddenId = (await events('?type=submission.created')).body.data[0].id as string;
    expect((await events('?type=submission.created')).body.data[0].data).toStrictEqual(submission);
    await ingest('Zed', other.forms.contact!.id, other);
    const foreignId = (await events('', other.apiKeys.full!.key)).body.data[0].id as string;
    const hidden = await t.request('GET', `/v1/events/${hiddenId}`, { key: forms });
    const foreign = await t.request('GET', `/v1/events/${foreignId}`, { key });
    const absent = await t.request('GET', '/v1/events/evt_absent', { key });
    expect(absent.status).toBe(404);
    expect(absent.body).toStrictEqual({ error: expect.any(String), code: 'not_found', resource: 'event' });
    expect(hidden.text).toBe(absent.text);
    expect(foreign.text).toBe(absent.text);
    expect((await t.request('GET', '/v1/events/%E0%A4%A', { key })).status).toBe(400);
  });

  it("keeps a PHI form's events thin: ids only", async () => {
    const submission = await ingest('Grace Hopper', acme.forms.intake!.id);
    const res = await events();
    expect(res.body.data[0].data).toStrictEqual({ id: submission.id, formId: acme.forms.intake!.id, createdAt: submission.createdAt });
    expect(res.text).not.toContain('Grace');
  });

  it("shows each event's deliveries over GraphQL, those to a form's webhookUrl included", async () => {
    const patched = await t.request('PATCH', `/v1/forms/${formId()}`, { key, body: { webhookUrl: 'https://hooks.example.test/form' } });
    expect(patched.status).toBe(200);
    await ingest('Ada');
    await fanOutRecordedEvents({ db: t.db, queue: t.queue, phi: t.deps.phi });
    const res = await t.graphql('{ events(type: "submission.created") { data { id deliveries { webhookId eventId status } } } }', {}, key);
    const [event] = res.body.data.events.data;
    expect(event.deliveries).toStrictEqual([{ webhookId: null, eventId: event.id, status: 'pending' }]);
    expect(res.text).not.toContain('hooks.example.test');
  });
});

describe('retention', () => {
  it('deletes events and settled deliveries older than 30 days in batches, and keeps the rest', async () => {
    await t.request('POST', '/v1/webhooks', { key, body: { url: 'https://hooks.example.test/in', event: 'submission.created' } });
    for (const name of ['A', 'B', 'C', 'D', 'E']) await ingest(name);
    await fanOutRecordedEvents({ db: t.db, queue: t.queue, phi: t.deps.phi });
    const ids = ((await events()).body.data as { id: string }[]).map((e) => e.id);
    for (const id of ids.slice(2)) await age(id, 31);
    await t.db.prisma.$executeRawUnsafe(
      `UPDATE "WebhookDelivery" SET "createdAt" = "createdAt" - interval '31 days', "status" = 'failed' WHERE "eventId" = ANY($1::text[])`,
      ids.slice(2),
    );
    // An old event still waiting for its fan-out is kept: it has not been announced yet.
    const waiting = await ingest('F');
    const waitingId = (await events()).body.data[0].id as string;
    await age(waitingId, 40);

    const result = await deleteExpiredEvents(t.db, new Date(), 2);
    expect(result).toStrictEqual({ events: 3, deliveries: 3 });
    const left = ((await events()).body.data as { id: string }[]).map((e) => e.id);
    expect(left.sort()).toStrictEqual([...ids.slice(0, 2), waitingId].sort());
    expect(await t.db.prisma.webhookDelivery.count()).toBe(2);
    expect(waiting.id).toBeGreaterThan(0);
    await relayEvents({ db: t.db, queue: t.queue, phi: t.deps.phi });
    expect((await deleteExpiredEvents(t.db, new Date(), 2)).events).toBe(1);
  });
});

describe('statement counts', () => {
  /** Statements one request sent besides authentication, after a warm-up request. */
  async function statements(path: string, k: string): Promise<string[]> {
    await t.request('GET', path, { key: k });
    t.db.resetQueryCount();
    const res = await t.request('GET', path, { key: k });
    expect(res.status, path).toBe(200);
    return t.db.queries.filter((sql) => !/"ApiKey"/.test(sql));
  }

  it('lists 100 events or deliveries in at most 3 statements, as many as for 1', async () => {
    const sub = await t.request('POST', '/v1/webhooks', { key, body: { url: 'https://hooks.example.test/in', event: 'submission.created' } });
    const small = await t.request('POST', '/v1/webhooks', { key: other.apiKeys.full!.key, body: { url: 'https://hooks.example.test/in', event: 'submission.created' } });
    await t.db.prisma.$executeRawUnsafe(`
      INSERT INTO "OutboxEvent" ("accountId", "formId", "eventId", "type", "payload", "createdAt", "relayedAt")
      SELECT $1, $2, 'evt_bulk' || i, 'submission.created', jsonb_build_object('id', 'evt_bulk' || i, 'type', 'submission.created', 'createdAt', '2026-01-01T00:00:00.000Z', 'data', '{}'::jsonb), now() - i * interval '1 second', now()
      FROM generate_series(1, 250) AS i`, acme.id, formId());
    await t.db.prisma.$executeRawUnsafe(`
      INSERT INTO "WebhookDelivery" ("accountId", "subscriptionId", "messageId", "eventId", "eventType", "payload", "updatedAt", "status")
      SELECT $1, $2, 'msg_bulk' || i, 'evt_bulk' || i, 'submission.created', '{}'::jsonb, now(), 'failed'
      FROM generate_series(1, 250) AS i`, acme.id, sub.body.id);
    await ingest('One', other.forms.contact!.id, other);
    await fanOutRecordedEvents({ db: t.db, queue: t.queue, phi: t.deps.phi });

    const bigKey = key;
    const smallKey = other.apiKeys.full!.key;
    await t.useKeyOnce(bigKey);
    await t.useKeyOnce(smallKey);
    const manyEvents = await statements('/v1/events?limit=100', bigKey);
    const oneEvent = await statements('/v1/events?limit=100', smallKey);
    expect(manyEvents.length).toBeLessThanOrEqual(3);
    expect(manyEvents.length).toBe(oneEvent.length);
    const manyDeliveries = await statements(`/v1/webhooks/${sub.body.id}/deliveries?limit=100&status=failed`, bigKey);
    const oneDelivery = await statements(`/v1/webhooks/${small.body.id}/deliveries?limit=100`, smallKey);
    expect(manyDeliveries.length).toBeLessThanOrEqual(3);
    expect(manyDeliveries.length).toBe(oneDelivery.length);
    expect((await t.request('GET', '/v1/events?limit=100', { key: bigKey })).body.pagination.total).toBe(250);
  });
});

describe('GET /v1/openapi.json', () => {
  it('lists the delivery, replay, ping, PATCH and events routes with their real success statuses and path ids', async () => {
    const { paths } = (await t.request('GET', '/v1/openapi.json')).body as { paths: Record<string, Record<string, { responses: Record<string, unknown>; parameters: { name: string; in: string }[] }>> };
    const expected: [string, string, string][] = [
      ['/webhooks/{id}/deliveries', 'get', '200'],
      ['/webhooks/{id}/deliveries/{deliveryId}', 'get', '200'],
      ['/webhooks/{id}/deliveries/{deliveryId}/redeliver', 'post', '202'],
      ['/webhooks/{id}/replay', 'post', '202'],
      ['/webhooks/{id}/ping', 'post', '202'],
      ['/webhooks/{id}', 'patch', '200'],
      ['/events', 'get', '200'],
      ['/events/{eventId}', 'get', '200'],
    ];
    for (const [path, method, status] of expected) {
      const operation = paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(Object.keys(operation!.responses), `${method} ${path}`).toContain(status);
      const pathParams = operation!.parameters.filter((p) => p.in === 'path').map((p) => p.name);
      expect(pathParams).toStrictEqual([...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
    }
  });
});
