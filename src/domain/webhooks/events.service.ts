import { createHash, randomBytes } from 'node:crypto';
import { v5 as uuidv5 } from 'uuid';
import type { Prisma } from '../../generated/prisma/client.js';
import { prismaSql } from '../../infra/db-driver.js';
import { sqlBuilder } from '../../infra/sql.js';
import { currentTraceparent } from '../../infra/trace-context.js';

export type EventType = 'submission.created' | 'submission.deleted' | 'form.created' | 'form.updated' | 'form.archived';
export const EVENT_TYPES: readonly EventType[] = ['submission.created', 'submission.deleted', 'form.created', 'form.updated', 'form.archived'];

export interface DomainEvent {
  type: EventType;
  accountId: number;
  formId: number;
  /** The form keeps PHI: its submission events then carry ids only (contract §5 "PHI payloads"). */
  phi: boolean;
  /** The resource exactly as v1 returns it (for form.archived: as it was just before). */
  data: Record<string, unknown>;
}

/** The body of every webhook delivery (contract §4 "webhook delivery"). */
export interface EventPayload {
  id: string;
  type: EventType;
  createdAt: string;
  data: Record<string, unknown>;
}

/**
 * An event as recorded (an OutboxEvent row) and as the relay takes it off the outbox to fan it out into deliveries
 * and emails (event-relay.ts, event-fanout.job.ts); also the `event.fanout` job of a batch whose fan-out failed there.
 */
export interface EventJob {
  accountId: number;
  formId: number;
  payload: EventPayload;
  /** The trace of what recorded the event (decisions §7.5): the fan-out's and its jobs' spans continue it. */
  traceparent?: string | null;
}

export interface WebhookDeliveryJob {
  deliveryId: number;
}

/**
 * The job group of a delivery: its endpoint (a subscription, or a form's `webhookUrl`), so that the worker can limit
 * how many deliveries to one receiver run at once. Ids only: a URL is a secret of its owner.
 */
export const deliveryGroup = (subscriptionId: number | null, formId: number | null): string =>
  subscriptionId !== null ? `webhook:${subscriptionId}` : `form:${formId ?? 'none'}`;

export type SubmissionEmailKind = 'submission_confirmation' | 'submission_notification';

/** A submission's ingest emails in a `submission_emails` job, with the trace of the request that ingested it. */
export interface SubmissionEmails {
  submissionId: number;
  kinds: SubmissionEmailKind[];
  traceparent?: string | null;
}

/** Ids only: the worker reads (and for PHI forms decrypts) what it needs at send time. */
export type EmailJob =
  /**
   * The ingest emails of the submissions of one relay pass, ONE job for up to EMAIL_JOB_SUBMISSIONS of them (issue 38
   * item 6: the job's insert, fetch and completion shared by the pass, not paid per ingest). Each item carries its
   * request's trace (job-runs.ts: a span and a log line per trace). The emails that fail while others are sent go on
   * as one job of this shape holding them alone (email.job.ts).
   */
  | { kind: 'submission_emails'; items: SubmissionEmails[] }
  /** Queued by an earlier release, still handled: one submission's emails, and one kind of one submission's. */
  | { kind: 'submission_emails'; submissionId: number; kinds: SubmissionEmailKind[] }
  | { kind: SubmissionEmailKind; submissionId: number }
  /** To the account owner: the subscription was deactivated after days of failed deliveries. */
  | { kind: 'webhook_deactivated'; subscriptionId: number; failingSince: string };

/**
 * Submissions per `submission_emails` job: a relay pass of more goes out in several jobs, which workers run side by
 * side (a job's emails are sent together, under the process's EMAILS_IN_FLIGHT: email.job.ts).
 */
export const EMAIL_JOB_SUBMISSIONS = 10;

/** The namespace of derived job ids: a fixed random UUID, so an id is the same in every process and release. */
const JOB_ID_NAMESPACE = '82a559c4-3a0b-4f1a-a086-7d79c72e8a1a';

/**
 * A UUIDv5 (RFC 9562, version and variant bits set) of what a job is for (an event and a purpose): the same on a
 * re-run, which pg-boss then skips.
 */
export const derivedJobId = (source: string, purpose: string): string => uuidv5(`${source}:${purpose}`, JOB_ID_NAMESPACE);

/**
 * `evt_` + the creation time (milliseconds, 9 base-36 digits) + 16 random characters. The time lets
 * `GET /v1/events/{id}` find the event through the history's (accountId, createdAt) index, so the outbox, which
 * ingest writes in its one statement, carries no index on the id (a random key costs every insert a scattered
 * index write).
 */
export const newEventId = (createdAt: Date): string =>
  `evt_${createdAt.getTime().toString(36).padStart(EVENT_TIME_DIGITS, '0')}${randomBytes(12).toString('base64url')}`;

const EVENT_TIME_DIGITS = 9;
const EVENT_ID = /^evt_([0-9a-z]{9})[A-Za-z0-9_-]{16}$/;

/** The creation time an event id carries, or null for any other string (ids from before it carried one included). */
export function eventIdTime(id: string): Date | null {
  const match = EVENT_ID.exec(id);
  if (!match?.[1]) return null;
  const time = new Date(Number.parseInt(match[1], 36));
  return Number.isNaN(time.getTime()) ? null : time;
}

/**
 * The `webhook-id` of one delivery, kept across its retries. Derived from its event and target, so that a
 * fan-out run twice (its worker died before the job was marked done) derives the same ids, which the
 * unique index refuses: nothing is delivered twice.
 */
export const messageIdFor = (eventId: string, subscriptionId: number | null): string =>
  `msg_${createHash('sha256').update(`${eventId}:${subscriptionId ?? 'form'}`).digest('base64url').slice(0, 22)}`;

/**
 * The first `email`-typed field of the form whose value in formData (keyed by label, or by id) is an
 * address: the confirmation's recipient (contract §4 "emails").
 */
export function confirmationRecipient(fields: unknown, formData: unknown): string | null {
  if (!Array.isArray(fields) || typeof formData !== 'object' || formData === null) return null;
  const values = formData as Record<string, unknown>;
  for (const field of fields) {
    if (typeof field !== 'object' || field === null) continue;
    const { type, label, id } = field as { type?: unknown; label?: unknown; id?: unknown };
    if (type !== 'email') continue;
    const value = (typeof label === 'string' ? values[label] : undefined) ?? (typeof id === 'string' ? values[id] : undefined);
    if (typeof value === 'string' && isEmailAddress(value.trim())) return value.trim();
  }
  return null;
}

/** Deliberately plain: one @, no spaces or line breaks (no header injection), a dot in the domain. */
export function isEmailAddress(value: string): boolean {
  return value.length <= 254 && /^[^\s@<>,;:"]+@[^\s@<>,;:"]+\.[^\s@<>,;:"]+$/.test(value);
}

/**
 * The event data as it leaves the service: a PHI form's submission carries ids only
 * (contract §5 "PHI payloads").
 */
export function eventData(event: DomainEvent): Record<string, unknown> {
  if (event.type === 'submission.created' && event.phi) {
    return { id: event.data.id ?? null, formId: event.data.formId ?? event.formId, createdAt: event.data.createdAt ?? null };
  }
  return event.data;
}

/**
 * The row of an event in the outbox, which is also the event history (`GET /v1/events`, 30 days). The row's
 * createdAt is the payload's, so that the history's filters and order agree with what receivers saw; its
 * traceparent is the request's (or job's) that records it.
 */
export function outboxRow(event: DomainEvent) {
  const createdAt = new Date();
  const payload: EventPayload = { id: newEventId(createdAt), type: event.type, createdAt: createdAt.toISOString(), data: eventData(event) };
  return { accountId: event.accountId, formId: event.formId, eventId: payload.id, type: payload.type, payload: JSON.stringify(payload), createdAt, traceparent: currentTraceparent() };
}

/** The INSERT of an event into the outbox, a statement of its own (ingest writes the same row in its one statement). */
export const outboxInsertSql = (event: DomainEvent) => sqlBuilder.insertInto('OutboxEvent').values(outboxRow(event));

/**
 * Records an event inside the transaction that caused it: ONE insert into the outbox, whatever listens to it,
 * so that nothing is announced that was not stored and nothing stored goes unannounced. Who hears of it
 * (deliveries, emails) is decided by the fan-out, off the request's path.
 */
export async function recordEvent(tx: Prisma.TransactionClient, event: DomainEvent): Promise<void> {
  await prismaSql(tx).sql(outboxInsertSql(event));
}
