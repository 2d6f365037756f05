import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fanOutEvent, type EventFanoutDeps } from '../../src/worker/jobs/event-fanout.job.js';
import { derivedJobId, EMAIL_JOB_SUBMISSIONS, messageIdFor, recordEvent, type EventJob } from '../../src/domain/webhooks/events.service.js';
import { QUEUE } from '../../src/infra/jobs.js';
import { PhiCipher } from '../../src/infra/phi-crypto.js';
import { createAccount, createForm, fanOutRecordedEvents, ingest, subscribe, useQueueDatabase } from './fixtures.js';

const cipher = new PhiCipher(randomBytes(32));
const env = useQueueDatabase();
const deps = (): EventFanoutDeps => ({ db: env.db, queue: env.queue, phi: cipher });

/** Each job continues the trace of its event's fan-out (job-runs.ts). */
const TRACED = expect.stringMatching(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
const queuedJobs = async (name: string) => (await env.queue.boss.findJobs<Record<string, unknown>>(name)).map((job) => job.data);
/** The one recorded event, as the relay takes it off the outbox (and queues it when its fan-out fails there). */
const queuedEvent = async (): Promise<EventJob> => {
  const [row] = await env.db.prisma.outboxEvent.findMany({ where: { relayedAt: null } });
  if (!row) throw new Error('no event recorded');
  return { accountId: row.accountId, formId: row.formId, payload: row.payload as unknown as EventJob['payload'] };
};

describe('event fan-out', () => {
  it('writes one delivery per matching subscription plus the form webhookUrl, and both emails, with their jobs', async () => {
    const account = await createAccount(env.db.prisma);
    const form = await createForm(env.db.prisma, account.id, { webhookUrl: 'https://hooks.example.test/form-hook' });
    const other = await createForm(env.db.prisma, account.id);
    const all = await subscribe(env.db.prisma, account.id, 'https://receiver.test/all');
    const mine = await subscribe(env.db.prisma, account.id, 'https://receiver.test/mine', 'submission.created', form.id);
    await subscribe(env.db.prisma, account.id, 'https://receiver.test/other-form', 'submission.created', other.id);
    await subscribe(env.db.prisma, account.id, 'https://receiver.test/forms', 'form.created');
    const inactive = await subscribe(env.db.prisma, account.id, 'https://receiver.test/inactive');
    await env.db.prisma.webhookSubscription.update({ where: { id: inactive.id }, data: { active: false } });

    const submission = await ingest(env.db.prisma, form, { 'Full name': 'Ada', Email: 'ada@example.com' });
    const event = await queuedEvent();
    expect(await fanOutRecordedEvents(deps())).toStrictEqual([{ deliveries: 3, emails: 2 }]);

    const deliveries = await env.db.prisma.webhookDelivery.findMany({ orderBy: { id: 'asc' } });
    expect(deliveries.map((d) => d.subscriptionId)).toStrictEqual([all.id, mine.id, null]);
    expect(deliveries.map((d) => d.messageId)).toStrictEqual([all.id, mine.id, null].map((id) => messageIdFor(event.payload.id, id)));
    for (const delivery of deliveries) {
      expect(delivery).toMatchObject({ accountId: account.id, formId: form.id, eventType: 'submission.created', status: 'pending', attempts: 0 });
      expect(delivery.messageId).toMatch(/^msg_[A-Za-z0-9_-]{22}$/);
      expect(delivery.payload).toStrictEqual(event.payload);
      expect(JSON.stringify(delivery)).not.toContain('form-hook');
    }
    expect(new Set(deliveries.map((d) => d.messageId)).size).toBe(3);
    expect((deliveries[0]?.payload as { data: unknown }).data).toStrictEqual({ ...submission });

    const deliveryJobs = await queuedJobs(QUEUE.webhookDelivery);
    expect(deliveryJobs.map((d) => d.deliveryId).sort()).toStrictEqual(deliveries.map((d) => d.id).sort());
    // Both emails of the submission in ONE job (a job fewer to insert, fetch and complete per ingest).
    expect(await queuedJobs(QUEUE.emailSend)).toEqual([
      { kind: 'submission_emails', items: [{ submissionId: submission.id, kinds: ['submission_confirmation', 'submission_notification'], traceparent: TRACED }] },
    ]);
    const [emailJob] = await env.queue.boss.findJobs<{ items: { traceparent: string }[] }>(QUEUE.emailSend);
    expect(emailJob?.id).toBe(derivedJobId(event.payload.id, 'submission_emails'));
    // One event, one fan-out span: every job it caused carries it.
    const traces = [...deliveryJobs.map((job) => job.traceparent), emailJob?.data.items[0]?.traceparent];
    expect(new Set(traces).size).toBe(1);
  });

  it("puts the emails of a pass's submissions in jobs of up to EMAIL_JOB_SUBMISSIONS, each submission with its own trace", async () => {
    const account = await createAccount(env.db.prisma);
    const form = await createForm(env.db.prisma, account.id);
    const submissions = [];
    for (let i = 0; i < EMAIL_JOB_SUBMISSIONS + 2; i++) submissions.push(await ingest(env.db.prisma, form, { Email: `p${i}@example.com` }));
    const events = await env.db.prisma.outboxEvent.findMany({ where: { relayedAt: null }, orderBy: { id: 'asc' } });
    expect(await fanOutRecordedEvents(deps())).toStrictEqual([{ deliveries: 0, emails: 2 * submissions.length }]);
    const jobs = (await env.queue.boss.findJobs<{ kind: string; items: { submissionId: number; traceparent: string }[] }>(QUEUE.emailSend)).sort((a, b) => b.data.items.length - a.data.items.length);
    expect(jobs.map((job) => job.data.items.map((item) => item.submissionId))).toStrictEqual([
      submissions.slice(0, EMAIL_JOB_SUBMISSIONS).map(({ id }) => id),
      submissions.slice(EMAIL_JOB_SUBMISSIONS).map(({ id }) => id),
    ]);
    const eventIds = events.map((event) => (event.payload as { id: string }).id);
    expect(jobs.map((job) => job.id)).toStrictEqual([
      derivedJobId(eventIds.slice(0, EMAIL_JOB_SUBMISSIONS).join(','), 'submission_emails'),
      derivedJobId(eventIds.slice(EMAIL_JOB_SUBMISSIONS).join(','), 'submission_emails'),
    ]);
    // Each event's fan-out span, one per submission; nothing traced at the job's level.
    const traces = jobs.flatMap((job) => job.data.items.map((item) => item.traceparent));
    expect(traces).toStrictEqual(submissions.map(() => TRACED));
    expect(new Set(traces.map((traceparent) => traceparent.split('-')[1])).size).toBe(submissions.length);
    for (const job of jobs) expect(Object.keys(job.data).sort()).toStrictEqual(['items', 'kind']);
  });

  it('run twice (a worker died before marking it done), it writes nothing more', async () => {
    const account = await createAccount(env.db.prisma);
    const form = await createForm(env.db.prisma, account.id, { webhookUrl: 'https://hooks.example.test/x' });
    await subscribe(env.db.prisma, account.id, 'https://receiver.test/all');
    await ingest(env.db.prisma, form, { Email: 'ada@example.com' });
    const event = await queuedEvent();
    expect(await fanOutEvent(deps(), event)).toMatchObject({ deliveries: 2 });
    expect(await fanOutEvent(deps(), event)).toMatchObject({ deliveries: 0 });
    expect(await env.db.prisma.webhookDelivery.count()).toBe(2);
    expect(await queuedJobs(QUEUE.webhookDelivery)).toHaveLength(2);
    expect(await queuedJobs(QUEUE.emailSend)).toHaveLength(1);
  });

  it('finds the confirmation recipient of a PHI submission by decrypting it, and sends ids only', async () => {
    const account = await createAccount(env.db.prisma, { ownerEmail: null });
    const form = await createForm(env.db.prisma, account.id, { phi: true, webhookUrl: 'https://hooks.example.test/phi' });
    const submission = await ingest(env.db.prisma, form, { 'Full name': 'Zelda', Email: 'zelda@example.com' }, { cipher });
    await fanOutRecordedEvents(deps());
    expect(await queuedJobs(QUEUE.emailSend)).toStrictEqual([{ kind: 'submission_emails', items: [{ submissionId: submission.id, kinds: ['submission_confirmation'], traceparent: TRACED }] }]);
    const [delivery] = await env.db.prisma.webhookDelivery.findMany();
    expect((delivery?.payload as { data: unknown }).data).toStrictEqual({ id: submission.id, formId: form.id, createdAt: submission.createdAt });
  });

  it('sends no confirmation without an email-typed value and no notification without an owner address', async () => {
    const account = await createAccount(env.db.prisma, { ownerEmail: null });
    const form = await createForm(env.db.prisma, account.id);
    await ingest(env.db.prisma, form, { 'Full name': 'Ada', Email: 'not an address' });
    expect(await fanOutRecordedEvents(deps())).toStrictEqual([{ deliveries: 0, emails: 0 }]);
    expect(await queuedJobs(QUEUE.emailSend)).toStrictEqual([]);
    expect(await env.db.prisma.webhookDelivery.count()).toBe(0);
  });

  it('routes form events to form subscriptions only, never to the form webhookUrl, with no emails', async () => {
    const account = await createAccount(env.db.prisma);
    const form = await createForm(env.db.prisma, account.id, { webhookUrl: 'https://hooks.example.test/x' });
    const formSub = await subscribe(env.db.prisma, account.id, 'https://receiver.test/forms', 'form.updated');
    await subscribe(env.db.prisma, account.id, 'https://receiver.test/subs');
    const data = { id: form.id, name: 'Contact', type: 'standard', domain: null, fields: [], createdAt: 'x', updatedAt: 'y' };
    await env.db.prisma.$transaction((tx) => recordEvent(tx, { type: 'form.updated', accountId: account.id, formId: form.id, phi: false, data }));
    await fanOutRecordedEvents(deps());
    const deliveries = await env.db.prisma.webhookDelivery.findMany();
    expect(deliveries.map((d) => [d.subscriptionId, d.eventType])).toStrictEqual([[formSub.id, 'form.updated']]);
    expect((deliveries[0]?.payload as { data: unknown }).data).toStrictEqual(data);
    expect(await queuedJobs(QUEUE.emailSend)).toStrictEqual([]);
  });

  it('reaches the subscriptions that existed at the event and are still active, not later ones', async () => {
    const account = await createAccount(env.db.prisma, { ownerEmail: null });
    const form = await createForm(env.db.prisma, account.id);
    const kept = await subscribe(env.db.prisma, account.id, 'https://receiver.test/kept');
    const deactivated = await subscribe(env.db.prisma, account.id, 'https://receiver.test/deactivated');
    await ingest(env.db.prisma, form, { 'Full name': 'Ada' });
    await env.db.prisma.webhookSubscription.update({ where: { id: deactivated.id }, data: { active: false } });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await subscribe(env.db.prisma, account.id, 'https://receiver.test/later');
    await fanOutRecordedEvents(deps());
    expect((await env.db.prisma.webhookDelivery.findMany()).map((d) => d.subscriptionId)).toStrictEqual([kept.id]);
  });

  it('costs a constant number of SQL statements whatever the number of subscriptions', async () => {
    const account = await createAccount(env.db.prisma);
    const form = await createForm(env.db.prisma, account.id, { webhookUrl: 'https://hooks.example.test/x' });
    for (let i = 0; i < 25; i++) await subscribe(env.db.prisma, account.id, `https://receiver.test/${i}`);
    await ingest(env.db.prisma, form, { Email: 'ada@example.com' });
    const event = await queuedEvent();
    env.db.resetQueryCount();
    expect(await fanOutEvent(deps(), event)).toStrictEqual({ deliveries: 26, emails: 2 });
    const statements = env.db.queries.filter((q) => !/^(--|BEGIN|COMMIT|ROLLBACK)/i.test(q.trim()));
    // targets (form, owner, subscriptions, submission), insert deliveries, delivery jobs, email jobs
    expect(statements, statements.join('\n')).toHaveLength(4);
  });
});
