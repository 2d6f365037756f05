import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ImportedAccount } from '../../src/fixtures/fixture-import.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { seedAccount } from '../support/seed.js';
import { fanOutRecordedEvents } from './fixtures.js';

let t: TestApp;
let acme: ImportedAccount;
let other: ImportedAccount;
let key: string;

const iso = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const secret = expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/);

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
      { ref: 'forms', scopes: ['read:forms'] },
      { ref: 'orders', scopes: ['read:orders'] },
    ],
  });
  other = await seedAccount(t.db, { ref: 'other', name: 'Other' });
  key = acme.apiKeys.full!.key;
});

const formId = () => acme.forms.contact!.id;
const fanout = () => ({ db: t.db, queue: t.queue, phi: t.deps.phi });
const create = (body: unknown, k = key) => t.request('POST', '/v1/webhooks', { key: k, body });

describe('POST /v1/webhooks', () => {
  it('creates a subscription: 201 with the secret, shown once', async () => {
    const res = await create({ url: 'https://hooks.example.test/in', event: 'submission.created', formId: formId() });
    expect(res.status).toBe(201);
    expect(res.body).toStrictEqual({
      id: expect.any(Number),
      url: 'https://hooks.example.test/in',
      event: 'submission.created',
      formId: formId(),
      active: true,
      createdAt: iso,
      secret,
    });
    const read = await t.request('GET', `/v1/webhooks/${res.body.id}`, { key });
    expect(read.body).not.toHaveProperty('secret');
  });

  it('returns the existing subscription for the same url + event + form: 200, secret null', async () => {
    const first = await create({ url: 'https://hooks.example.test/in', event: 'form.created' });
    const again = await create({ url: 'https://hooks.example.test/in', event: 'form.created', formId: null });
    expect(again.status).toBe(200);
    expect(again.body).toStrictEqual({ ...first.body, secret: null });
    const otherEvent = await create({ url: 'https://hooks.example.test/in', event: 'form.updated' });
    expect(otherEvent.status).toBe(201);
    expect((await t.request('GET', '/v1/webhooks', { key })).body.pagination.total).toBe(2);
  });

  it("needs the read scope of the event's resource", async () => {
    const forms = acme.apiKeys.forms!.key;
    const denied = await create({ url: 'https://hooks.example.test/in', event: 'submission.created' }, forms);
    expect(denied.status).toBe(403);
    expect(denied.body).toStrictEqual({ error: expect.any(String), code: 'insufficient_scope', required: 'read:submissions' });
    expect((await create({ url: 'https://hooks.example.test/in', event: 'form.archived' }, forms)).status).toBe(201);
    const orders = acme.apiKeys.orders!.key;
    expect((await create({ url: 'https://hooks.example.test/in', event: 'form.archived' }, orders)).body).toStrictEqual({
      error: expect.any(String),
      code: 'insufficient_scope',
      required: 'read:forms',
    });
  });

  it('rejects a non-https url, an unknown event and a form of another account with validation_failed', async () => {
    const res = await create({ url: 'http://hooks.example.test/in', event: 'submission.created', formId: other.forms.contact!.id });
    expect(res.status).toBe(400);
    expect(res.body).toStrictEqual({
      error: expect.any(String),
      code: 'validation_failed',
      fields: [
        { field: 'url', message: expect.any(String) },
        { field: 'formId', message: expect.any(String) },
      ],
    });
    const unknown = await create({ url: 'https://hooks.example.test/in', event: 'order.created' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.fields).toStrictEqual([{ field: 'event', message: expect.any(String) }]);
    const missing = await create({ event: 'form.created', extra: 1 });
    expect(missing.body.fields.map((f: { field: string }) => f.field)).toStrictEqual(['url', 'extra']);
    expect((await create('[1]')).body.code).toBe('validation_failed');
    expect((await create({ url: 'not a url', event: 'form.created' })).body.fields).toStrictEqual([{ field: 'url', message: expect.any(String) }]);
  });
});

describe('GET /v1/webhooks', () => {
  it('lists newest first without secrets, for a key with any scope', async () => {
    const a = await create({ url: 'https://hooks.example.test/a', event: 'form.created' });
    const b = await create({ url: 'https://hooks.example.test/b', event: 'form.updated' });
    const res = await t.request('GET', '/v1/webhooks?limit=5', { key: acme.apiKeys.orders!.key });
    expect(res.status).toBe(200);
    const strip = ({ secret: _secret, ...rest }: Record<string, unknown>) => rest;
    expect(res.body).toStrictEqual({ data: [strip(b.body), strip(a.body)], pagination: { page: 1, limit: 5, total: 2, pages: 1 } });
    expect((await t.request('GET', '/v1/webhooks', { key: other.apiKeys.full!.key })).body.data).toStrictEqual([]);
  });
});

describe('GET /v1/webhooks/{id}', () => {
  it("answers another account's subscription exactly like an absent one", async () => {
    const mine = await create({ url: 'https://hooks.example.test/a', event: 'form.created' });
    const theirs = await t.request('GET', `/v1/webhooks/${mine.body.id}`, { key: other.apiKeys.full!.key });
    const absent = await t.request('GET', '/v1/webhooks/999999', { key: other.apiKeys.full!.key });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toStrictEqual({ error: expect.any(String), code: 'not_found', resource: 'webhook' });
    expect(theirs.text).toBe(absent.text);
    expect((await t.request('GET', '/v1/webhooks/01', { key })).body.code).toBe('invalid_id');
  });
});

describe('DELETE /v1/webhooks/{id}', () => {
  it('unsubscribes (204); the subscription is gone from reads and receives nothing more', async () => {
    const sub = await create({ url: 'https://hooks.example.test/a', event: 'submission.created' });
    const res = await t.request('DELETE', `/v1/webhooks/${sub.body.id}`, { key });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await t.request('GET', `/v1/webhooks/${sub.body.id}`, { key })).status).toBe(404);
    expect((await t.request('DELETE', `/v1/webhooks/${sub.body.id}`, { key })).status).toBe(404);
    const row = await t.db.prisma.webhookSubscription.findUniqueOrThrow({ where: { id: sub.body.id } });
    expect(row.active).toBe(false);
    expect(row.deletedAt).toBeInstanceOf(Date);
    const ingest = await t.request('POST', `/v1/forms/${formId()}/submissions`, { key, body: { formData: { Name: 'Ada' } } });
    expect(ingest.status).toBe(201);
    expect(await fanOutRecordedEvents(fanout())).toStrictEqual([{ deliveries: 0, emails: 1 }]);
    expect(await t.db.prisma.webhookDelivery.count({ where: { subscriptionId: sub.body.id } })).toBe(0);
  });

  it('passes the plan gate: a Free account can unsubscribe but not list', async () => {
    const sub = await create({ url: 'https://hooks.example.test/a', event: 'form.created' });
    await t.db.prisma.account.update({ where: { id: acme.id }, data: { plan: 'free' } });
    const list = await t.request('GET', '/v1/webhooks', { key });
    expect(list.status).toBe(402);
    expect(list.body).toStrictEqual({ error: expect.any(String), code: 'plan_feature_gated', feature: 'apiAccess' });
    const del = await t.request('DELETE', `/v1/webhooks/${sub.body.id}`, { key });
    expect(del.status).toBe(204);
  });
});

describe('webhooks over GraphQL', () => {
  it('creates, lists, reads, lists deliveries and deletes with the same rules', async () => {
    const created = await t.graphql(
      'mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { webhook { id url event formId active } secret created } }',
      { input: { url: 'https://hooks.example.test/g', event: 'submission.created' } },
      key,
    );
    expect(created.body.data.createWebhook).toStrictEqual({
      webhook: { id: expect.any(Number), url: 'https://hooks.example.test/g', event: 'submission.created', formId: null, active: true },
      secret,
      created: true,
    });
    const id = created.body.data.createWebhook.webhook.id as number;
    await t.request('POST', `/v1/forms/${formId()}/submissions`, { key, body: { formData: { Name: 'Ada' } } });
    await fanOutRecordedEvents(fanout());
    const read = await t.graphql(
      `{ webhooks { data { id } pagination { total } } webhook(id: ${id}) { url }
         webhookDeliveries(webhookId: ${id}) { data { webhookId event status attempts lastStatusCode nextAttemptAt messageId } pagination { total } } }`,
      {},
      key,
    );
    expect(read.body.data.webhooks).toStrictEqual({ data: [{ id }], pagination: { total: 1 } });
    expect(read.body.data.webhook).toStrictEqual({ url: 'https://hooks.example.test/g' });
    expect(read.body.data.webhookDeliveries.pagination.total).toBe(1);
    expect(read.body.data.webhookDeliveries.data[0]).toMatchObject({ webhookId: id, event: 'submission.created', messageId: expect.stringMatching(/^msg_/) });

    const denied = await t.graphql(
      'mutation { createWebhook(input: { url: "https://hooks.example.test/g", event: "submission.created" }) { secret } }',
      {},
      acme.apiKeys.forms!.key,
    );
    expect(denied.body.errors[0].extensions.code).toBe('insufficient_scope');
    const deleted = await t.graphql(`mutation { deleteWebhook(id: ${id}) }`, {}, key);
    expect(deleted.body.data).toStrictEqual({ deleteWebhook: true });
    const gone = await t.graphql(`{ webhook(id: ${id}) { id } }`, {}, key);
    expect(gone.body.errors[0].extensions).toMatchObject({ code: 'not_found', resource: 'webhook' });
  });
});
