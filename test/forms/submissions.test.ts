import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ImportedAccount } from '../../src/fixtures/fixture-import.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { formFixture, seedAccount, siteFixture } from '../support/seed.js';
import { fanOutRecordedEvents } from '../webhooks/fixtures.js';

let t: TestApp;
let acme: ImportedAccount;
let key: string;

const iso = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());
beforeEach(async () => {
  await t.queue.boss.deleteAllJobs();
  await t.db.truncate();
  acme = await seedAccount(t.db, {
    sites: [siteFixture({ forms: [formFixture(), formFixture({ ref: 'other', name: 'Other' }), formFixture({ ref: 'medical', name: 'Intake', phi: true })] })],
  });
  key = acme.apiKeys.full!.key;
});

const formId = (ref = 'contact') => acme.forms[ref]!.id;
const recordedEvents = () => t.db.prisma.outboxEvent.count();
const fanout = () => ({ db: t.db, queue: t.queue, phi: t.deps.phi });
const ingest = (body: unknown, headers: Record<string, string> = {}, form = formId()) =>
  t.request('POST', `/v1/forms/${form}/submissions`, { key, body, headers });

describe('POST /v1/forms/{id}/submissions', () => {
  it('creates a submission: 201 with exactly the documented fields, counted on the form without moving its updatedAt', async () => {
    const before = await t.db.prisma.form.findUniqueOrThrow({ where: { id: formId() } });
    const res = await ingest({ formData: { Name: 'Ada', Email: 'ada@example.com' } });
    expect(res.status).toBe(201);
    expect(res.body).toStrictEqual({ id: expect.any(Number), formId: formId(), formData: { Name: 'Ada', Email: 'ada@example.com' }, sourceDomain: null, createdAt: iso });
    const after = await t.db.prisma.form.findUniqueOrThrow({ where: { id: formId() } });
    expect(after.submissionCount).toBe(1);
    expect(after.updatedAt).toEqual(before.updatedAt);
    expect((await t.request('GET', `/v1/submissions/${res.body.id}`, { key })).body).toStrictEqual(res.body);
  });

  it('enforces the formData limits: 50 keys, 51200 bytes, an object', async () => {
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v']));
    expect((await ingest({ formData: fifty })).status).toBe(201);
    const tooMany = await ingest({ formData: { ...fifty, k50: 'v' } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toStrictEqual({ error: expect.any(String), code: 'too_many_fields', cap: 50, used: 51 });
    const exact = { a: 'x'.repeat(51200 - '{"a":""}'.length) };
    expect((await ingest({ formData: exact })).status).toBe(201);
    const big = { a: 'é'.repeat(30000) };
    const tooBig = await ingest({ formData: big });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toStrictEqual({ error: expect.any(String), code: 'payload_too_large', cap: 51200, used: Buffer.byteLength(JSON.stringify(big)) });
    for (const body of [{ formData: 'text' }, { formData: [1] }, { formData: null }, {}, { formData: {}, extra: 1 }]) {
      const res = await ingest(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
    expect(await t.db.prisma.submission.count()).toBe(2);
  });

  it('answers 404 for an absent or foreign form, identically', async () => {
    const other = await seedAccount(t.db, { ref: 'other', sites: [siteFixture({ domain: 'other.example', forms: [formFixture({ ref: 'theirs' })] })] });
    const absent = await ingest({ formData: {} }, {}, 999999);
    const foreign = await ingest({ formData: {} }, {}, other.forms.theirs!.id);
    expect(absent.status).toBe(404);
    expect(absent.body).toStrictEqual({ error: 'Not found', code: 'not_found', resource: 'form' });
    expect(foreign.text).toBe(absent.text);
  });

  it('records its event with the row, which the fan-out turns into the webhook deliveries', async () => {
    await t.db.prisma.webhookSubscription.create({ data: { accountId: acme.id, url: 'https://hooks.example/in', event: 'submission.created', secret: 'whsec_x' } });
    const res = await ingest({ formData: { Name: 'Ada' } });
    expect(await recordedEvents()).toBe(1);
    await fanOutRecordedEvents(fanout());
    const deliveries = await t.db.prisma.webhookDelivery.findMany();
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ eventType: 'submission.created', accountId: acme.id });
    expect((deliveries[0]!.payload as { data: { id: number } }).data.id).toBe(res.body.id);
  });
  it('stores the row, its counter, idempotency record and event in a constant number of statements', async () => {
    await t.db.prisma.form.update({ where: { id: formId() }, data: { webhookUrl: 'https://hooks.example/form' } });
    for (let i = 0; i < 5; i++) {
      await t.db.prisma.webhookSubscription.create({ data: { accountId: acme.id, url: `https://hooks.example/${i}`, event: 'submission.created', secret: 'whsec_x' } });
    }
    // The key's first use also records lastUsedAt (at most once a minute, off the request's path): waited for, not counted.
    await t.useKeyOnce(key);
    t.db.resetQueryCount();
    const res = await ingest({ formData: { Name: 'Ada', Email: 'ada@example.com' } }, { 'Idempotency-Key': 'counted' });
    expect(res.status).toBe(201);
    // Key lookup; form + Idempotency-Key claim (reserving the id); ONE statement writing the submission, counter,
    // claim completion and event, atomic without a transaction around it. The 6 deliveries are the fan-out's.
    expect(t.db.queries, t.db.queries.map((q) => q.trim().slice(0, 40)).join(' | ')).toHaveLength(3);
    await fanOutRecordedEvents(fanout());
    const deliveries = await t.db.prisma.webhookDelivery.findMany();
    expect(deliveries).toHaveLength(6);
    for (const delivery of deliveries) expect((delivery.payload as { data: unknown }).data).toStrictEqual(res.body);
    const record = await t.db.prisma.idempotencyRecord.findFirstOrThrow({ where: { key: 'counted' } });
    expect(record.submissionId).toBe(res.body.id);
    expect(record.completedAt).not.toBeNull();
  });
  it('writes nothing when the write fails after the row (the event insert), and frees the key for a retry', async () => {
    // The outbox refuses new rows for a moment: the submission insert before it in the statement must not stay.
    await t.db.prisma.$executeRawUnsafe('ALTER TABLE "OutboxEvent" ADD CONSTRAINT "refuse_for_test" CHECK (false) NOT VALID');
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const failed = await ingest({ formData: { Name: 'Ada' } }, { 'Idempotency-Key': 'retry-me' });
    write.mockRestore();
    await t.db.prisma.$executeRawUnsafe('ALTER TABLE "OutboxEvent" DROP CONSTRAINT "refuse_for_test"');
    expect(failed.status).toBe(500);
    expect(await t.db.prisma.submission.count()).toBe(0);
    expect(await recordedEvents()).toBe(0);
    expect((await t.db.prisma.form.findUniqueOrThrow({ where: { id: formId() } })).submissionCount).toBe(0);

    const retried = await ingest({ formData: { Name: 'Ada' } }, { 'Idempotency-Key': 'retry-me' });
    expect(retried.status).toBe(201);
    expect(await t.db.prisma.submission.count()).toBe(1);
    expect(await recordedEvents()).toBe(1);
  });
});

describe('Idempotency-Key', () => {
  it('replays the original submission with 200 and Idempotent-Replayed, creating nothing new', async () => {
    const first = await ingest({ formData: { Name: 'Ada' } }, { 'Idempotency-Key': 'order-1' });
    const second = await ingest({ formData: { Name: 'Ada' } }, { 'Idempotency-Key': 'order-1' });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toStrictEqual(first.body);
    expect(await t.db.prisma.submission.count()).toBe(1);
  });

  it('answers 422 idempotency_key_reused for another body or another form with the same key', async () => {
    await ingest({ formData: { Name: 'Ada' } }, { 'Idempotency-Key': 'k' });
    const otherBody = await ingest({ formData: { Name: 'Bo' } }, { 'Idempotency-Key': 'k' });
    expect(otherBody.status).toBe(422);
    expect(otherBody.body).toStrictEqual({ error: expect.any(String), code: 'idempotency_key_reused' });
    const otherForm = await ingest({ formData: { Name: 'Ada' } }, { 'Idempotency-Key': 'k' }, formId('other'));
    expect(otherForm.status).toBe(422);
    expect(await t.db.prisma.submission.count()).toBe(1);
  });

  it('refuses keys that are empty, longer than 256 or not visible ASCII', async () => {
    expect((await ingest({ formData: {} }, { 'Idempotency-Key': 'k'.repeat(256) })).status).toBe(201);
    for (const bad of ['', 'k'.repeat(257), 'with space', 'tab\there']) {
      const res = await ingest({ formData: {} }, { 'Idempotency-Key': bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body).toStrictEqual({ error: expect.any(String), code: 'invalid_idempotency_key' });
    }
  });

  it('answers 409 with Retry-After while the first request with the key is still running', async () => {
    await t.db.prisma.idempotencyRecord.create({
      data: { accountId: acme.id, key: 'busy', fingerprint: 'x', expiresAt: new Date(Date.now() + 3_600_000) },
    });
    const res = await ingest({ formData: {} }, { 'Idempotency-Key': 'busy' });
    expect(res.status).toBe(422);
    const print = (await t.db.prisma.idempotencyRecord.findFirstOrThrow({ where: { key: 'busy' } })).fingerprint;
    expect(print).toBe('x');
    await ingest({ formData: { a: 1 } }, { 'Idempotency-Key': 'probe' });
    const probe = await t.db.prisma.idempotencyRecord.findFirstOrThrow({ where: { key: 'probe' } });
    await t.db.prisma.idempotencyRecord.create({ data: { accountId: acme.id, key: 'busy2', fingerprint: probe.fingerprint, expiresAt: probe.expiresAt } });
    const busy = await ingest({ formData: { a: 1 } }, { 'Idempotency-Key': 'busy2' });
    expect(busy.status).toBe(409);
    expect(busy.headers.get('retry-after')).toBe('1');
    expect(busy.body).toStrictEqual({ error: expect.any(String), code: 'idempotency_in_progress' });
  });

  it('creates exactly one submission for 10 concurrent identical requests', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, () => ingest({ formData: { Name: 'Ada' } }, { 'Idempotency-Key': 'burst' })));
    expect(await t.db.prisma.submission.count()).toBe(1);
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results) expect([200, 201, 409]).toContain(r.status);
    const created = results.find((r) => r.status === 201)!;
    for (const r of results.filter((x) => x.status === 200)) expect(r.body).toStrictEqual(created.body);
    expect((await t.db.prisma.form.findUniqueOrThrow({ where: { id: formId() } })).submissionCount).toBe(1);
  });

  it('on an archived form: replays a key used before archiving, answers 409 form_archived for a new key and keeps no claim', async () => {
    const first = await ingest({ formData: { Name: 'Ada' } }, { 'Idempotency-Key': 'before' });
    expect((await t.request('DELETE', `/v1/forms/${formId()}`, { key })).status).toBe(204);
    const replay = await ingest({ formData: { Name: 'Ada' } }, { 'Idempotency-Key': 'before' });
    expect(replay.status).toBe(200);
    expect(replay.body).toStrictEqual(first.body);
    const refused = await ingest({ formData: { Name: 'Bo' } }, { 'Idempotency-Key': 'after' });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('form_archived');
    expect(await t.db.prisma.idempotencyRecord.findMany({ where: { key: 'after' } })).toStrictEqual([]);
    expect(await t.db.prisma.submission.count()).toBe(1);
  });

  it('forgets a key after 24 hours', async () => {
    await ingest({ formData: { Name: 'Ada' } }, { 'Idempotency-Key': 'old' });
    await t.db.prisma.idempotencyRecord.updateMany({ data: { expiresAt: new Date(Date.now() - 1000) } });
    const again = await ingest({ formData: { Name: 'Ada' } }, { 'Idempotency-Key': 'old' });
    expect(again.status).toBe(201);
    expect(await t.db.prisma.submission.count()).toBe(2);
  });

  it('replays through GraphQL too (the key is the account’s, whatever the transport)', async () => {
    const rest = await ingest({ formData: { Name: 'Ada' } }, { 'Idempotency-Key': 'both' });
    const gql = await t.graphql(
      'mutation($f: Int!, $d: JSON!, $k: String) { ingestSubmission(formId: $f, formData: $d, idempotencyKey: $k) { replayed submission { id formId formData sourceDomain createdAt } } }',
      { f: formId(), d: { Name: 'Ada' }, k: 'both' },
      key,
    );
    expect(gql.body.data.ingestSubmission).toStrictEqual({ replayed: true, submission: rest.body });
  });
});

describe('GET /v1/forms/{id}/submissions', () => {
  it('lists newest first with the form’s exact total', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await ingest({ formData: { n: i } })).body.id);
    const res = await t.request('GET', `/v1/forms/${formId()}/submissions?limit=2`, { key });
    expect(res.body.data.map((s: { id: number }) => s.id)).toEqual([ids[2], ids[1]]);
    expect(res.body.pagination).toStrictEqual({ page: 1, limit: 2, total: 3, pages: 2 });
    const page2 = await t.request('GET', `/v1/forms/${formId()}/submissions?limit=2&page=2`, { key });
    expect(page2.body.data.map((s: { id: number }) => s.id)).toEqual([ids[0]]);
  });

  it('costs one statement after authentication, whatever the page or the number of submissions', async () => {
    for (let i = 0; i < 3; i++) await ingest({ formData: { n: i } });
    await t.useKeyOnce(key);
    for (const query of ['limit=100', 'limit=2&page=2', 'page=50']) {
      t.db.resetQueryCount();
      const res = await t.request('GET', `/v1/forms/${formId()}/submissions?${query}`, { key });
      expect(res.status).toBe(200);
      expect(res.body.pagination.total).toBe(3);
      expect(t.db.queries, query).toHaveLength(2);
    }
    const empty = await t.request('GET', `/v1/forms/${formId('other')}/submissions`, { key });
    expect(empty.body).toStrictEqual({ data: [], pagination: { page: 1, limit: 20, total: 0, pages: 0 } });
    const absent = await t.request('GET', '/v1/forms/999999/submissions', { key });
    expect(absent.body).toStrictEqual({ error: 'Not found', code: 'not_found', resource: 'form' });
  });

  it('answers an absent or foreign submission with identical 404s', async () => {
    const other = await seedAccount(t.db, { ref: 'other', sites: [siteFixture({ domain: 'other.example', forms: [formFixture({ ref: 'theirs', submissions: [{ formData: { a: 1 } }] })] })] });
    const absent = await t.request('GET', '/v1/submissions/999999', { key });
    const foreign = await t.request('GET', `/v1/submissions/${other.forms.theirs!.submissionIds[0]}`, { key });
    expect(absent.body).toStrictEqual({ error: 'Not found', code: 'not_found', resource: 'submission' });
    expect(foreign.status).toBe(404);
    expect(foreign.text).toBe(absent.text);
  });
});

describe('PHI forms', () => {
  it('audit the dashboard’s latest submissions of many PHI forms in one statement', async () => {
    const phiForms = await seedAccount(t.db, {
      ref: 'clinic',
      plan: 'business',
      sites: [siteFixture({ domain: 'clinic.example', forms: Array.from({ length: 5 }, (_, i) => formFixture({ ref: `p${i}`, phi: true, submissions: [{ formData: { n: i } }] })) })],
    });
    const clinicKey = phiForms.apiKeys.full!.key;
    await t.useKeyOnce(clinicKey);
    t.db.resetQueryCount();
    const res = await t.graphql('{ forms(limit: 100) { data { latestSubmissions { id } } } }', {}, clinicKey);
    expect(res.body.errors).toBeUndefined();
    // key lookup + the forms version (an account with a PHI form is never answered from the cache: it runs) + forms
    // page + one lateral join + one audit INSERT
    expect(t.db.queries, t.db.queries.join('\n')).toHaveLength(5);
    expect(await t.db.prisma.auditEvent.count({ where: { accountId: phiForms.id } })).toBe(5);
  });

  it('read the latest submissions’ formData only when the query shows it, and audit both reads', async () => {
    const created = await ingest({ formData: { Diagnosis: 'rare-condition-xyz' } }, {}, formId('medical'));
    const latestStatement = () => t.db.queries.find((sql) => sql.includes('inner join lateral')) ?? '';
    await t.useKeyOnce(key);
    t.db.resetQueryCount();
    const ids = await t.graphql(`{ form(id: ${formId('medical')}) { latestSubmissions { id } } }`, {}, key);
    expect(ids.body.data.form.latestSubmissions).toStrictEqual([{ id: created.body.id }]);
    expect(latestStatement()).toMatch(/^select "s"\."id", "s"\."accountId", "s"\."formId", "s"\."formDataKeyId", "s"\."createdAt" from/);
    t.db.resetQueryCount();
    const full = await t.graphql(`{ form(id: ${formId('medical')}) { latestSubmissions { id formData } } }`, {}, key);
    expect(full.body.data.form.latestSubmissions).toStrictEqual([{ id: created.body.id, formData: { Diagnosis: 'rare-condition-xyz' } }]);
    expect(latestStatement()).not.toBe('');
    expect(latestStatement()).toContain('"s"."formData", "s"."formDataCiphertext"');
    expect(await t.db.prisma.auditEvent.count({ where: { resourceId: created.body.id } })).toBe(2);
  });

  it('store formData encrypted, return it to an authorised key, and audit every read', async () => {
    const created = await ingest({ formData: { Diagnosis: 'rare-condition-xyz' } }, {}, formId('medical'));
    expect(created.status).toBe(201);
    const raw = await t.db.withSession((s) => s.query<Record<string, unknown>>('SELECT * FROM "Submission" WHERE id = $1', [created.body.id]));
    expect(JSON.stringify(raw, (_k, v) => (v instanceof Uint8Array ? Buffer.from(v).toString('latin1') : v))).not.toContain('rare-condition-xyz');
    expect(raw[0]!.formData).toBeNull();
    const read = await t.request('GET', `/v1/submissions/${created.body.id}`, { key });
    expect(read.body.formData).toStrictEqual({ Diagnosis: 'rare-condition-xyz' });
    await t.request('GET', `/v1/forms/${formId('medical')}/submissions`, { key });
    await t.graphql('{ forms { data { latestSubmissions { id } } } }', {}, key);
    const audits = await t.db.prisma.auditEvent.findMany({ orderBy: { id: 'asc' } });
    expect(audits).toHaveLength(3);
    for (const audit of audits) {
      expect(audit).toMatchObject({ accountId: acme.id, apiKeyId: acme.apiKeys.full!.id, action: 'submission.read', resource: 'submission', resourceId: created.body.id });
    }
    await t.request('GET', `/v1/forms/${formId()}/submissions`, { key });
    expect(await t.db.prisma.auditEvent.count()).toBe(3);
  });
});
