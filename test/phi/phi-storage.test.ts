import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAudit, recordSubmissionReads } from '../../src/domain/submissions/audit.service.js';
import { startJobQueue, type JobQueue } from '../../src/infra/jobs.js';
import { PhiCipher } from '../../src/infra/phi-crypto.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { createAccount, createForm, fanOutRecordedEvents, ingest } from '../webhooks/fixtures.js';

let db: TestDatabase;
let queue: JobQueue;
const cipher = new PhiCipher(randomBytes(32));

beforeAll(async () => {
  db = await createTestDatabase();
  queue = await startJobQueue({ db, databaseUrl: db.url, schedule: false });
});
afterAll(async () => {
  await queue?.stop();
  await db?.close();
});

describe('PHI at rest', () => {
  it('keeps no plaintext of a PHI submission anywhere in its row, its event, its deliveries or its jobs (read raw)', async () => {
    const account = await createAccount(db.prisma);
    const form = await createForm(db.prisma, account.id, { phi: true, webhookUrl: 'https://hooks.example.test/phi' });
    const values = { 'Full name': 'Zelda Quixote', Email: 'zelda.q@example.com', Symptoms: 'xerophthalmia' };
    const submission = await ingest(db.prisma, form, values, { cipher });
    const outbox = await db.withSession((s) => s.query<{ t: string }>(`SELECT string_agg(payload::text, '|') AS t FROM "OutboxEvent"`));
    expect(outbox[0]?.t).toContain('submission.created');
    expect(await fanOutRecordedEvents({ db, queue, phi: cipher })).toStrictEqual([{ deliveries: 1, emails: 2 }]);

    const rows = await db.withSession((s) =>
      s.query<{ formData: unknown; ciphertext: string; keyId: string }>(
        `SELECT "formData", encode("formDataCiphertext", 'escape') AS ciphertext, "formDataKeyId" AS "keyId" FROM "Submission" WHERE id = $1`,
        [submission.id],
      ),
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.formData).toBeNull();
    expect(rows[0]?.keyId).toBe(cipher.keyId);
    const dump = await db.withSession((s) =>
      s.query<{ t: string }>(
        `SELECT (SELECT string_agg(encode("formDataCiphertext", 'escape') || coalesce("formData"::text, ''), '|') FROM "Submission")
             || (SELECT coalesce(string_agg(payload::text, '|'), '') FROM "WebhookDelivery")
             || (SELECT coalesce(string_agg(data::text, '|'), '') FROM pgboss.job) AS t`,
      ),
    );
    const everything = `${outbox[0]?.t ?? ''}|${dump[0]?.t ?? ''}`;
    expect(everything.length).toBeGreaterThan(0);
    for (const needle of ['Zelda', 'Quixote', 'zelda.q', 'xerophthalmia', 'Symptoms']) expect(everything).not.toContain(needle);

    const stored = await db.prisma.submission.findUniqueOrThrow({ where: { id: submission.id } });
    expect(cipher.decrypt(stored.formDataCiphertext ?? new Uint8Array(), stored.formDataKeyId ?? '')).toStrictEqual(values);
  });
});

describe('recordAudit', () => {
  it('writes one audit event per read, and a whole list in one statement', async () => {
    const account = await createAccount(db.prisma);
    await recordAudit(db, { accountId: account.id, apiKeyId: null, action: 'submission.read', resource: 'submission', resourceId: 41 });
    db.resetQueryCount();
    await recordSubmissionReads(db, { accountId: account.id, apiKeyId: null }, [42, 43, 44]);
    expect(db.queries.filter((q) => /INSERT/i.test(q))).toHaveLength(1);
    const events = await db.prisma.auditEvent.findMany({ where: { accountId: account.id }, orderBy: { id: 'asc' } });
    expect(events.map((e) => [e.action, e.resource, e.resourceId, e.apiKeyId])).toStrictEqual([
      ['submission.read', 'submission', 41, null],
      ['submission.read', 'submission', 42, null],
      ['submission.read', 'submission', 43, null],
      ['submission.read', 'submission', 44, null],
    ]);
    db.resetQueryCount();
    await recordSubmissionReads(db, { accountId: account.id, apiKeyId: null }, []);
    expect(db.queries).toHaveLength(0);
  });
});
