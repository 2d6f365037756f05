import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { InferResult } from 'kysely';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../../config.js';
import type { Database } from '../../infra/db.js';
import { sql, sqlBuilder } from '../../infra/sql.js';
import type { Job } from 'pg-boss';
import { confirmationRecipient, derivedJobId, type EmailJob, type SubmissionEmailKind } from '../../domain/webhooks/events.service.js';
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

export interface EmailJobDeps {
  db: Database;
  sender: EmailSender;
  config: Pick<Config, 'secretKey' | 'previousSecretKeys' | 'host' | 'port'>;
  /** Where a kind left over from a `submission_emails` job goes on as its own job. */
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
 * The `email.send` handler: reads the submission at send time (decrypting a PHI form's data in memory).
 *
 * A `submission_emails` job sends each of its kinds. When they all fail it fails, and its retry sends them all again
 * (none was sent). When some fail and others are sent, it succeeds, and each failed kind goes on as a job of its
 * own (one kind: the shape queued before `submission_emails` existed, still handled here), with an id derived
 * from this job's and the kind: so the kinds sent are never sent again by a retry, and the job run again (its worker
 * died before its completion was written) queues the same left-over job, which pg-boss then skips. Such a re-run
 * sends again what it sent, as a job of one kind re-run always did (at least once, same Message-ID). A left-over job
 * carries on this job's retries (what is left of them, backing off from where they are): a kind has as many tries as
 * the job had, however it was split, and one failed on the job's last try goes to the dead letter.
 */
export function createEmailJobHandler(deps: EmailJobDeps): (data: EmailJob, job?: Pick<Job<EmailJob>, 'id' | 'retryCount'>) => Promise<void> {
  const cipher = createPhiCipher(deps.config);
  const apiBaseUrl = `http://${deps.config.host}:${deps.config.port}/v1`;
  // The emails begun together (one fetch's jobs) read in ONE statement.
  const readSubmission = rowsById((ids) => deps.db.sql(submissionsForEmail(ids)));
  const send = async (kind: SubmissionEmailKind, submission: SubmissionForEmail): Promise<void> => {
    const email = renderSubmissionEmail({ kind, ...emailInputOf(submission, cipher), apiBaseUrl });
    if (email) await deps.sender.send(email);
  };
  return async (data, job) => {
    if (data.kind === 'webhook_deactivated') {
      await sendDeactivationEmail(deps.db.prisma, (email) => deps.sender.send(email), data, apiBaseUrl);
      return;
    }
    const submission = await readSubmission(data.submissionId);
    if (!submission) return;
    if (data.kind !== 'submission_emails') {
      await send(data.kind, submission);
      return;
    }
    const kinds = [...new Set(data.kinds)];
    const results = await Promise.allSettled(kinds.map((kind) => send(kind, submission)));
    const failed = kinds.flatMap((kind, i) => {
      const result = results[i];
      return result?.status === 'rejected' ? [{ kind, error: result.reason as unknown }] : [];
    });
    if (failed.length === 0) return;
    if (failed.length === kinds.length) throw failed[0]!.error;
    const source = job ? `job-${job.id}` : `submission-${data.submissionId}`;
    const went = await deps.queue.enqueueContinuation<EmailJob>(
      QUEUE.emailSend,
      job?.retryCount ?? 0,
      failed.map(({ kind }) => ({ data: { kind, submissionId: data.submissionId }, id: derivedJobId(source, kind) })),
    );
    const message = went === 'retry' ? 'email failed: retried as a job of its own' : 'email failed on its last try: moved to the dead letter queue';
    for (const { kind, error } of failed) logger.warn({ queue: QUEUE.emailSend, kind, error: errorKind(error) }, message);
  };
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
