import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWidgetsClient, verifyWebhook, walk, WalkError, type WidgetsClient } from '../../clients/typescript/src/index.js';
import { closeHttpServer, serveOnLoopback } from '../support/http-server.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { seedAccount } from '../support/seed.js';

describe('clients/typescript against a live server', () => {
  let t: TestApp;
  let http: Server;
  let client: WidgetsClient;
  let readOnly: WidgetsClient;
  let formId: number;

  beforeAll(async () => {
    t = await createTestApp();
    const account = await seedAccount(t.db, {
      apiKeys: [{ ref: 'full', scopes: ['read:forms', 'write:forms', 'read:submissions', 'write:submissions'] }, { ref: 'reader', scopes: ['read:forms'] }],
    });
    formId = account.forms.contact!.id;
    const served = await serveOnLoopback(t.app);
    http = served.server;
    const { baseUrl } = served;
    client = createWidgetsClient({ baseUrl, apiKey: account.apiKeys.full!.key });
    readOnly = createWidgetsClient({ baseUrl, apiKey: account.apiKeys.reader!.key });
  });
  afterAll(async () => {
    await closeHttpServer(http);
    await t.close();
  });

  it('lists and reads forms with typed bodies', async () => {
    const list = await client.GET('/forms', { params: { query: { limit: 5 } } });
    expect(list.response.status).toBe(200);
    expect(list.data?.pagination).toStrictEqual({ page: 1, limit: 5, total: 1, pages: 1 });
    expect(list.data?.data[0]?.submissionCount).toBe(0);
    const form = await client.GET('/forms/{id}', { params: { path: { id: formId } } });
    expect(form.data?.fields.map((field) => field.label)).toStrictEqual(['Name', 'Email']);
  });

  it('creates a form and answers its Location', async () => {
    const created = await client.POST('/forms', { body: { name: 'Newsletter', fields: [{ type: 'email', label: 'Email' }] } });
    expect(created.response.status).toBe(201);
    expect(created.response.headers.get('location')).toBe(`/v1/forms/${created.data?.id}`);
    expect(created.data?.name).toBe('Newsletter');
  });

  it('ingests with an Idempotency-Key: 201, then the replay with 200 and the same submission', async () => {
    const send = () =>
      client.POST('/forms/{id}/submissions', {
        params: { path: { id: formId }, header: { 'Idempotency-Key': `client-${randomBytes(4).toString('hex')}` } },
        body: { formData: { Name: 'Ada', Email: 'ada@example.com' } },
      });
    const key = `client-${randomBytes(6).toString('hex')}`;
    const once = () =>
      client.POST('/forms/{id}/submissions', {
        params: { path: { id: formId }, header: { 'Idempotency-Key': key } },
        body: { formData: { Name: 'Ada', Email: 'ada@example.com' } },
      });
    const first = await once();
    const replay = await once();
    expect(first.response.status).toBe(201);
    expect(replay.response.status).toBe(200);
    expect(replay.response.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.data).toStrictEqual(first.data);
    expect((await send()).data?.id).toBeGreaterThan(first.data!.id);
  });

  it('types 4xx answers as the v1 error body', async () => {
    const missing = await client.GET('/forms/{id}', { params: { path: { id: 2_000_000 } } });
    expect(missing.data).toBeUndefined();
    expect(missing.response.status).toBe(404);
    expect(missing.error).toStrictEqual({ error: 'Not found', code: 'not_found', resource: 'form' });
    const forbidden = await readOnly.POST('/forms', { body: { name: 'Nope', fields: [{ type: 'text', label: 'X' }] } });
    expect(forbidden.response.status).toBe(403);
    expect(forbidden.error?.code).toBe('insufficient_scope');
    expect(forbidden.error?.required).toBe('write:forms');
  });
  it('walks a list by cursor with walk(): every row once, newest first, across pages (decisions §7.6)', async () => {
    for (let i = 0; i < 7; i++) expect((await client.POST('/forms/{id}/submissions', { params: { path: { id: formId } }, body: { formData: { Name: `W${i}` } } })).response.status).toBe(201);
    const whole = await client.GET('/forms/{id}/submissions', { params: { path: { id: formId }, query: { limit: 100 } } });
    const walked: number[] = [];
    for await (const submission of walk(client, '/forms/{id}/submissions', { path: { id: formId }, query: { limit: 3 } })) walked.push(submission.id);
    expect(walked).toStrictEqual(whole.data?.data.map((submission) => submission.id));
    expect(walked.length).toBeGreaterThanOrEqual(7);
    await expect(async () => {
      for await (const _ of walk(readOnly, '/forms/{id}/submissions', { path: { id: formId } })) void _;
    }).rejects.toBeInstanceOf(WalkError);
  });
});

describe('verifyWebhook (clients/typescript)', () => {
  // It must accept exactly what the delivery job sends: that signs with this library's `sign(id, date, body)`.
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const body = JSON.stringify({ id: 'evt_1', type: 'submission.created', createdAt: '2026-11-24T10:00:00.000Z', data: { id: 1, formData: { Name: 'Zoë "Ada"' } } });
  const now = new Date('2026-11-24T10:00:00.000Z');
  const seconds = Math.floor(now.getTime() / 1000);
  const signed = new Webhook(secret).sign('msg_1', now, body);
  const headersFor = (signature: string) => ({ 'webhook-id': 'msg_1', 'webhook-timestamp': String(seconds), 'webhook-signature': signature });

  it('accepts a delivery signed the way the service signs it, also among several signatures', () => {
    expect(verifyWebhook(secret, headersFor(signed), body, seconds)).toBe(true);
    expect(verifyWebhook(secret, headersFor(`v1,${randomBytes(32).toString('base64')} ${signed}`), body, seconds)).toBe(true);
  });

  it('refuses a changed body, another secret, a changed id, a missing header', () => {
    expect(verifyWebhook(secret, headersFor(signed), body.replace('Ada', 'Eve'), seconds)).toBe(false);
    expect(verifyWebhook(`whsec_${randomBytes(32).toString('base64')}`, headersFor(signed), body, seconds)).toBe(false);
    expect(verifyWebhook(secret, { ...headersFor(signed), 'webhook-id': 'msg_2' }, body, seconds)).toBe(false);
    expect(verifyWebhook(secret, { 'webhook-id': 'msg_1', 'webhook-timestamp': String(seconds) }, body, seconds)).toBe(false);
  });

  it('refuses a delivery more than five minutes old or ahead', () => {
    expect(verifyWebhook(secret, headersFor(signed), body, seconds + 301)).toBe(false);
    expect(verifyWebhook(secret, headersFor(signed), body, seconds - 301)).toBe(false);
    expect(verifyWebhook(secret, headersFor(signed), body, seconds + 299)).toBe(true);
  });

});
