import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.js';
import { randomUUID } from 'node:crypto';
import { createEmailJobHandler, createEmailSender, EMAILS_IN_FLIGHT, renderSubmissionEmail, type EmailSender } from '../../src/worker/jobs/email.job.js';
import { derivedJobId, type EmailJob, type SubmissionEmailKind } from '../../src/domain/webhooks/events.service.js';
import { deadLetterOf, QUEUE } from '../../src/infra/jobs.js';
import { PhiCipher } from '../../src/infra/phi-crypto.js';
import { startWorker, type RunningWorker } from '../../src/worker/start-worker.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { createAccount, createForm, ingest } from '../webhooks/fixtures.js';
import { recordingSender, testConfig, waitFor } from '../webhooks/support.js';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A local SMTP sink on 127.0.0.1: real SMTP, no TLS, no auth. */
async function startSmtpSink(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  return { url: `smtp://127.0.0.1:${port}`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Quoted-printable soft breaks and escapes undone, so assertions see the text as written. */
const decoded = (raw: string): string => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

describe('ingest emails over SMTP', () => {
  let db: TestDatabase;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let config: Config;
  let worker: RunningWorker;

  beforeAll(async () => {
    db = await createTestDatabase();
    smtp = await startSmtpSink();
    config = testConfig({ databaseUrl: db.url, smtpUrl: smtp.url });
    worker = await startWorker({ config, db, pollingIntervalSeconds: 0.5 });
  });
  afterAll(async () => {
    await worker?.stop();
    await smtp?.close();
    await db?.close();
  });
  beforeEach(async () => {
    smtp.received.length = 0;
    await db.truncate();
  });

  it('sends the confirmation to the first email-typed value and the notification to the owner, text and HTML', async () => {
    const account = await createAccount(db.prisma);
    const form = await createForm(db.prisma, account.id, {
      fields: [
        { id: 'n', type: 'text', label: 'Name' },
        { id: 'work', type: 'email', label: 'Work email' },
        { id: 'home', type: 'email', label: 'Home email' },
      ],
    });
    const submission = await ingest(db.prisma, form, { Name: 'Ada <b>', 'Work email': 'ada@work.example', 'Home email': 'ada@home.example' });
    const mails = await waitFor(async () => (smtp.received.length >= 2 ? smtp.received : null));
    expect(mails.flatMap((m) => m.to).sort()).toStrictEqual(['ada@work.example', 'owner@acme.example']);
    for (const mail of mails) {
      expect(mail.raw).toMatch(/Content-Type: multipart\/alternative/);
      expect(mail.raw).toMatch(/Content-Type: text\/plain/);
      expect(mail.raw).toMatch(/Content-Type: text\/html/);
      expect(mail.raw).toContain(`Message-ID: <submission-${submission.id}-`);
      const body = decoded(mail.raw);
      expect(body).toContain('Ada <b>');
      expect(body).toContain('Ada &lt;b&gt;');
    }
  });

  it('reads the submissions of the emails begun together (one fetch) in one statement, each rendered from its own', async () => {
    const account = await createAccount(db.prisma);
    const form = await createForm(db.prisma, account.id, { fields: [{ id: 'e', type: 'email', label: 'Email' }] });
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await ingest(db.prisma, form, { Email: `p${i}@example.com` })).id);
    // The running worker sends them first; the handler is then run by hand, its statements counted.
    await waitFor(async () => (smtp.received.length >= 6 ? true : null));
    const sender = recordingSender();
    const handler = createEmailJobHandler({ db, sender, config, queue: worker.queue });
    db.resetQueryCount();
    // A job of two submissions, and the shapes an earlier release queued (a rolling deploy): a job of one submission's
    // both kinds, and two jobs of one kind each.
    await Promise.all([
      handler({ kind: 'submission_emails', items: [0, 1].map((i) => ({ submissionId: ids[i]!, kinds: ['submission_confirmation', 'submission_notification'] })) }),
      handler({ kind: 'submission_emails', submissionId: ids[2]!, kinds: ['submission_confirmation'] }),
      handler({ kind: 'submission_notification', submissionId: ids[2]! }),
    ]);
    expect(db.queries.filter((q) => q.includes('from "Submission" as "s"'))).toHaveLength(1);
    expect(sender.sent.map((email) => [email.to, email.messageId]).sort()).toStrictEqual(
      ids
        .flatMap((id, i) => [
          [`p${i}@example.com`, `<submission-${id}-submission_confirmation@widgets-gateway>`],
          ['owner@acme.example', `<submission-${id}-submission_notification@widgets-gateway>`],
        ])
        .sort(),
    );
    // One at a time, each reads its own (an erased submission's email is not sent).
    await db.prisma.submission.delete({ where: { id: ids[0]! } });
    sender.sent.length = 0;
    await handler({ kind: 'submission_emails', items: [0, 1].map((i) => ({ submissionId: ids[i]!, kinds: ['submission_notification'] })) });
    await handler({ kind: 'submission_notification', submissionId: ids[0]! });
    expect(sender.sent.map((email) => email.messageId)).toStrictEqual([`<submission-${ids[1]}-submission_notification@widgets-gateway>`]);
  });

  it('sends the emails of every job at once, EMAILS_IN_FLIGHT at most in the process', async () => {
    const account = await createAccount(db.prisma);
    const form = await createForm(db.prisma, account.id, { fields: [{ id: 'e', type: 'email', label: 'Email' }] });
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) ids.push((await ingest(db.prisma, form, { Email: `q${i}@example.com` })).id);
    await waitFor(async () => (smtp.received.length >= 24 ? true : null));
    let inFlight = 0;
    let most = 0;
    const sent: string[] = [];
    const slow: EmailSender = {
      async send(email) {
        most = Math.max(most, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, 50));
        inFlight--;
        sent.push(email.messageId);
      },
      close() {},
    };
    const handler = createEmailJobHandler({ db, sender: slow, config, queue: worker.queue });
    const kinds: SubmissionEmailKind[] = ['submission_confirmation', 'submission_notification'];
    // Two jobs of six submissions each: 24 messages, sent together but never more than the bound.
    await Promise.all([ids.slice(0, 6), ids.slice(6)].map((part) => handler({ kind: 'submission_emails', items: part.map((submissionId) => ({ submissionId, kinds })) })));
    expect(sent).toHaveLength(24);
    expect(most).toBe(EMAILS_IN_FLIGHT);
  });

  it('sends each email of a job once: the emails that fail go on as one job of their own, those sent are not sent again', async () => {
    const account = await createAccount(db.prisma);
    const form = await createForm(db.prisma, account.id, { fields: [{ id: 'e', type: 'email', label: 'Email' }] });
    const ada = await ingest(db.prisma, form, { Email: 'ada@example.com' });
    const bob = await ingest(db.prisma, form, { Email: 'bob@example.com' });
    await waitFor(async () => (smtp.received.length >= 4 ? true : null));
    const messageId = (submissionId: number, kind: string) => `<submission-${submissionId}-${kind}@widgets-gateway>`;
    // The mail server refuses the messages in `refusing`, each once.
    const refusing = new Set<string>();
    const sent: string[] = [];
    const sender: EmailSender = {
      async send(email) {
        if (refusing.delete(email.messageId)) throw new Error('451 4.3.0 try again later');
        sent.push(email.messageId);
      },
      close() {},
    };
    // Left-over jobs wait the queue's retry delay (30 s): the running worker leaves them to this test.
    const handler = createEmailJobHandler({ db, sender, config, queue: worker.queue });
    const job = { id: randomUUID(), retryCount: 0 };
    const kinds: SubmissionEmailKind[] = ['submission_confirmation', 'submission_notification'];
    const both: EmailJob = { kind: 'submission_emails', items: [ada, bob].map(({ id }) => ({ submissionId: id, kinds })) };
    const leftovers = async (which: string) => (await worker.queue.boss.findJobs<EmailJob>(QUEUE.emailSend, { id: derivedJobId(`job-${job.id}`, which) })).map((row) => row.data);

    refusing.add(messageId(ada.id, 'submission_notification'));
    await handler(both, job);
    expect(sent.sort()).toStrictEqual([messageId(ada.id, 'submission_confirmation'), messageId(bob.id, 'submission_confirmation'), messageId(bob.id, 'submission_notification')].sort());
    expect(await leftovers(`${ada.id}:submission_notification`)).toStrictEqual([{ kind: 'submission_emails', items: [{ submissionId: ada.id, kinds: ['submission_notification'] }] }]);
    // Run again (its worker died before its completion was written): the same left-over job, which pg-boss skips;
    // when other emails fail that time, a job of those too (nothing is lost; what was sent may be sent again).
    refusing.add(messageId(ada.id, 'submission_notification'));
    await handler(both, job);
    expect(await leftovers(`${ada.id}:submission_notification`)).toHaveLength(1);
    refusing.add(messageId(bob.id, 'submission_confirmation'));
    await handler(both, job);
    expect(await leftovers(`${bob.id}:submission_confirmation`)).toStrictEqual([{ kind: 'submission_emails', items: [{ submissionId: bob.id, kinds: ['submission_confirmation'] }] }]);
    // The left-over job and its retries send the notification alone.
    sent.length = 0;
    const [leftover] = await leftovers(`${ada.id}:submission_notification`);
    refusing.add(messageId(ada.id, 'submission_notification'));
    await expect(handler(leftover!)).rejects.toThrow('451');
    await handler(leftover!);
    expect(sent).toStrictEqual([messageId(ada.id, 'submission_notification')]);
  });

  it("gives a left-over kind what is left of its job's retries, backing off from where they are; after the last try, the dead letter", async () => {
    const account = await createAccount(db.prisma);
    const form = await createForm(db.prisma, account.id, { fields: [{ id: 'e', type: 'email', label: 'Email' }] });
    const submission = await ingest(db.prisma, form, { Email: 'ada@example.com' });
    await waitFor(async () => (smtp.received.length >= 2 ? true : null));
    // The mail server refuses every notification and takes every confirmation.
    const sender: EmailSender = {
      async send(email) {
        if (email.messageId.endsWith('-submission_notification@widgets-gateway>')) throw new Error('451 4.3.0 try again later');
      },
      close() {},
    };
    const handler = createEmailJobHandler({ db, sender, config, queue: worker.queue });
    const both: EmailJob = { kind: 'submission_emails', items: [{ submissionId: submission.id, kinds: ['submission_confirmation', 'submission_notification'] }] };
    const leftoverIn = async (queue: string, job: { id: string }) =>
      worker.queue.boss.findJobs<EmailJob>(queue, { id: derivedJobId(`job-${job.id}`, `${submission.id}:submission_notification`) });
    const notification: EmailJob = { kind: 'submission_emails', items: [{ submissionId: submission.id, kinds: ['submission_notification'] }] };

    // The job's third try (retryCount 2) of `email.send`'s 1 + 8: the kind has 5 retries left, the next after
    // 30 s × 2² × [1, 2), then backing off from 30 s × 2³ as the job's fourth try would have.
    const third = { id: randomUUID(), retryCount: 2 };
    const before = Date.now();
    await handler(both, third);
    const [leftover] = await leftoverIn(QUEUE.emailSend, third);
    expect(leftover && { data: leftover.data, retryLimit: leftover.retryLimit, retryDelay: leftover.retryDelay, retryBackoff: leftover.retryBackoff }).toStrictEqual({
      data: notification,
      retryLimit: 5,
      retryDelay: 240,
      retryBackoff: true,
    });
    const wait = leftover!.startAfter.getTime() - before;
    expect(wait).toBeGreaterThanOrEqual(120_000);
    expect(wait).toBeLessThan(241_000);

    // Its last try (retryCount 8): no retry left, so the kind goes where the job would have gone, the dead letter.
    const last = { id: randomUUID(), retryCount: 8 };
    await handler(both, last);
    expect(await leftoverIn(QUEUE.emailSend, last)).toStrictEqual([]);
    expect((await leftoverIn(deadLetterOf(QUEUE.emailSend), last)).map((job) => job.data)).toStrictEqual([notification]);
  });

  it('fails a job whose every email failed, queueing nothing: its retry sends them all', async () => {
    const account = await createAccount(db.prisma);
    const form = await createForm(db.prisma, account.id, { fields: [{ id: 'e', type: 'email', label: 'Email' }] });
    const submissions = [await ingest(db.prisma, form, { Email: 'ada@example.com' }), await ingest(db.prisma, form, { Email: 'bob@example.com' })];
    await waitFor(async () => (smtp.received.length >= 4 ? true : null));
    const refusing: EmailSender = {
      async send() {
        throw new Error('421 4.3.2 service not available');
      },
      close() {},
    };
    const job = { id: randomUUID(), retryCount: 0 };
    const handler = createEmailJobHandler({ db, sender: refusing, config, queue: worker.queue });
    const items = submissions.map(({ id }) => ({ submissionId: id, kinds: ['submission_confirmation', 'submission_notification'] as SubmissionEmailKind[] }));
    const emailJobs = async () => (await db.prisma.$queryRaw<{ jobs: number }[]>`SELECT count(*)::int AS jobs FROM pgboss.job WHERE name LIKE 'email.send%'`)[0]!.jobs;
    const before = await emailJobs();
    await expect(handler({ kind: 'submission_emails', items }, job)).rejects.toThrow('421');
    expect(await emailJobs()).toBe(before);
  });

  it('sends PHI emails with ids and links only', async () => {
    const account = await createAccount(db.prisma);
    const form = await createForm(db.prisma, account.id, { phi: true, name: 'Cardiology intake' });
    const cipher = new PhiCipher(config.secretKey);
    const submission = await ingest(db.prisma, form, { 'Full name': 'Grace Hopper', Email: 'grace@example.com', Symptoms: 'chest pain' }, { cipher });
    const mails = await waitFor(async () => (smtp.received.length >= 2 ? smtp.received : null));
    expect(mails.flatMap((m) => m.to).sort()).toStrictEqual(['grace@example.com', 'owner@acme.example']);
    for (const mail of mails) {
      const body = decoded(mail.raw);
      for (const value of ['Grace', 'Hopper', 'chest pain', 'Symptoms', 'Full name', 'Cardiology']) expect(body).not.toContain(value);
      expect(body).toContain(`#${submission.id}`);
    }
    const owner = decoded(mails.find((m) => m.to.includes('owner@acme.example'))?.raw ?? '');
    expect(owner).toContain(`/v1/submissions/${submission.id}`);
  });
});

describe('the file outbox without SMTP_URL', () => {
  it('writes each message as an .eml file under DATA_DIR/outbox', async () => {
    const config = testConfig({ databaseUrl: null });
    const sender = createEmailSender(config);
    await sender.send({ to: 'ada@example.com', subject: 'Hello', text: 'plain body\n', html: '<p>html body</p>', messageId: '<m1@widgets-gateway>' });
    const outbox = join(config.dataDir, 'outbox');
    const files = readdirSync(outbox);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const raw = readFileSync(join(outbox, files[0] ?? ''), 'utf8');
    expect(raw).toContain('To: ada@example.com');
    expect(raw).toContain('Subject: Hello');
    expect(raw).toContain('plain body');
    expect(raw).toContain('<p>html body</p>');
  });

  it('writes concurrent messages each to its own file, and makes the folder again when it was removed', async () => {
    const config = testConfig({ databaseUrl: null });
    const sender = createEmailSender(config);
    const message = (n: number) => ({ to: `user${n}@example.com`, subject: `Hello ${n}`, text: `body ${n}\n`, html: `<p>${n}</p>`, messageId: `<m${n}@widgets-gateway>` });
    await Promise.all([1, 2, 3, 4, 5].map((n) => sender.send(message(n))));
    const outbox = join(config.dataDir, 'outbox');
    expect(readdirSync(outbox)).toHaveLength(5);
    rmSync(outbox, { recursive: true });
    await sender.send(message(6));
    const files = readdirSync(outbox);
    expect(files).toHaveLength(1);
    expect(readFileSync(join(outbox, files[0] ?? ''), 'utf8')).toContain('To: user6@example.com');
  });
});

describe('renderSubmissionEmail', () => {
  const base = {
    submissionId: 7,
    formId: 3,
    formName: 'Contact',
    phi: false,
    formData: { Name: 'Ada', Mail: 'ada@example.com' },
    fields: [
      { id: 'n', type: 'text', label: 'Name' },
      { id: 'm', type: 'email', label: 'Mail' },
    ],
    ownerEmail: 'owner@acme.example',
    apiBaseUrl: 'http://127.0.0.1:4000/v1',
  };

  it('gives no confirmation without an email-typed value, and no notification without an owner', () => {
    expect(renderSubmissionEmail({ ...base, kind: 'submission_confirmation', formData: { Name: 'Ada' } })).toBeNull();
    expect(renderSubmissionEmail({ ...base, kind: 'submission_confirmation', formData: { Mail: 'x\r\nBcc: evil@example.com' } })).toBeNull();
    expect(renderSubmissionEmail({ ...base, kind: 'submission_notification', ownerEmail: null })).toBeNull();
  });

  it('lists the values for a non-PHI form', () => {
    const email = renderSubmissionEmail({ ...base, kind: 'submission_notification' });
    expect(email?.to).toBe('owner@acme.example');
    expect(email?.text).toContain('Name: Ada');
    expect(email?.text).toContain('http://127.0.0.1:4000/v1/submissions/7');
  });
});
