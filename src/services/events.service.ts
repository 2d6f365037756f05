import { randomBytes } from 'node:crypto';
import { Prisma } from '../generated/prisma/client.js';
import { getActiveJobQueue, QUEUE, transactionDb, type JobDb } from './jobs.service.js';

export type EventType = 'submission.created' | 'form.created' | 'form.updated' | 'form.archived';
export const EVENT_TYPES: readonly EventType[] = ['submission.created', 'form.created', 'form.updated', 'form.archived'];

export interface DomainEvent {
  type: EventType;
  accountId: number;
  formId: number;
  /** The resource exactly as v1 returns it (for form.archived: as it was just before). */
  data: Record<string, unknown>;
}

/** The body of every webhook delivery (decisions §4 "webhook delivery"). */
export interface EventPayload {
  id: string;
  type: EventType;
  createdAt: string;
  data: Record<string, unknown>;
}

export interface WebhookDeliveryJob {
  deliveryId: number;
}

export type EmailKind = 'submission_confirmation' | 'submission_notification';

/** Ids only: the worker reads (and for PHI forms decrypts) what it needs at send time. */
export interface EmailJob {
  kind: EmailKind;
  submissionId: number;
}

export const newEventId = (): string => `evt_${randomBytes(16).toString('base64url')}`;
/** The `webhook-id` of one delivery, kept across its retries. */
export const newMessageId = (): string => `msg_${randomBytes(16).toString('base64url')}`;

/** What an event on a form fans out to, read in one statement (see `eventTargetsSql`). */
export interface EventTargets {
  archivedAt: Date | null;
  phi: boolean;
  hasWebhookUrl: boolean;
  fields: unknown;
  ownerEmail: string | null;
  subscriptionIds: number[];
}

/**
 * The first `email`-typed field of the form whose value in formData (keyed by label, or by id) is an
 * address: the confirmation's recipient (decisions §4 "emails").
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
 * (decisions §5 "PHI payloads").
 */
export function eventData(event: DomainEvent, phi: boolean): Record<string, unknown> {
  if (event.type === 'submission.created' && phi) {
    return { id: event.data.id ?? null, formId: event.data.formId ?? event.formId, createdAt: event.data.createdAt ?? null };
  }
  return event.data;
}

/**
 * The form (its archived state, PHI flag, fields), its account's owner email and the active subscriptions an
 * event of `type` on it reaches, as ONE select; no row when the form is absent or another account's. Ingest
 * composes it into its own form lookup.
 */
export function eventTargetsSql(type: EventType, accountId: number, formId: number): Prisma.Sql {
  return Prisma.sql`
    SELECT f."archivedAt" AS "archivedAt",
           f."phi" AS "phi",
           (f."webhookUrl" IS NOT NULL AND ${type} = 'submission.created') AS "hasWebhookUrl",
           f."fields" AS "fields",
           a."ownerEmail" AS "ownerEmail",
           COALESCE((SELECT array_agg(s."id" ORDER BY s."id") FROM "WebhookSubscription" s
                     WHERE s."accountId" = a."id" AND s."event" = ${type} AND s."active" AND s."deletedAt" IS NULL
                       AND (s."formId" IS NULL OR s."formId" = f."id")), ARRAY[]::integer[]) AS "subscriptionIds"
    FROM "Form" f JOIN "Account" a ON a."id" = f."accountId"
    WHERE f."id" = ${formId} AND f."accountId" = ${accountId}`;
}

/** An event's rows and jobs, decided before anything is written. */
export interface PlannedEvent {
  /**
   * `INSERT … RETURNING "id"` of its WebhookDelivery rows (one per subscription, plus one for the form's
   * `webhookUrl`, whose address is read at send time and never copied): a statement of its own, or a CTE of
   * the caller's. Inserts nothing when nothing listens.
   */
  deliveriesSql: Prisma.Sql;
  deliveryCount: number;
  emails: EmailJob[];
}

export function planEvent(event: DomainEvent, targets: EventTargets): PlannedEvent {
  const payload: EventPayload = {
    id: newEventId(),
    type: event.type,
    createdAt: new Date().toISOString(),
    data: eventData(event, targets.phi),
  };
  const subscriptionIds: (number | null)[] = targets.subscriptionIds.map(Number);
  if (targets.hasWebhookUrl) subscriptionIds.push(null);
  const messageIds = subscriptionIds.map(() => newMessageId());
  const now = new Date();
  const deliveriesSql = Prisma.sql`
    INSERT INTO "WebhookDelivery" ("accountId", "subscriptionId", "formId", "messageId", "eventType", "payload", "nextAttemptAt", "updatedAt")
    SELECT ${event.accountId}, target."subscriptionId", ${event.formId}, target."messageId", ${event.type}, ${JSON.stringify(payload)}::jsonb, ${now}, ${now}
    FROM unnest(${subscriptionIds}::integer[], ${messageIds}::text[]) AS target("subscriptionId", "messageId")
    RETURNING "id"`;

  const emails: EmailJob[] = [];
  if (event.type === 'submission.created') {
    const submissionId = Number(event.data.id);
    if (confirmationRecipient(targets.fields, event.data.formData)) emails.push({ kind: 'submission_confirmation', submissionId });
    if (targets.ownerEmail) emails.push({ kind: 'submission_notification', submissionId });
  }
  return { deliveriesSql, deliveryCount: subscriptionIds.length, emails };
}

/** The jobs of a planned event, in the caller's transaction: at most one insert per queue. */
export async function enqueueEventJobs(tx: JobDb, deliveryIds: number[], emails: EmailJob[]): Promise<void> {
  const queue = getActiveJobQueue();
  await queue.enqueueInTransaction<WebhookDeliveryJob>(tx, QUEUE.webhookDelivery, deliveryIds.map((deliveryId) => ({ data: { deliveryId } })));
  await queue.enqueueInTransaction<EmailJob>(tx, QUEUE.emailSend, emails.map((data) => ({ data })));
}

/**
 * Records an event inside the transaction that caused it: its deliveries, the emails of a submission, and
 * their jobs. Everything commits or rolls back with the caller's row. Cost: 1 lookup, at most 1 insert of
 * deliveries and 1 job insert per queue, whatever the number of subscriptions.
 */
export async function recordEvent(tx: Prisma.TransactionClient, event: DomainEvent): Promise<void> {
  const [targets] = await tx.$queryRaw<EventTargets[]>(eventTargetsSql(event.type, event.accountId, event.formId));
  if (!targets) throw new Error(`recordEvent: form ${event.formId} of account ${event.accountId} not found`);
  const planned = planEvent(event, targets);
  const deliveries = planned.deliveryCount > 0 ? await tx.$queryRaw<{ id: number }[]>(planned.deliveriesSql) : [];
  await enqueueEventJobs(
    transactionDb(tx),
    deliveries.map((row) => row.id),
    planned.emails,
  );
}
