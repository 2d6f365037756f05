import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ImportedAccount } from '../../src/fixtures/fixture-import.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { seedAccount } from '../support/seed.js';

/**
 * Webhook targets checked at the door (decisions §6.5 last row, issue 15 item 4): the outbound-fetch rules that
 * need no DNS refuse a URL at creation, PATCH, and as a form's webhookUrl; a hostname is checked when resolved.
 */

let t: TestApp;
let acme: ImportedAccount;
let key: string;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());
beforeEach(async () => {
  await t.db.truncate();
  acme = await seedAccount(t.db);
  key = acme.apiKeys.full!.key;
});

const REFUSED = [
  'http://hooks.example.test/in',
  'https://hooks.example.test:8443/in',
  'https://hooks.example.test:80/in',
  'https://user:pass@hooks.example.test/in',
  'https://token@hooks.example.test/in',
  'https://127.0.0.1/in',
  'https://10.1.2.3/in',
  'https://192.168.0.10/in',
  'https://169.254.169.254/latest/meta-data',
  'https://[::1]/in',
  'https://[::ffff:127.0.0.1]/in',
  'https://[fd00::1]/in',
  'https://0.0.0.0/in',
  'https://2130706433/in',
];
const ACCEPTED = ['https://hooks.example.test/in', 'https://hooks.example.test:443/in', 'https://localhost/in', 'https://93.184.216.34/in'];

const refusal = { error: expect.any(String), code: 'validation_failed', fields: [{ field: 'url', message: expect.any(String) }] };

describe('POST /v1/webhooks', () => {
  it.each(REFUSED)('refuses %s with 400 validation_failed, without echoing it', async (url) => {
    const res = await t.request('POST', '/v1/webhooks', { key, body: { url, event: 'submission.created' } });
    expect(res.status).toBe(400);
    expect(res.body).toStrictEqual(refusal);
    expect(res.text).not.toContain(url);
    expect(await t.db.prisma.webhookSubscription.count()).toBe(0);
  });

  it.each(ACCEPTED)('accepts %s (a hostname is checked when it is resolved, at delivery)', async (url) => {
    const res = await t.request('POST', '/v1/webhooks', { key, body: { url, event: 'submission.created' } });
    expect(res.status).toBe(201);
  });
});

describe("a form's webhookUrl", () => {
  const fields = [{ id: 'name', type: 'text', label: 'Name' }];
  it.each(REFUSED)('refuses %s on create and on PATCH', async (webhookUrl) => {
    const created = await t.request('POST', '/v1/forms', { key, body: { name: 'Hooked', fields, webhookUrl } });
    expect(created.status).toBe(400);
    expect(created.body).toStrictEqual({ ...refusal, fields: [{ field: 'webhookUrl', message: expect.any(String) }] });
    const patched = await t.request('PATCH', `/v1/forms/${acme.forms.contact!.id}`, { key, body: { webhookUrl } });
    expect(patched.status).toBe(400);
    expect(patched.body.code).toBe('validation_failed');
    expect((await t.db.prisma.form.findUniqueOrThrow({ where: { id: acme.forms.contact!.id } })).webhookUrl).toBeNull();
  });
});
