import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ImportedAccount } from '../../src/fixtures/fixture-import.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { accountFixture, seed, seedAccount, siteFixture } from '../support/seed.js';

let t: TestApp;
let acme: ImportedAccount;
let key: string;

const iso = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const fields = [
  { id: 'name', type: 'text', label: 'Name' },
  { id: 'email', type: 'email', label: 'Email' },
];

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());
beforeEach(async () => {
  await t.db.truncate();
  acme = await seedAccount(t.db);
  key = acme.apiKeys.full!.key;
});

const siteId = () => acme.sites.main!.id;
const formId = () => acme.forms.contact!.id;

describe('GET /v1/forms', () => {
  it('lists active forms newest first with exactly the documented fields', async () => {
    const res = await t.request('GET', '/v1/forms', { key });
    expect(res.status).toBe(200);
    expect(res.body).toStrictEqual({
      data: [
        { id: formId(), name: 'Contact', type: 'standard', domain: { id: siteId(), domain: 'acme.example' }, submissionCount: 0, createdAt: iso, updatedAt: iso },
      ],
      pagination: { page: 1, limit: 20, total: 1, pages: 1 },
    });
  });

  it('orders by createdAt desc, then id desc, and narrows by domainId', async () => {
    await seed(t.db, {
      accounts: [
        accountFixture({
          ref: 'multi',
          apiKeys: [{ ref: 'k', scopes: ['read:forms'] }],
          sites: [
            siteFixture({ ref: 'a', domain: 'a.example', forms: [
              { ref: 'old', name: 'Old', fields, createdAt: '2026-01-01T00:00:00.000Z' },
              { ref: 'new', name: 'New', fields, createdAt: '2026-03-01T00:00:00.000Z' },
            ] }),
            siteFixture({ ref: 'b', domain: 'b.example', forms: [{ ref: 'mid', name: 'Mid', fields, createdAt: '2026-02-01T00:00:00.000Z' }] }),
          ],
        }),
      ],
    }).then(async (result) => {
      const multi = result.accounts.multi!;
      const all = await t.request('GET', '/v1/forms', { key: multi.apiKeys.k!.key });
      expect(all.body.data.map((f: { name: string }) => f.name)).toEqual(['New', 'Mid', 'Old']);
      const narrowed = await t.request('GET', `/v1/forms?domainId=${multi.sites.b!.id}`, { key: multi.apiKeys.k!.key });
      expect(narrowed.body.data.map((f: { name: string }) => f.name)).toEqual(['Mid']);
      const foreign = await t.request('GET', `/v1/forms?domainId=${siteId()}`, { key: multi.apiKeys.k!.key });
      expect(foreign.body).toStrictEqual({ data: [], pagination: { page: 1, limit: 20, total: 0, pages: 0 } });
    });
  });

  it('refuses a domainId that is not a canonical positive integer', async () => {
    for (const bad of ['0', '-1', '01', 'abc', '1.5', '1e3', '2147483648']) {
      const res = await t.request('GET', `/v1/forms?domainId=${bad}`, { key });
      expect(res.status, bad).toBe(400);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.fields[0].field).toBe('domainId');
    }
  });
});

describe('GET /v1/forms/{id}', () => {
  it('returns the form with its fields and without submissionCount', async () => {
    const res = await t.request('GET', `/v1/forms/${formId()}`, { key });
    expect(res.status).toBe(200);
    expect(res.body).toStrictEqual({
      id: formId(), name: 'Contact', type: 'standard', domain: { id: siteId(), domain: 'acme.example' }, fields, createdAt: iso, updatedAt: iso,
    });
  });

  it('answers an absent form and another account’s form with byte-identical 404s', async () => {
    const other = await seedAccount(t.db, { ref: 'other', sites: [siteFixture({ domain: 'other.example', forms: [{ ref: 'theirs', name: 'Theirs', fields }] })] });
    const absent = await t.request('GET', '/v1/forms/999999', { key });
    const foreign = await t.request('GET', `/v1/forms/${other.forms.theirs!.id}`, { key });
    expect(absent.status).toBe(404);
    expect(absent.body).toStrictEqual({ error: 'Not found', code: 'not_found', resource: 'form' });
    expect(foreign.status).toBe(404);
    expect(foreign.text).toBe(absent.text);
  });

  it('refuses malformed ids with 400 invalid_id', async () => {
    for (const bad of ['0', '01', '+1', '1e3', '1.0', 'abc', '2147483648', '-5']) {
      const res = await t.request('GET', `/v1/forms/${encodeURIComponent(bad)}`, { key });
      expect(res.status, bad).toBe(400);
      expect(res.body).toStrictEqual({ error: expect.any(String), code: 'invalid_id' });
    }
  });
});

describe('POST /v1/forms', () => {
  it('creates a form on the only verified domain: 201, Location, the form with fields', async () => {
    const res = await t.request('POST', '/v1/forms', { key, body: { name: 'Signup', fields: [{ type: 'email', label: 'Email', required: true }] } });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`/v1/forms/${res.body.id}`);
    expect(res.body).toStrictEqual({
      id: expect.any(Number), name: 'Signup', type: 'standard', domain: { id: siteId(), domain: 'acme.example' },
      fields: [{ id: expect.stringMatching(/^f_[0-9a-f]{12}$/), type: 'email', label: 'Email', required: true }],
      createdAt: iso, updatedAt: iso,
    });
    const read = await t.request('GET', `/v1/forms/${res.body.id}`, { key });
    expect(read.body).toStrictEqual(res.body);
  });

  it('never returns webhookUrl, and refuses one that is not absolute https', async () => {
    const ok = await t.request('POST', '/v1/forms', { key, body: { name: 'Hooked', fields, webhookUrl: 'https://hooks.example/secret-path' } });
    expect(ok.status).toBe(201);
    expect(ok.text).not.toContain('hooks.example');
    const stored = await t.db.prisma.form.findUniqueOrThrow({ where: { id: ok.body.id } });
    expect(stored.webhookUrl).toBe('https://hooks.example/secret-path');
    const bad = await t.request('POST', '/v1/forms', { key, body: { name: 'Hooked', fields, webhookUrl: 'http://hooks.example/x' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toStrictEqual({ error: expect.any(String), code: 'validation_failed', fields: [{ field: 'webhookUrl', message: expect.any(String) }] });
  });

  it('validates the body with validation_failed and fields', async () => {
    const cases: [unknown, string][] = [
      [{ fields }, 'name'],
      [{ name: '', fields }, 'name'],
      [{ name: 'x' }, 'fields'],
      [{ name: 'x', fields: [] }, 'fields'],
      [{ name: 'x', fields: [{ type: 'bogus', label: 'L' }] }, 'fields.0.type'],
      [{ name: 'x', fields, type: 'wizard' }, 'type'],
      [{ name: 123, fields }, 'name'],
      [{ name: 'x', fields, domainId: '1' }, 'domainId'],
    ];
    for (const [body, field] of cases) {
      const res = await t.request('POST', '/v1/forms', { key, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    expect(await t.db.prisma.form.count()).toBe(1);
  });

  it('answers malformed JSON with invalid_json and a non-object body with validation_failed', async () => {
    const broken = await t.request('POST', '/v1/forms', { key, body: '{"name": ' });
    expect(broken.status).toBe(400);
    expect(broken.body).toStrictEqual({ error: expect.any(String), code: 'invalid_json' });
    const array = await t.request('POST', '/v1/forms', { key, body: '[1,2]' });
    expect(array.status).toBe(400);
    expect(array.body.code).toBe('validation_failed');
  });

  it('requires a domain choice when several verified production domains exist, listing candidates', async () => {
    const second = await t.db.prisma.site.create({
      data: { accountId: acme.id, hostname: 'second.example', siteKeyHash: 'x'.repeat(64), verificationToken: 't'.repeat(32), verified: true, method: 'dns_txt' },
    });
    await t.db.prisma.site.create({
      data: { accountId: acme.id, hostname: 'staging.example', environment: 'staging', siteKeyHash: 'y'.repeat(64), verificationToken: 't'.repeat(32), verified: true },
    });
    const res = await t.request('POST', '/v1/forms', { key, body: { name: 'x', fields } });
    expect(res.status).toBe(400);
    expect(res.body).toStrictEqual({
      error: expect.any(String), code: 'domain_required',
      candidates: [{ id: siteId(), domain: 'acme.example' }, { id: second.id, domain: 'second.example' }],
    });
    const chosen = await t.request('POST', '/v1/forms', { key, body: { name: 'x', fields, domainId: second.id } });
    expect(chosen.status).toBe(201);
    expect(chosen.body.domain).toStrictEqual({ id: second.id, domain: 'second.example' });
  });

  it('answers domain_required with no candidates when no verified production domain exists', async () => {
    await t.db.prisma.site.updateMany({ data: { verified: false } });
    const res = await t.request('POST', '/v1/forms', { key, body: { name: 'x', fields } });
    expect(res.status).toBe(400);
    expect(res.body).toStrictEqual({ error: expect.any(String), code: 'domain_required', candidates: [] });
  });

  it('refuses a domainId that is not a verified production domain of the account', async () => {
    const other = await seedAccount(t.db, { ref: 'other', sites: [siteFixture({ domain: 'other.example' })] });
    const res = await t.request('POST', '/v1/forms', { key, body: { name: 'x', fields, domainId: other.sites.main!.id } });
    expect(res.status).toBe(400);
    expect(res.body).toStrictEqual({ error: expect.any(String), code: 'invalid_domain', domainId: other.sites.main!.id });
  });

  it('stops at the plan cap with plan_limit_reached carrying cap, used and domainId', async () => {
    await t.db.prisma.account.update({ where: { id: acme.id }, data: { plan: 'starter' } });
    for (let i = 0; i < 2; i++) expect((await t.request('POST', '/v1/forms', { key, body: { name: `f${i}`, fields } })).status).toBe(201);
    const res = await t.request('POST', '/v1/forms', { key, body: { name: 'one too many', fields } });
    expect(res.status).toBe(402);
    expect(res.body).toStrictEqual({ error: expect.any(String), code: 'plan_limit_reached', cap: 3, used: 3, domainId: siteId() });
    expect(await t.db.prisma.form.count()).toBe(3);
  });

  it('creates exactly up to the cap under concurrent requests', async () => {
    await t.db.prisma.account.update({ where: { id: acme.id }, data: { plan: 'starter' } });
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => t.request('POST', '/v1/forms', { key, body: { name: `c${i}`, fields } })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(2);
    expect(results.filter((r) => r.status === 402)).toHaveLength(4);
  });
});

describe('PATCH /v1/forms/{id}', () => {
  it('changes name and fields and answers the updated form', async () => {
    const res = await t.request('PATCH', `/v1/forms/${formId()}`, { key, body: { name: 'Renamed', fields: [{ id: 'msg', type: 'textarea', label: 'Message' }] } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: formId(), name: 'Renamed', fields: [{ id: 'msg', type: 'textarea', label: 'Message' }] });
  });

  it('refuses forbidden fields by name, unknown ones as validation_failed, and empty fields', async () => {
    const forbidden = await t.request('PATCH', `/v1/forms/${formId()}`, { key, body: { name: 'x', domainId: 3, id: 9 } });
    expect(forbidden.status).toBe(400);
    expect(forbidden.body).toStrictEqual({ error: expect.any(String), code: 'forbidden_field', fields: ['domainId', 'id'] });
    const unknown = await t.request('PATCH', `/v1/forms/${formId()}`, { key, body: { colour: 'red' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('validation_failed');
    const empty = await t.request('PATCH', `/v1/forms/${formId()}`, { key, body: { fields: [] } });
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe('validation_failed');
    const form = await t.db.prisma.form.findUniqueOrThrow({ where: { id: formId() } });
    expect(form.name).toBe('Contact');
  });

  it('answers an empty body 400 invalid_json, writing nothing and emitting no form.updated (a lost body is no change)', async () => {
    const before = await t.db.prisma.form.findUniqueOrThrow({ where: { id: formId() }, select: { updatedAt: true } });
    const events = await t.db.prisma.outboxEvent.count();
    for (const headers of [{}, { 'content-type': 'application/json' }] as Record<string, string>[]) {
      const res = await t.request('PATCH', `/v1/forms/${formId()}`, { key, headers });
      expect([res.status, res.body.code]).toStrictEqual([400, 'invalid_json']);
    }
    expect(await t.db.prisma.form.findUniqueOrThrow({ where: { id: formId() }, select: { updatedAt: true } })).toStrictEqual(before);
    expect(await t.db.prisma.outboxEvent.count()).toBe(events);
  });

  it('archives with archived:true (200) and restores with archived:false', async () => {
    const archived = await t.request('PATCH', `/v1/forms/${formId()}`, { key, body: { archived: true } });
    expect(archived.status).toBe(200);
    expect((await t.request('GET', `/v1/forms/${formId()}`, { key })).status).toBe(404);
    const restored = await t.request('PATCH', `/v1/forms/${formId()}`, { key, body: { archived: false } });
    expect(restored.status).toBe(200);
    expect((await t.request('GET', `/v1/forms/${formId()}`, { key })).status).toBe(200);
  });

  it('refuses a restore when the site is full', async () => {
    await t.db.prisma.account.update({ where: { id: acme.id }, data: { plan: 'starter' } });
    await t.request('DELETE', `/v1/forms/${formId()}`, { key });
    for (let i = 0; i < 3; i++) expect((await t.request('POST', '/v1/forms', { key, body: { name: `f${i}`, fields } })).status).toBe(201);
    const res = await t.request('PATCH', `/v1/forms/${formId()}`, { key, body: { archived: false } });
    expect(res.status).toBe(402);
    expect(res.body).toStrictEqual({ error: expect.any(String), code: 'plan_limit_reached', cap: 3, used: 3, domainId: siteId() });
  });
});

describe('DELETE /v1/forms/{id}', () => {
  it('archives: 204 with an empty body, the form leaves the list and its submissions stay readable', async () => {
    const ingested = await t.request('POST', `/v1/forms/${formId()}/submissions`, { key, body: { formData: { Name: 'Ada' } } });
    const res = await t.request('DELETE', `/v1/forms/${formId()}`, { key });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await t.request('GET', '/v1/forms', { key })).body.data).toEqual([]);
    const archivedList = await t.request('GET', '/v1/forms?archived=true', { key });
    expect(archivedList.body.data.map((f: { id: number }) => f.id)).toEqual([formId()]);
    expect((await t.request('GET', `/v1/submissions/${ingested.body.id}`, { key })).status).toBe(200);
    expect((await t.request('GET', `/v1/forms/${formId()}/submissions`, { key })).body.pagination.total).toBe(1);
    const ingest = await t.request('POST', `/v1/forms/${formId()}/submissions`, { key, body: { formData: { Name: 'Bo' } } });
    expect(ingest.status).toBe(409);
    expect(ingest.body).toStrictEqual({ error: expect.any(String), code: 'form_archived' });
  });
});

describe('GET /v1/forms SQL cost', () => {
  it('lists 100 forms with counts and domains in one statement after authentication', async () => {
    const many = await seed(t.db, {
      accounts: [accountFixture({
        ref: 'big',
        plan: 'business',
        sites: [
          siteFixture({ ref: 'a', domain: 'a.example', forms: Array.from({ length: 60 }, (_, i) => ({ ref: `a${i}`, name: `A${i}`, fields, submissions: [{ formData: { Name: 'x' } }] })) }),
          siteFixture({ ref: 'b', domain: 'b.example', forms: Array.from({ length: 60 }, (_, i) => ({ ref: `b${i}`, name: `B${i}`, fields })) }),
        ],
      })],
    });
    const bigKey = many.accounts.big!.apiKeys.full!.key;
    await t.useKeyOnce(bigKey);
    t.db.resetQueryCount();
    const res = await t.request('GET', '/v1/forms?limit=100', { key: bigKey });
    expect(res.body.data).toHaveLength(100);
    expect(res.body.pagination).toStrictEqual({ page: 1, limit: 100, total: 120, pages: 2 });
    // The key lookup, then one statement for the page, its domains and the total.
    expect(t.db.queries, t.db.queries.join("\n")).toHaveLength(2);
  });
});
