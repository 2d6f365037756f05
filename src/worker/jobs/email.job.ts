import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { InferResult } from 'kysely';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../../config.js';
import type { Database } from '../../infra/db.js';
import { sql, sqlBuilder } from '../../infra/sql.js';
import { confirmationRecipient, type EmailJob, type SubmissionEmailKind } from '../../domain/webhooks/events.service.js';
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

/** The `email.send` handler: reads the submission at send time (decrypting a PHI form's data in memory). */
export function createEmailJobHandler(deps: EmailJobDeps): (job: EmailJob) => Promise<void> {
  const cipher = createPhiCipher(deps.config);
  const apiBaseUrl = `http://${deps.config.host}:${deps.config.port}/v1`;
  // The emails begun together (one fetch's jobs, often both emails of a submission) read in ONE statement.
  const readSubmission = rowsById((ids) => deps.db.sql(submissionsForEmail(ids)));
  return async (job) => {
    if (job.kind === 'webhook_deactivated') {
      await sendDeactivationEmail(deps.db.prisma, (email) => deps.sender.send(email), job, apiBaseUrl);
      return;
    }
    const submission = await readSubmission(job.submissionId);
    if (!submission) return;
    let formData: unknown = submission.formData;
    if (submission.formDataCiphertext && submission.formDataKeyId) {
      formData = cipher.decrypt(submission.formDataCiphertext, submission.formDataKeyId);
    }
    const email = renderSubmissionEmail({
      kind: job.kind,
      submissionId: submission.id,
      formId: submission.formId,
      formName: submission.formName,
      phi: submission.phi,
      formData: typeof formData === 'object' && formData !== null ? (formData as Record<string, unknown>) : {},
      fields: submission.fields,
      ownerEmail: submission.ownerEmail,
      apiBaseUrl,
    });
    if (email) await deps.sender.send(email);
  };
}
