import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ImportedAccount } from '../../src/fixtures/fixture-import.js';
import type { ErasureJob } from '../../src/domain/submissions/erasure-requests.service.js';
import { QUEUE } from '../../src/infra/jobs.js';
import { createEmailHasher, createEmailMatcher } from '../../src/infra/secrets.js';
import { randomBytes } from 'node:crypto';
import { runErasureRequest } from '../../src/worker/jobs/erasure.job.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { formFixture, seedAccount, siteFixture, TEST_SECRET_KEY } from '../support/seed.js';
import { everyStoredRow } from './support.js';

let t: TestApp;
let acme: ImportedAccount;
let key: string;

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
const ingest = async (formData: Record<string, unknown>, form = formId()) => {
  const res = await t.request('POST', `/v1/forms/${form}/submissions`, { key, body: { formData } });
  expect(res.status).toBe(201);
  return res.body.id as number;
};
const iso = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

/** What the worker does with the request's job, run here (the test app has no worker). */
async function runQueuedErasures(batchSize = 2): Promise<number> {
  const jobs = await t.queue.boss.fetch<ErasureJob>(QUEUE.erasureRun, { batchSize: 10 });
  for (const job of jobs) {
    await runErasureRequest({ db: t.db, phi: t.deps.phi, matchesEmail: createEmailMatcher(TEST_SECRET_KEY), batchSize }, job.data);
    await t.queue.boss.complete(QUEUE.erasureRun, job.id);
  }
  return jobs.length;
}

describe('POST /v1/erasure-requests', () => {
  it('answers 202 pending, then the job erases every submission holding the address (trimmed, any case, PHI included) and nothing else', async () => {
    const matching = [
      await ingest({ Name: 'Ada', Email: 'ada@example.com' }),
      await ingest({ Name: 'Ada', Contact: '  ADA@Example.COM ' }, formId('other')),
      await ingest({ Name: 'Ada Lovelace', Email: 'Ada@example.com', Diagnosis: 'analytical' }, formId('medical')),
    ];
    const kept = [
      await ingest({ Name: 'Bob', Email: 'bob@example.com' }),
      await ingest({ Name: 'ada@example.com.evil', Email: 'x-ada@example.com' }),
      await ingest({ Note: 'mail ada@example.com later' }, formId('medical')),
      await ingest({ List: ['ada@example.com'] }),
    ];

    const created = await t.request('POST', '/v1/erasure-requests', { key, body: { email: ' Ada@Example.com' } });
    expect(created.status).toBe(202);
    expect(created.body).toStrictEqual({ id: expect.any(Number), status: 'pending', submissionsErased: 0, createdAt: iso, completedAt: null });
    expect((await t.request('GET', `/v1/erasure-requests/${created.body.id}`, { key })).body).toStrictEqual(created.body);
    // The request keeps a keyed hash, never the address.
    const row = await t.db.prisma.erasureRequest.findUniqueOrThrow({ where: { id: created.body.id } });
    expect(row.emailHash).toBe(createEmailHasher(TEST_SECRET_KEY)('ada@example.com'));
    expect(JSON.stringify(row).toLowerCase()).not.toContain('ada@');

    expect(await runQueuedErasures(2)).toBe(1);
    const done = await t.request('GET', `/v1/erasure-requests/${created.body.id}`, { key });
    expect(done.body).toStrictEqual({ id: created.body.id, status: 'done', submissionsErased: 3, createdAt: created.body.createdAt, completedAt: iso });

    const left = await t.db.prisma.submission.findMany({ orderBy: { id: 'asc' }, select: { id: true } });
    expect(left.map((s) => s.id)).toStrictEqual(kept);
    for (const id of matching) expect((await t.request('GET', `/v1/submissions/${id}`, { key })).status).toBe(404);
    const counts = await t.db.prisma.form.findMany({ orderBy: { id: 'asc' }, select: { id: true, submissionCount: true } });
    expect(counts).toStrictEqual([
      { id: formId(), submissionCount: 3 },
      { id: formId('other'), submissionCount: 0 },
      { id: formId('medical'), submissionCount: 1 },
    ]);
    const audit = await t.db.prisma.auditEvent.findMany({ where: { action: 'submission.erased' }, orderBy: { resourceId: 'asc' } });
    expect(audit.map((a) => [a.resourceId, a.apiKeyId])).toStrictEqual(matching.map((id) => [id, acme.apiKeys.full!.id]));
    const events = await t.db.prisma.outboxEvent.findMany({ where: { payload: { path: ['type'], equals: 'submission.deleted' } } });
    expect(events).toHaveLength(3);
    const stored = await everyStoredRow(t.db);
    for (const needle of ['Ada Lovelace', 'ADA@Example.COM', 'analytical']) expect(stored).not.toContain(needle);
  });

  it('a job run again after it finished erases nothing more', async () => {
    await ingest({ Email: 'ada@example.com' });
    const created = await t.request('POST', '/v1/erasure-requests', { key, body: { email: 'ada@example.com' } });
    await runQueuedErasures();
    await runErasureRequest({ db: t.db, phi: t.deps.phi, matchesEmail: createEmailMatcher(TEST_SECRET_KEY), batchSize: 2 }, { requestId: created.body.id });
    expect((await t.request('GET', `/v1/erasure-requests/${created.body.id}`, { key })).body).toMatchObject({ status: 'done', submissionsErased: 1 });
    expect(await t.db.prisma.auditEvent.count({ where: { action: 'submission.erased' } })).toBe(1);
  });

  it('a request stored before a SECRET_KEY rotation is run by a rotated worker: found under SECRET_KEY_PREVIOUS', async () => {
    const id = await ingest({ Email: 'ada@example.com' });
    const created = await t.request('POST', '/v1/erasure-requests', { key, body: { email: 'ada@example.com' } });
    const next = randomBytes(32);
    // Under the new key alone the stored hash matches nothing: the request would finish having erased nothing.
    expect(createEmailMatcher(next)('ada@example.com', createEmailHasher(TEST_SECRET_KEY)('ada@example.com'))).toBe(false);
    const jobs = await t.queue.boss.fetch<ErasureJob>(QUEUE.erasureRun, { batchSize: 10 });
    expect(jobs).toHaveLength(1);
    await runErasureRequest({ db: t.db, phi: t.deps.phi, matchesEmail: createEmailMatcher(next, [TEST_SECRET_KEY]), batchSize: 2 }, jobs[0]!.data);
    expect((await t.request('GET', `/v1/erasure-requests/${created.body.id}`, { key })).body).toMatchObject({ status: 'done', submissionsErased: 1 });
    expect((await t.request('GET', `/v1/submissions/${id}`, { key })).status).toBe(404);
  });

  it('refuses what is not an address with 400 validation_failed, and creates no request', async () => {
    for (const body of [{}, { email: 'not-an-address' }, { email: 42 }, { email: 'a@b.example', extra: true }, []]) {
      const res = await t.request('POST', '/v1/erasure-requests', { key, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toStrictEqual({ error: expect.any(String), code: 'validation_failed', fields: expect.any(Array) });
    }
    expect(await t.db.prisma.erasureRequest.count()).toBe(0);
  });

  it('needs write:submissions; another account’s request reads as an absent one', async () => {
    const reader = await seedAccount(t.db, { ref: 'r', name: 'R', apiKeys: [{ ref: 'full', scopes: ['read:submissions'] }], sites: [] });
    const forbidden = await t.request('POST', '/v1/erasure-requests', { key: reader.apiKeys.full!.key, body: { email: 'a@b.example' } });
    expect(forbidden.status).toBe(403);
    const created = await t.request('POST', '/v1/erasure-requests', { key, body: { email: 'a@b.example' } });
    const other = await seedAccount(t.db, { ref: 'o', name: 'O', sites: [] });
    const foreign = await t.request('GET', `/v1/erasure-requests/${created.body.id}`, { key: other.apiKeys.full!.key });
    const absent = await t.request('GET', '/v1/erasure-requests/999999', { key: other.apiKeys.full!.key });
    expect(foreign.status).toBe(404);
    expect(foreign.text).toBe(absent.text);
    expect(foreign.body).toStrictEqual({ error: 'Not found', code: 'not_found', resource: 'erasure_request' });
  });
});
