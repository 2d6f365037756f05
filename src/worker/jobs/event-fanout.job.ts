import type { Database } from '../../infra/db.js';
import type { SqlTransaction } from '../../infra/db-driver.js';
import type { Submission } from '../../generated/prisma/client.js';
import type { RawBuilder } from 'kysely';
import { rawStatement, sql, sqlBuilder } from '../../infra/sql.js';
import {
  confirmationRecipient,
  deliveryGroup,
  derivedJobId,
  EMAIL_JOB_SUBMISSIONS,
  messageIdFor,
  type EmailJob,
  type EventJob,
  type SubmissionEmailKind,
  type SubmissionEmails,
  type WebhookDeliveryJob,
} from '../../domain/webhooks/events.service.js';
import { QUEUE, type JobQueue } from '../../infra/jobs.js';
import type { PhiCipher } from '../../infra/phi-crypto.js';
import { readFormData } from '../../domain/submissions/submissions.service.js';
import { currentTraceparent } from '../../infra/trace-context.js';

/**
 * The fan-out: turns recorded events (`recordEvent`) into a WebhookDelivery per target (each matching subscription,
 * plus the form's `webhookUrl` for a submission, whose address is read at send time and never copied) and the emails
 * of a submission, with their jobs, in ONE transaction. The outbox relay runs it in the transaction that takes the
 * events off the outbox (event-relay.ts); a batch that fails there comes here as `event.fanout` jobs, run again one
 * event at a time, so that one bad event fails only itself.
 *
 * Targets are read when it runs, moments after the event: a subscription created after the event does not get
 * it, one deleted or deactivated since does not either (it would not be sent anyway). Run twice (its worker died
 * before the job was marked done), it derives the same message ids and email job ids, finds them taken and
 * writes nothing more.
 */

export interface EventFanoutDeps {
  db: Database;
  queue: JobQueue;
  /** Decrypts a PHI submission in memory, only to find its confirmation's recipient. */
  phi: PhiCipher;
}

/** One event with what its fan-out needs; the submission and its stored data are null for form events. */
export interface EventTargets extends EventJob, Pick<Submission, 'formData' | 'formDataCiphertext' | 'formDataKeyId'> {
  /** False when the event's form is gone (its account was deleted): nobody is left to tell. */
  formFound: boolean;
  hasWebhookUrl: boolean;
  ownerEmail: string | null;
  fields: unknown;
  subscriptionIds: number[];
  submissionId: number | null;
}

/**
 * The `ev` CTE of queued events (the `event.fanout` jobs): ("accountId", "formId", "payload", "traceparent") from parameters.
 */
const queuedEvents = (jobs: EventJob[]) => sql`ev AS (
  SELECT "accountId", "formId", "payload"::jsonb AS "payload", "traceparent"
  FROM unnest(${jobs.map((job) => job.accountId)}::int[], ${jobs.map((job) => job.formId)}::int[], ${jobs.map((job) => JSON.stringify(job.payload))}::text[],
              ${jobs.map((job) => job.traceparent ?? null)}::text[])
    AS q("accountId", "formId", "payload", "traceparent"))`;

/**
 * The `ev` CTE of the relay: up to `limit` events taken off the outbox (marked relayed; the rows stay as the event
 * history), one pass of the outbox shared by relays on several workers (SKIP LOCKED).
 */
export const takenEvents = (limit: number) => sql`taken AS (
  UPDATE "OutboxEvent" SET "relayedAt" = now()
  WHERE "id" IN (SELECT "id" FROM "OutboxEvent" WHERE "relayedAt" IS NULL ORDER BY "id" LIMIT ${limit} FOR UPDATE SKIP LOCKED)
  RETURNING "accountId", "formId", "payload", "traceparent"),
  ev AS (SELECT * FROM taken)`;

/**
 * Each event of `events` (an `ev` CTE: queuedEvents, takenEvents) with its form, its owner's address, the listening
 * subscriptions and the submission, as ONE statement for the whole batch: the relay takes its events off the outbox
 * in it too. A row per event, its form found or not. Raw SQL, typed by its row: a data-modifying CTE, a CTE locked FOR
 * SHARE OF one table and a correlated array_agg would be raw pieces in Kysely too, around a few joins.
 */
export function targetsSql(events: RawBuilder<unknown>) {
  // The submissions are locked (FOR SHARE) until this fan-out commits: an erasure's DELETE waits for it, then
  // scrubs the deliveries written here; a fan-out after the erasure finds no row and announces nothing. An event
  // whose data.id is no number fails the statement (22P02), and the relay queues its batch (event-relay.ts).
  return rawStatement(sql<EventTargets>`
    WITH ${events},
    evt AS (
      SELECT ev."accountId", ev."formId", ev."payload", ev."traceparent", ev."payload"->>'type' AS "type", ev."payload"->>'createdAt' AS "createdAt",
             CASE WHEN ev."payload"->>'type' = 'submission.created' THEN (ev."payload"->'data'->>'id')::int END AS "submissionId"
      FROM ev
    ),
    sub AS (
      SELECT s."id", s."formData", s."formDataCiphertext", s."formDataKeyId", s."formId"
      FROM "Submission" s JOIN evt ON s."id" = evt."submissionId" AND s."formId" = evt."formId"
      FOR SHARE OF s
    )
    SELECT evt."accountId", evt."formId", evt."payload", evt."traceparent", (f."id" IS NOT NULL) AS "formFound",
           (f."webhookUrl" IS NOT NULL AND evt."type" = 'submission.created') AS "hasWebhookUrl",
           a."ownerEmail" AS "ownerEmail",
           f."fields" AS "fields",
           COALESCE((SELECT array_agg(s."id" ORDER BY s."id") FROM "WebhookSubscription" s
                     WHERE s."accountId" = a."id" AND s."event" = evt."type" AND s."active" AND s."deletedAt" IS NULL
                       AND (s."formId" IS NULL OR s."formId" = f."id") AND s."createdAt" <= (evt."createdAt"::timestamptz AT TIME ZONE 'UTC')),
                    ARRAY[]::integer[]) AS "subscriptionIds",
           sub."id" AS "submissionId", sub."formData" AS "formData", sub."formDataCiphertext" AS "formDataCiphertext", sub."formDataKeyId" AS "formDataKeyId"
    FROM evt
    LEFT JOIN "Form" f ON f."id" = evt."formId" AND f."accountId" = evt."accountId"
    LEFT JOIN "Account" a ON a."id" = f."accountId"
    LEFT JOIN sub ON sub."id" = evt."submissionId" AND sub."formId" = evt."formId"`);
}

/** The ingest emails of a submission's event (null when it has none). */
function emailsOf(targets: EventTargets, phi: PhiCipher): SubmissionEmails | null {
  const { submissionId } = targets;
  if (submissionId === null) return null;
  const kinds: SubmissionEmailKind[] = [];
  if (confirmationRecipient(targets.fields, readFormData(phi, targets))) kinds.push('submission_confirmation');
  if (targets.ownerEmail) kinds.push('submission_notification');
  return kinds.length ? { submissionId, kinds, traceparent: targets.traceparent ?? null } : null;
}

/**
 * The emails of a batch of events as `submission_emails` jobs of up to EMAIL_JOB_SUBMISSIONS submissions each, in the
 * events' order. A job's id is derived from its events' ids: a re-run of the same batch (an `event.fanout` batch
 * whose worker died after its commit) inserts nothing twice.
 */
function emailJobs(emails: { eventId: string; item: SubmissionEmails }[]): { data: EmailJob; id: string }[] {
  const jobs: { data: EmailJob; id: string }[] = [];
  for (let i = 0; i < emails.length; i += EMAIL_JOB_SUBMISSIONS) {
    const chunk = emails.slice(i, i + EMAIL_JOB_SUBMISSIONS);
    jobs.push({ data: { kind: 'submission_emails', items: chunk.map(({ item }) => item) }, id: derivedJobId(chunk.map(({ eventId }) => eventId).join(','), 'submission_emails') });
  }
  return jobs;
}

export interface FanoutResult {
  deliveries: number;
  /** Emails to send (not jobs: a job holds both emails of each of up to EMAIL_JOB_SUBMISSIONS submissions). */
  emails: number;
}

/**
 * Fans out events read with their targets (targetsSql) inside `tx`, in a fixed number of statements whatever their
 * number: the deliveries, their jobs and the emails' jobs (one per EMAIL_JOB_SUBMISSIONS submissions).
 */
export async function fanOutTargets(deps: EventFanoutDeps, tx: SqlTransaction, events: readonly EventTargets[]): Promise<FanoutResult> {
  const rows: { event: EventJob; subscriptionId: number | null }[] = [];
  const emails: { eventId: string; item: SubmissionEmails }[] = [];
  for (const targets of events) {
    // An event whose form is gone (its account was deleted): nobody is left to tell.
    if (!targets.formFound) continue;
    const event: EventJob = { accountId: targets.accountId, formId: targets.formId, payload: targets.payload, traceparent: targets.traceparent ?? null };
    // The submission was erased before its event went out (contract §6.3): its data is told to no one.
    if (event.payload.type === 'submission.created' && targets.submissionId === null) continue;
    for (const id of targets.subscriptionIds) rows.push({ event, subscriptionId: Number(id) });
    if (targets.hasWebhookUrl) rows.push({ event, subscriptionId: null });
    const item = emailsOf(targets, deps.phi);
    if (item) emails.push({ eventId: event.payload.id, item });
  }
  const deliveries = rows.length
    ? await tx.sql(
        sqlBuilder
          .insertInto('WebhookDelivery')
          .columns(['accountId', 'subscriptionId', 'formId', 'messageId', 'eventId', 'eventType', 'payload', 'nextAttemptAt', 'updatedAt'])
          .expression(
            sql`SELECT t."accountId", t."subscriptionId", t."formId", t."messageId", t."eventId", t."eventType", t."payload"::jsonb, now(), now()
                FROM unnest(${rows.map((row) => row.event.accountId)}::int[], ${rows.map((row) => row.subscriptionId)}::int[], ${rows.map((row) => row.event.formId)}::int[],
                            ${rows.map((row) => messageIdFor(row.event.payload.id, row.subscriptionId))}::text[], ${rows.map((row) => row.event.payload.id)}::text[],
                            ${rows.map((row) => row.event.payload.type)}::text[], ${rows.map((row) => JSON.stringify(row.event.payload))}::text[])
                  AS t("accountId", "subscriptionId", "formId", "messageId", "eventId", "eventType", "payload")`,
          )
          .onConflict((conflict) => conflict.column('messageId').doNothing())
          .returning(['id', 'subscriptionId', 'formId', 'messageId']),
      )
    : [];
  // Each delivery continues its event's trace (a new one may skip rows that exist: matched by message id).
  const traceOf = new Map(rows.map((row) => [messageIdFor(row.event.payload.id, row.subscriptionId), row.event.traceparent ?? null]));
  await deps.queue.enqueueInTransaction<WebhookDeliveryJob>(
    tx,
    QUEUE.webhookDelivery,
    deliveries.map((row) => ({ data: { deliveryId: row.id }, group: deliveryGroup(row.subscriptionId, row.formId), traceparent: traceOf.get(row.messageId) ?? null })),
  );
  await deps.queue.enqueueInTransaction<EmailJob>(tx, QUEUE.emailSend, emailJobs(emails));
  return { deliveries: deliveries.length, emails: emails.reduce((sum, { item }) => sum + item.kinds.length, 0) };
}

/** Fans out a batch of queued events inside `tx`: their targets, then fanOutTargets. */
export async function fanOutInTransaction(deps: EventFanoutDeps, tx: SqlTransaction, jobs: EventJob[]): Promise<FanoutResult> {
  if (jobs.length === 0) return { deliveries: 0, emails: 0 };
  return fanOutTargets(deps, tx, await tx.sql(targetsSql(queuedEvents(jobs))));
}

/** Fans out a batch of `event.fanout` jobs in a transaction of its own. */
export async function fanOutEvents(deps: EventFanoutDeps, jobs: EventJob[]): Promise<FanoutResult> {
  // On the pipeline's connections (db.ts): the hop every delivery waits for must not queue behind the deliveries.
  return deps.db.pipeline.transaction((tx) => fanOutInTransaction(deps, tx, jobs));
}

export async function fanOutEvent(deps: EventFanoutDeps, job: EventJob): Promise<FanoutResult> {
  return fanOutEvents(deps, [job]);
}

export function createEventFanoutHandler(deps: EventFanoutDeps): { batch: (jobs: EventJob[]) => Promise<void>; single: (job: EventJob) => Promise<void> } {
  return {
    batch: async (jobs) => {
      await fanOutEvents(deps, jobs);
    },
    single: async (job) => {
      // Run as a job: its deliveries and emails continue this job's span.
      await fanOutEvent(deps, { ...job, traceparent: currentTraceparent() ?? job.traceparent ?? null });
    },
  };
}
