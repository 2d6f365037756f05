import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { InferResult } from 'kysely';
import nodemailer, { type Transporter } from 'nodemailer';
import pLimit from 'p-limit';
import type { Config } from '../../config.js';
import type { Database } from '../../infra/db.js';
import { sql, sqlBuilder } from '../../infra/sql.js';
import type { Job } from 'pg-boss';
import { confirmationRecipient, derivedJobId, type EmailJob, type SubmissionEmailKind, type SubmissionEmails } from '../../domain/webhooks/events.service.js';
import { QUEUE, type JobQueue } from '../../infra/jobs.js';
import { errorKind, logger } from '../../infra/log.js';
import type { PhiCipher } from '../../infra/phi-crypto.js';
import type { OutgoingEmail } from './outgoing-email.js';
import { sendDeactivationEmail } from './webhook-deactivated.email.js';
import { createPhiCipher } from '../../infra/keyring.js';
import { rowsById } from '../../infra/rows-by-id.js';

/**
 * Ingest emails (contract §4 "emails"): a confirmation to the first email-typed value of formData and a
 * notification to the account owner, plain text + HTML, sent by the `email.send` job (never inline in a
 * request). SMTP through `SMTP_URL`; without it each message is written as an `.eml` file under
 * `DATA_DIR/outbox`. A PHI form's emails carry ids and links only (contract §5 "PHI payloads").
 */

export const DEFAULT_FROM = 'Widgets <no-reply@widgets-gateway.localhost>';

export interface EmailSender {
  send(email: OutgoingEmail): Promise<void>;
  close(): void;
}

export interface EmailSenderOptions {
  from?: string;
}

/** SMTP when `smtpUrl` is set, else the file outbox. */
export function createEmailSender(config: Pick<Config, 'smtpUrl' | 'dataDir'>, options: EmailSenderOptions = {}): EmailSender {
  const from = options.from ?? DEFAULT_FROM;
  if (config.smtpUrl) {
    const transport: Transporter = nodemailer.createTransport(config.smtpUrl);
    return {
      async send(email) {
        await transport.sendMail({ from, ...email });
      },
      close: () => transport.close(),
    };
  }
  const outbox = join(config.dataDir, 'outbox');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  // Asynchronous, off the event loop: the synchronous writes were ~10 % of a worker's CPU at 300 ingests/s (its
  // open() calls alone 8 %), time the deliveries beside them waited for.
  return {
    async send(email) {
      const info = await transport.sendMail({ from, ...email });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      await mkdir(outbox, { recursive: true });
      await writeFile(join(outbox, name), info.message as Buffer, { mode: 0o600 });
    },
    close: () => transport.close(),
  };
}

const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const display = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value) ?? '');

function page(title: string, paragraphs: string[], rows: [string, string][] = []): string {
  const table = rows.length
    ? `<table cellpadding="4">${rows.map(([k, v]) => `<tr><th align="left">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join('')}</table>`
    : '';
  return `<!doctype html><html><body><h1>${escapeHtml(title)}</h1>${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('')}${table}</body></html>`;
}

const text = (paragraphs: string[], rows: [string, string][] = []): string =>
  [...paragraphs, ...(rows.length ? ['', ...rows.map(([k, v]) => `${k}: ${v}`)] : [])].join('\n') + '\n';

export interface SubmissionEmailInput {
  kind: SubmissionEmailKind;
  submissionId: number;
  formId: number;
  formName: string;
  phi: boolean;
  /** Plain form data (decrypted for PHI forms: used only to find the confirmation's recipient). */
  formData: Record<string, unknown>;
  fields: unknown;
  ownerEmail: string | null;
  /** `http://HOST:PORT/v1`, for links. */
  apiBaseUrl: string;
}

/** Renders one ingest email; null when it has no recipient. Pure (unit-tested). */
export function renderSubmissionEmail(input: SubmissionEmailInput): OutgoingEmail | null {
  const messageId = `<submission-${input.submissionId}-${input.kind}@widgets-gateway>`;
  const link = `${input.apiBaseUrl}/submissions/${input.submissionId}`;
  // PHI: ids and links only; no field values, no labels, not even the form's name.
  const rows: [string, string][] = input.phi ? [] : Object.entries(input.formData).map(([k, v]) => [k, display(v)]);
  if (input.kind === 'submission_confirmation') {
    const to = confirmationRecipient(input.fields, input.formData);
    if (!to) return null;
    const subject = input.phi ? `Submission #${input.submissionId} received` : `We received your submission to ${input.formName}`;
    const lines = input.phi
      ? [`Your submission #${input.submissionId} (form #${input.formId}) was received.`]
      : [`Thank you: your submission to ${input.formName} was received.`, 'A copy of what you sent:'];
    return { to, subject, text: text(lines, rows), html: page(subject, lines, rows), messageId };
  }
  if (!input.ownerEmail) return null;
  const subject = input.phi ? `New submission #${input.submissionId} (form #${input.formId})` : `New submission to ${input.formName}`;
  const lines = input.phi
    ? [`Form #${input.formId} received submission #${input.submissionId}.`, `Read it with an authorised API key: GET ${link}`]
    : [`${input.formName} (form #${input.formId}) received submission #${input.submissionId}.`, `API: GET ${link}`];
  return { to: input.ownerEmail, subject, text: text(lines, rows), html: page(subject, lines, rows), messageId };
}

/**
 * Messages being sent at once per worker process, every job's together: each is an SMTP connection of its own unless
 * SMTP_URL pools them, and mail servers limit a client's connections. 20 is what 10 jobs of one submission's two
 * emails sent at once before a job held a relay pass's submissions.
 */
export const EMAILS_IN_FLIGHT = 20;

export interface EmailJobDeps {
  db: Database;
  sender: EmailSender;
  config: Pick<Config, 'secretKey' | 'previousSecretKeys' | 'host' | 'port'>;
  /** Where the emails left over from a `submission_emails` job go on as a job of their own. */
  queue: Pick<JobQueue, 'enqueueContinuation'>;
}

/**
 * ONE statement on the driver for a batch: each submission with what its emails show of its form and account.
 * Through Prisma it was three queries per email, each through its query compiler (~4 % of a worker's CPU at 300
 * ingests/s).
 */
const submissionsForEmail = (ids: readonly number[]) =>
  sqlBuilder
    .selectFrom('Submission as s')
    .innerJoin('Form as f', 'f.id', 's.formId')
    .innerJoin('Account as a', 'a.id', 'f.accountId')
    .select(['s.id', 's.formData', 's.formDataCiphertext', 's.formDataKeyId', 'f.id as formId', 'f.name as formName', 'f.phi', 'f.fields', 'a.ownerEmail'])
    .where(sql<boolean>`s."id" = ANY(${ids}::int[])`);

type SubmissionForEmail = InferResult<ReturnType<typeof submissionsForEmail>>[number];

/**
 * The submissions and kinds a `submission_emails` job sends, whichever shape it was queued in (an earlier release
 * queued a job per submission, and per kind left over).
 */
function ingestEmailsOf(data: Exclude<EmailJob, { kind: 'webhook_deactivated' }>): SubmissionEmails[] {
  if ('items' in data) return data.items;
  if (data.kind === 'submission_emails') return [{ submissionId: data.submissionId, kinds: data.kinds }];
  return [{ submissionId: data.submissionId, kinds: [data.kind] }];
}

/**
 * The `email.send` handler: reads the submissions at send time (decrypting a PHI form's data in memory).
 *
 * A `submission_emails` job sends all its emails at once, up to EMAILS_IN_FLIGHT in the process, all of them
 * whatever fails. When every email fails it fails, and its retry sends them all again (none was sent). When some
 * fail and others are sent, it succeeds, and the failed ones go on as ONE job holding them alone, with an id derived
 * from this job's and from which emails they are: so the emails sent are never sent again by a retry, and the job
 * run again (its worker died before its completion was written) queues the same left-over job when the same emails
 * failed, which pg-boss then skips; if others failed that time, their job is queued too. Such a re-run sends again
 * what it sent, as a re-run always did (at least once, same Message-ID). A left-over job carries on this job's
 * retries (what is left of them, backing off from where they are): an email has as many tries as the job had,
 * however it was split, and one failed on the job's last try goes to the dead letter.
 */
export function createEmailJobHandler(deps: EmailJobDeps): (data: EmailJob, job?: Pick<Job<EmailJob>, 'id' | 'retryCount'>) => Promise<void> {
  const cipher = createPhiCipher(deps.config);
  const apiBaseUrl = `http://${deps.config.host}:${deps.config.port}/v1`;
  // The submissions of a job, and of the jobs begun together (one fetch's), read in ONE statement.
  const readSubmission = rowsById((ids) => deps.db.sql(submissionsForEmail(ids)));
  // Every job's messages share the process's bound, whatever a job holds.
  const sending = pLimit(EMAILS_IN_FLIGHT);
  const send = async (kind: SubmissionEmailKind, submission: SubmissionForEmail): Promise<void> => {
    const email = renderSubmissionEmail({ kind, ...emailInputOf(submission, cipher), apiBaseUrl });
    if (email) await deps.sender.send(email);
  };
  return async (data, job) => {
    if (data.kind === 'webhook_deactivated') {
      await sendDeactivationEmail(deps.db.prisma, (email) => deps.sender.send(email), data, apiBaseUrl);
      return;
    }
    const items = ingestEmailsOf(data);
    // An erased submission's emails are not sent (read nothing: nothing to send).
    const submissions = await Promise.all(items.map((item) => readSubmission(item.submissionId)));
    const emails = items.flatMap((item, i) => {
      const submission = submissions[i];
      return submission ? [...new Set(item.kinds)].map((kind) => ({ item, kind, submission })) : [];
    });
    const results = await Promise.allSettled(emails.map(({ kind, submission }) => sending(() => send(kind, submission))));
    const failed = emails.flatMap(({ item, kind }, i) => {
      const result = results[i]!;
      return result.status === 'rejected' ? [{ item, kind, error: result.reason as unknown }] : [];
    });
    if (failed.length === 0) return;
    if (failed.length === emails.length) throw failed[0]!.error;
    await continueFailed(deps.queue, data, job, failed);
  };
}

/** The emails of a job that failed while others were sent: one job holding them alone, carrying on the job's retries. */
async function continueFailed(
  queue: EmailJobDeps['queue'],
  data: EmailJob,
  job: Pick<Job<EmailJob>, 'id' | 'retryCount'> | undefined,
  failed: { item: SubmissionEmails; kind: SubmissionEmailKind; error: unknown }[],
): Promise<void> {
  const items = new Map<number, SubmissionEmails>();
  for (const { item, kind } of failed) {
    const left = items.get(item.submissionId) ?? { submissionId: item.submissionId, kinds: [], ...(item.traceparent ? { traceparent: item.traceparent } : {}) };
    left.kinds.push(kind);
    items.set(item.submissionId, left);
  }
  const which = [...items.values()].map((item) => `${item.submissionId}:${item.kinds.join('+')}`).join(',');
  const source = job ? `job-${job.id}` : `${data.kind}-${which}`;
  const went = await queue.enqueueContinuation<EmailJob>(QUEUE.emailSend, job?.retryCount ?? 0, [
    { data: { kind: 'submission_emails', items: [...items.values()] }, id: derivedJobId(source, which) },
  ]);
  const message = went === 'retry' ? 'email failed: retried in a job of the emails that failed' : 'email failed on its last try: moved to the dead letter queue';
  for (const { kind, error } of failed) logger.warn({ queue: QUEUE.emailSend, kind, error: errorKind(error) }, message);
}

/** What an ingest email shows of its submission, form and account. */
function emailInputOf(submission: SubmissionForEmail, cipher: PhiCipher): Omit<SubmissionEmailInput, 'kind' | 'apiBaseUrl'> {
  let formData: unknown = submission.formData;
  if (submission.formDataCiphertext && submission.formDataKeyId) {
    formData = cipher.decrypt(submission.formDataCiphertext, submission.formDataKeyId);
  }
  return {
    submissionId: submission.id,
    formId: submission.formId,
    formName: submission.formName,
    phi: submission.phi,
    formData: typeof formData === 'object' && formData !== null ? (formData as Record<string, unknown>) : {},
    fields: submission.fields,
    ownerEmail: submission.ownerEmail,
  };
}
