import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { recordEvent } from '../../src/services/events.service.js';
import { QUEUE, startJobQueue, type JobQueue } from '../../src/services/jobs.service.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { createAccount, createForm, ingest, subscribe } from './fixtures.js';

let db: TestDatabase;
let queue: JobQueue;

beforeAll(async () => {
  db = await createTestDatabase();
  queue = await startJobQueue({ db, databaseUrl: db.url, schedule: false });
});
afterAll(async () => {
  await queue.stop();
  await db.close();
});
beforeEach(async () => {
  await queue.boss.deleteAllJobs();
  await db.truncate();
});

const queuedJobs = async (name: string) => (await queue.boss.findJobs<Record<string, unknown>>(name)).map((job) => job.data);

describe('recordEvent', () => {
  it('writes one delivery per matching subscription plus the form webhookUrl, and both emails, with their jobs', async () => {
    const account = await createAccount(db.prisma);
    const form = await createForm(db.prisma, account.id, { webhookUrl: 'https://hooks.example.test/form-hook' });
    const other = await createForm(db.prisma, account.id);
    const all = await subscribe(db.prisma, account.id, 'https://receiver.test/all');
    const mine = await subscribe(db.prisma, account.id, 'https://receiver.test/mine', 'submission.created', form.id);
    await subscribe(db.prisma, account.id, 'https://receiver.test/other-form', 'submission.created', other.id);
    await subscribe(db.prisma, account.id, 'https://receiver.test/forms', 'form.created');
    const inactive = await subscribe(db.prisma, account.id, 'https://receiver.test/inactive');
    await db.prisma.webhookSubscription.update({ where: { id: inactive.id }, data: { active: false } });

    const submission = await ingest(db.prisma, form, { 'Full name': 'Ada', Email: 'ada@example.com' });

    const deliveries = await db.prisma.webhookDelivery.findMany({ orderBy: { id: 'asc' } });
    expect(deliveries.map((d) => d.subscriptionId)).toStrictEqual([all.id, mine.id, null]);
    for (const delivery of deliveries) {
      expect(delivery).toMatchObject({ accountId: account.id, formId: form.id, eventType: 'submission.created', status: 'pending', attempts: 0 });
      expect(delivery.messageId).toMatch(/^msg_/);
      expect(JSON.stringify(delivery)).not.toContain('form-hook');
    }
    expect(new Set(deliveries.map((d) => d.messageId)).size).toBe(3);
    const payload = deliveries[0]?.payload as Record<string, unknown>;
    expect(Object.keys(payload).sort()).toStrictEqual(['createdAt', 'data', 'id', 'type']);
    expect(payload.type).toBe('submission.created');
    expect(payload.data).toStrictEqual({ ...submission });

    const deliveryJobs = await queuedJobs(QUEUE.webhookDelivery);
    expect(deliveryJobs.map((d) => d.deliveryId).sort()).toStrictEqual(deliveries.map((d) => d.id).sort());
    const emailJobs = await queuedJobs(QUEUE.emailSend);
    expect(emailJobs).toHaveLength(2);
    expect(emailJobs).toEqual(
      expect.arrayContaining([
        { kind: 'submission_confirmation', submissionId: submission.id },
        { kind: 'submission_notification', submissionId: submission.id },
      ]),
    );
  });

  it('writes nothing, not even jobs, when the transaction rolls back', async () => {
    const account = await createAccount(db.prisma);
    const form = await createForm(db.prisma, account.id, { webhookUrl: 'https://hooks.example.test/x' });
    await subscribe(db.prisma, account.id, 'https://receiver.test/all');
    await expect(ingest(db.prisma, form, { Email: 'ada@example.com' }, { fail: true })).rejects.toThrow('rolled back');
    expect(await db.prisma.webhookDelivery.count()).toBe(0);
    expect(await db.prisma.submission.count()).toBe(0);
    expect(await queuedJobs(QUEUE.webhookDelivery)).toStrictEqual([]);
    expect(await queuedJobs(QUEUE.emailSend)).toStrictEqual([]);
  });

  it('sends no confirmation without an email-typed value and no notification without an owner address', async () => {
    const account = await createAccount(db.prisma, { ownerEmail: null });
    const form = await createForm(db.prisma, account.id);
    await ingest(db.prisma, form, { 'Full name': 'Ada', Email: 'not an address' });
    expect(await queuedJobs(QUEUE.emailSend)).toStrictEqual([]);
    expect(await db.prisma.webhookDelivery.count()).toBe(0);
  });

  it('routes form events to form subscriptions only, never to the form webhookUrl', async () => {
    const account = await createAccount(db.prisma);
    const form = await createForm(db.prisma, account.id, { webhookUrl: 'https://hooks.example.test/x' });
    const formSub = await subscribe(db.prisma, account.id, 'https://receiver.test/forms', 'form.updated');
    await subscribe(db.prisma, account.id, 'https://receiver.test/subs');
    const data = { id: form.id, name: 'Contact', type: 'standard', domain: null, fields: [], createdAt: 'x', updatedAt: 'y' };
    await db.prisma.$transaction((tx) => recordEvent(tx, { type: 'form.updated', accountId: account.id, formId: form.id, data }));
    const deliveries = await db.prisma.webhookDelivery.findMany();
    expect(deliveries.map((d) => [d.subscriptionId, d.eventType])).toStrictEqual([[formSub.id, 'form.updated']]);
    expect((deliveries[0]?.payload as { data: unknown }).data).toStrictEqual(data);
    expect(await queuedJobs(QUEUE.emailSend)).toStrictEqual([]);
  });

  it('costs a constant number of SQL statements whatever the number of subscriptions', async () => {
    const account = await createAccount(db.prisma);
    const form = await createForm(db.prisma, account.id, { webhookUrl: 'https://hooks.example.test/x' });
    for (let i = 0; i < 25; i++) await subscribe(db.prisma, account.id, `https://receiver.test/${i}`);
    db.resetQueryCount();
    await ingest(db.prisma, form, { Email: 'ada@example.com' });
    const statements = db.queries.filter((q) => !/^(--|BEGIN|COMMIT|ROLLBACK)/i.test(q.trim()));
    // insert submission, update count, lookup, insert deliveries, 2 job inserts
    expect(statements).toHaveLength(6);
    expect(await db.prisma.webhookDelivery.count()).toBe(26);
  });
});
