import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ImportedAccount } from '../../src/fixtures/fixture-import.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { formFixture, seedAccount, siteFixture } from '../support/seed.js';
import { fanOutRecordedEvents, subscribe } from '../webhooks/fixtures.js';
import { waitFor } from '../webhooks/support.js';
import { relayEvents } from '../../src/worker/jobs/event-relay.js';
import { hasPostgres } from '../support/database.js';
import { everyStoredRow } from './support.js';

let t: TestApp;
let acme: ImportedAccount;
let key: string;
let readOnlyKey: string;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());
beforeEach(async () => {
  await t.queue.boss.deleteAllJobs();
  await t.db.truncate();
  acme = await seedAccount(t.db, {
    apiKeys: [
      { ref: 'full', scopes: ['read:forms', 'read:submissions', 'write:submissions'] },
      { ref: 'reader', scopes: ['read:forms', 'read:submissions'] },
    ],
    sites: [siteFixture({ forms: [formFixture(), formFixture({ ref: 'medical', name: 'Intake', phi: true })] })],
  });
  key = acme.apiKeys.full!.key;
  readOnlyKey = acme.apiKeys.reader!.key;
});

const formId = (ref = 'contact') => acme.forms[ref]!.id;
const fanout = () => fanOutRecordedEvents({ db: t.db, queue: t.queue, phi: t.deps.phi });
const ingest = async (formData: Record<string, unknown>, headers: Record<string, string> = {}, form = formId()) => {
  const res = await t.request('POST', `/v1/forms/${form}/submissions`, { key, body: { formData }, headers });
  expect(res.status).toBe(201);
  return res.body as { id: number; formId: number; createdAt: string };
};
const submissionCount = async (form = formId()) => (await t.db.prisma.form.findUniqueOrThrow({ where: { id: form } })).submissionCount;

describe('DELETE /v1/submissions/{id}', () => {
  it('changes the conditional-GET tags of the forms list and of the submissions list', async () => {
    const erased = await ingest({ Name: 'Ada' });
    const forms = await t.request('GET', '/v1/forms', { key });
    const submissions = await t.request('GET', `/v1/forms/${formId()}/submissions`, { key });
    const revalidate = (path: string, etag: string) => t.request('GET', path, { key, headers: { 'if-none-match': etag } });
    expect((await revalidate('/v1/forms', forms.headers.get('etag')!)).status).toBe(304);
    expect((await t.request('DELETE', `/v1/submissions/${erased.id}`, { key })).status).toBe(204);
    const formsAfter = await revalidate('/v1/forms', forms.headers.get('etag')!);
    expect(formsAfter.status).toBe(200);
    expect(formsAfter.body.data.find((form: { id: number }) => form.id === formId()).submissionCount).toBe(0);
    expect((await revalidate(`/v1/forms/${formId()}/submissions`, submissions.headers.get('etag')!)).status).toBe(200);
  });

  it('answers 204; the submission then answers 404 and is gone from the list, its total and submissionCount', async () => {
    const kept = await ingest({ Name: 'Kept', Email: 'kept@example.com' });
    const erased = await ingest({ Name: 'Gone', Email: 'gone@example.com' });
    expect(await submissionCount()).toBe(2);

    const res = await t.request('DELETE', `/v1/submissions/${erased.id}`, { key });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(res.headers.get('x-ratelimit-remaining')).not.toBeNull();

    const read = await t.request('GET', `/v1/submissions/${erased.id}`, { key });
    expect(read.status).toBe(404);
    expect(read.body).toStrictEqual({ error: 'Not found', code: 'not_found', resource: 'submission' });
    const list = await t.request('GET', `/v1/forms/${formId()}/submissions`, { key });
    expect(list.body.data.map((s: { id: number }) => s.id)).toStrictEqual([kept.id]);
    expect(list.body.pagination).toStrictEqual({ page: 1, limit: 20, total: 1, pages: 1 });
    const forms = await t.request('GET', '/v1/forms', { key });
    expect(forms.body.data.find((f: { id: number }) => f.id === formId()).submissionCount).toBe(1);
    expect(await submissionCount()).toBe(1);

    const again = await t.request('DELETE', `/v1/submissions/${erased.id}`, { key });
    expect(again.status).toBe(404);
    expect(again.body).toStrictEqual({ error: 'Not found', code: 'not_found', resource: 'submission' });
  });

  it('leaves its formData in no table: submission, idempotency record, outbox, deliveries, event jobs (PHI ciphertext included)', async () => {
    await subscribe(t.db.prisma, acme.id, 'https://hooks.example.test/created');
    await t.db.prisma.form.update({ where: { id: formId() }, data: { webhookUrl: 'https://hooks.example.test/form' } });
    // One fanned out (deliveries, a completed event job), one still in the outbox, one PHI row.
    const delivered = await ingest({ Name: 'Quentin Zylberstein', Email: 'qz-delivered@example.com' }, { 'Idempotency-Key': 'erase-me-1' });
    await fanout();
    expect(await t.db.prisma.webhookDelivery.count()).toBe(2);
    const pending = await ingest({ Name: 'Xaviera Pendergast', Email: 'xp-pending@example.com' }, { 'Idempotency-Key': 'erase-me-2' });
    const phi = await ingest({ Name: 'Wilhelmina Phibbs', Diagnosis: 'vorticellosis' }, {}, formId('medical'));
    const before = await everyStoredRow(t.db);
    for (const needle of ['Quentin Zylberstein', 'qz-delivered@example.com', 'Xaviera Pendergast']) expect(before).toContain(needle);

    for (const id of [delivered.id, pending.id, phi.id]) expect((await t.request('DELETE', `/v1/submissions/${id}`, { key })).status).toBe(204);

    const after = await everyStoredRow(t.db);
    for (const needle of ['Quentin', 'Zylberstein', 'qz-delivered', 'Xaviera', 'Pendergast', 'xp-pending', 'Wilhelmina', 'vorticellosis']) {
      expect(after).not.toContain(needle);
    }
    expect(await t.db.prisma.submission.count()).toBe(0);
    // The records stay (replays answer 404) but no longer hash the erased body.
    const records = await t.db.prisma.idempotencyRecord.findMany({ orderBy: { id: 'asc' } });
    expect(records.map((r) => [r.key, r.fingerprint, r.submissionId])).toStrictEqual([
      ['erase-me-1', 'erased', delivered.id],
      ['erase-me-2', 'erased', pending.id],
    ]);
    // The kept deliveries and outbox event keep the thin shape a PHI payload has.
    const deliveries = await t.db.prisma.webhookDelivery.findMany();
    for (const delivery of deliveries) {
      expect((delivery.payload as { data: unknown }).data).toStrictEqual({ id: delivered.id, formId: formId(), createdAt: delivered.createdAt });
    }
  });

  it('records submission.deleted with data { id, formId, deletedAt } and one audit row (ids and key only)', async () => {
    const erased = await ingest({ Name: 'Ada', Email: 'ada@example.com' });
    await t.db.prisma.outboxEvent.deleteMany();
    expect((await t.request('DELETE', `/v1/submissions/${erased.id}`, { key })).status).toBe(204);

    const events = await t.db.prisma.outboxEvent.findMany();
    expect(events).toHaveLength(1);
    const payload = events[0]!.payload as Record<string, unknown>;
    expect(payload).toStrictEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'submission.deleted',
      createdAt: expect.any(String),
      data: { id: erased.id, formId: formId(), deletedAt: payload.createdAt },
    });
    expect(events[0]).toMatchObject({ accountId: acme.id, formId: formId() });

    const audit = await t.db.prisma.auditEvent.findMany({ where: { action: 'submission.erased' } });
    expect(audit.map(({ accountId, apiKeyId, action, resource, resourceId, formId: form }) => ({ accountId, apiKeyId, action, resource, resourceId, formId: form }))).toStrictEqual([
      { accountId: acme.id, apiKeyId: acme.apiKeys.full!.id, action: 'submission.erased', resource: 'submission', resourceId: erased.id, formId: formId() },
    ]);
  });

  it('leaves the event history (GET /v1/events) telling of it without its formData, relayed events included', async () => {
    const erased = await ingest({ Name: 'Gone', Email: 'gone@example.com' });
    await fanout(); // the submission.created event is relayed: now it is history, not waiting in the outbox
    expect((await t.request('DELETE', `/v1/submissions/${erased.id}`, { key })).status).toBe(204);
    const events = await t.request('GET', '/v1/events', { key: readOnlyKey });
    expect(events.status).toBe(200);
    const told = (events.body.data as { type: string; data: Record<string, unknown> }[]).filter((event) => event.data.id === erased.id);
    expect(told.map((event) => event.type)).toStrictEqual(['submission.deleted', 'submission.created']);
    expect(told[1]!.data).toStrictEqual({ id: erased.id, formId: erased.formId, createdAt: erased.createdAt });
    expect(JSON.stringify(events.body)).not.toContain('gone@example.com');
  });

  it('a replay of the erased submission’s Idempotency-Key answers 404 and creates nothing', async () => {
    const body = { formData: { Name: 'Ada', Email: 'ada@example.com' } };
    const first = await t.request('POST', `/v1/forms/${formId()}/submissions`, { key, body, headers: { 'Idempotency-Key': 'order-42' } });
    expect(first.status).toBe(201);
    expect((await t.request('DELETE', `/v1/submissions/${first.body.id}`, { key })).status).toBe(204);
    const events = await t.db.prisma.outboxEvent.count();

    for (const replayBody of [body, { formData: { Name: 'Someone else' } }]) {
      const replay = await t.request('POST', `/v1/forms/${formId()}/submissions`, { key, body: replayBody, headers: { 'Idempotency-Key': 'order-42' } });
      expect(replay.status).toBe(404);
      expect(replay.body).toStrictEqual({ error: 'Not found', code: 'not_found', resource: 'submission' });
    }
    const graphql = await t.graphql('mutation($f: Int!) { ingestSubmission(formId: $f, formData: {Name: "Ada"}, idempotencyKey: "order-42") { replayed } }', { f: formId() }, key);
    expect(graphql.body.errors[0].extensions).toMatchObject({ code: 'not_found', resource: 'submission' });
    expect(await t.db.prisma.submission.count()).toBe(0);
    expect(await submissionCount()).toBe(0);
    expect(await t.db.prisma.outboxEvent.count()).toBe(events);
  });

  it('another account’s submission answers the same bytes as an absent one, and is left alone', async () => {
    const other = await seedAccount(t.db, { ref: 'other', name: 'Other', sites: [siteFixture({ ref: 'o', domain: 'other.example', forms: [formFixture({ ref: 'theirs' })] })] });
    const theirs = await t.request('POST', `/v1/forms/${other.forms.theirs!.id}/submissions`, { key: other.apiKeys.full!.key, body: { formData: { Name: 'Theirs' } } });
    expect(theirs.status).toBe(201);
    const foreign = await t.request('DELETE', `/v1/submissions/${theirs.body.id}`, { key });
    const absent = await t.request('DELETE', '/v1/submissions/999999', { key });
    expect(foreign.status).toBe(404);
    expect(foreign.text).toBe(absent.text);
    expect(await t.db.prisma.submission.count()).toBe(1);
  });

  it('needs write:submissions (403 before the lookup) and a canonical id', async () => {
    const erased = await ingest({ Name: 'Ada' });
    const forbidden = await t.request('DELETE', `/v1/submissions/${erased.id}`, { key: readOnlyKey });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toStrictEqual({ error: 'Insufficient scope', code: 'insufficient_scope', required: 'write:submissions' });
    expect((await t.request('DELETE', '/v1/submissions/01', { key })).body.code).toBe('invalid_id');
    expect(await t.db.prisma.submission.count()).toBe(1);
  });

  it('an event fanned out after the erasure delivers and emails nothing', async () => {
    await subscribe(t.db.prisma, acme.id, 'https://hooks.example.test/created');
    const erased = await ingest({ Name: 'Ada', Email: 'ada@example.com' });
    expect((await t.request('DELETE', `/v1/submissions/${erased.id}`, { key })).status).toBe(204);
    const results = await fanout();
    // One batch of both events: submission.created of the erased row, nothing; submission.deleted, no subscriber for it here.
    expect(results).toStrictEqual([{ deliveries: 0, emails: 0 }]);
    expect((await t.db.prisma.outboxEvent.findMany({ orderBy: { id: 'asc' } })).map((e) => [e.type, e.relayedAt !== null])).toStrictEqual([
      ['submission.created', true],
      ['submission.deleted', true],
    ]);
  });

  it('submission.deleted reaches its subscribers (subscribing needs read:submissions)', async () => {
    const created = await t.request('POST', '/v1/webhooks', { key: readOnlyKey, body: { url: 'https://hooks.example.test/deleted', event: 'submission.deleted' } });
    expect(created.status).toBe(201);
    const erased = await ingest({ Name: 'Ada' });
    await fanout();
    expect((await t.request('DELETE', `/v1/submissions/${erased.id}`, { key })).status).toBe(204);
    await fanout();
    const deliveries = await t.db.prisma.webhookDelivery.findMany({ where: { eventType: 'submission.deleted' } });
    expect(deliveries).toHaveLength(1);
    expect((deliveries[0]!.payload as { data: unknown }).data).toStrictEqual({ id: erased.id, formId: formId(), deletedAt: expect.any(String) });
  });
});

describe.runIf(hasPostgres)('an erasure racing the relay (PostgreSQL)', () => {
  /** Backends of this database waiting for a lock. */
  const waitingOnLocks = async (client: pg.Client) =>
    Number((await client.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)).rows[0].n);

  it('erases a submission whose event the relay is fanning out: no deadlock, 204, and the data is delivered to no one', async () => {
    await subscribe(t.db.prisma, acme.id, 'https://hooks.example.test/race');
    const erased = await ingest({ Name: 'Ada', Email: 'ada@example.com' });
    // A blocker holds the form's row: the erasure's statement, which updates the form's counter, waits on it while
    // holding what it took before; the relay then runs against that state.
    const blocker = new pg.Client({ connectionString: t.db.url! });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query(`SELECT 1 FROM "Form" WHERE "id" = $1 FOR UPDATE`, [formId()]);
      const deleted = t.request('DELETE', `/v1/submissions/${erased.id}`, { key });
      await waitFor(async () => ((await waitingOnLocks(blocker)) === 1 ? true : null), 10_000, 'the erasure waiting on the form');
      let relayDone = false;
      const relayed = relayEvents({ db: t.db, queue: t.queue, phi: t.deps.phi }).finally(() => (relayDone = true));
      // The relay either finishes (the event is the erasure's, locked, and skipped) or waits behind the erasure.
      await waitFor(async () => (relayDone || (await waitingOnLocks(blocker)) === 2 ? true : null), 10_000, 'the relay finished or waiting');
      await blocker.query('COMMIT');
      expect((await deleted).status).toBe(204);
      expect((await relayed).queued).toBe(0);
    } finally {
      await blocker.end();
    }
    await fanout();
    const deliveries = await t.db.prisma.webhookDelivery.findMany();
    expect(JSON.stringify(deliveries)).not.toContain('ada@example.com');
    expect(await t.queue.boss.findJobs('email.send')).toStrictEqual([]);
  });
});
