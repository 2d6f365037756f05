import type { Database } from '../../infra/db.js';
import type { SqlTransaction } from '../../infra/db-driver.js';
import type { Submission } from '../../generated/prisma/client.js';
import { rawStatement, sql, sqlBuilder } from '../../infra/sql.js';
import { confirmationRecipient, deliveryGroup, derivedJobId, messageIdFor, type EmailJob, type EventJob, type WebhookDeliveryJob } from '../../domain/webhooks/events.service.js';
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

/** The event's submission and its stored data are null for form events. */
interface Targets extends Pick<Submission, 'formData' | 'formDataCiphertext' | 'formDataKeyId'> {
  /** The event's index in the batch. */
  i: number;
  hasWebhookUrl: boolean;
  ownerEmail: string | null;
  fields: unknown;
  subscriptionIds: number[];
  submissionId: number | null;
}

/**
 * Each event's form, its owner's address, the listening subscriptions and the submission, as ONE select for the
 * whole batch (a row per event whose form still exists). Raw SQL, typed by its row: the batch unnested into rows
 * with a column list, a CTE locked FOR SHARE OF one table and a correlated array_agg would be raw pieces in
 * Kysely too, around a few joins.
 */
function targetsSql(jobs: EventJob[]) {
  const submissionIds = jobs.map(({ payload }) => (payload.type === 'submission.created' ? Number(payload.data.id) : null));
  // The submissions are locked (FOR SHARE) until this fan-out commits: an erasure's DELETE waits for it, then
  // scrubs the deliveries written here; a fan-out after the erasure finds no row and announces nothing.
  return rawStatement(sql<Targets>`
    WITH ev AS (
      SELECT * FROM unnest(${jobs.map((_, i) => i)}::int[], ${jobs.map((job) => job.accountId)}::int[], ${jobs.map((job) => job.formId)}::int[],
                           ${jobs.map((job) => job.payload.type)}::text[], ${submissionIds}::int[], ${jobs.map((job) => job.payload.createdAt)}::text[])
        AS ev("i", "accountId", "formId", "type", "submissionId", "createdAt")
    ),
    sub AS (
      SELECT s."id", s."formData", s."formDataCiphertext", s."formDataKeyId", s."formId"
      FROM "Submission" s JOIN ev ON s."id" = ev."submissionId" AND s."formId" = ev."formId"
      FOR SHARE OF s
    )
    SELECT ev."i",
           (f."webhookUrl" IS NOT NULL AND ev."type" = 'submission.created') AS "hasWebhookUrl",
           a."ownerEmail" AS "ownerEmail",
           f."fields" AS "fields",
           COALESCE((SELECT array_agg(s."id" ORDER BY s."id") FROM "WebhookSubscription" s
                     WHERE s."accountId" = a."id" AND s."event" = ev."type" AND s."active" AND s."deletedAt" IS NULL
                       AND (s."formId" IS NULL OR s."formId" = f."id") AND s."createdAt" <= (ev."createdAt"::timestamptz AT TIME ZONE 'UTC')),
                    ARRAY[]::integer[]) AS "subscriptionIds",
           sub."id" AS "submissionId", sub."formData" AS "formData", sub."formDataCiphertext" AS "formDataCiphertext", sub."formDataKeyId" AS "formDataKeyId"
    FROM ev
    JOIN "Form" f ON f."id" = ev."formId" AND f."accountId" = ev."accountId"
    JOIN "Account" a ON a."id" = f."accountId"
    LEFT JOIN sub ON sub."id" = ev."submissionId" AND sub."formId" = ev."formId"`);
}

function emailsOf(targets: Targets, phi: PhiCipher): EmailJob[] {
  const { submissionId } = targets;
  if (submissionId === null) return [];
  const emails: EmailJob[] = [];
  if (confirmationRecipient(targets.fields, readFormData(phi, targets))) emails.push({ kind: 'submission_confirmation', submissionId });
  if (targets.ownerEmail) emails.push({ kind: 'submission_notification', submissionId });
  return emails;
}

export interface FanoutResult {
  deliveries: number;
  emails: number;
}

/**
 * Fans out a batch of events inside `tx`, in a fixed number of statements whatever its size: the targets, the
 * deliveries, their jobs and the emails' jobs.
 */
export async function fanOutInTransaction(deps: EventFanoutDeps, tx: SqlTransaction, jobs: EventJob[]): Promise<FanoutResult> {
  if (jobs.length === 0) return { deliveries: 0, emails: 0 };
  const rows: { event: EventJob; subscriptionId: number | null }[] = [];
  const emails: { data: EmailJob; id: string; traceparent: string | null }[] = [];
  for (const targets of await tx.sql(targetsSql(jobs))) {
    const event = jobs[Number(targets.i)]!;
    // The submission was erased before its event went out (contract §6.3): its data is told to no one.
    if (event.payload.type === 'submission.created' && targets.submissionId === null) continue;
    for (const id of targets.subscriptionIds) rows.push({ event, subscriptionId: Number(id) });
    if (targets.hasWebhookUrl) rows.push({ event, subscriptionId: null });
    for (const data of emailsOf(targets, deps.phi)) emails.push({ data, id: derivedJobId(event.payload.id, data.kind), traceparent: event.traceparent ?? null });
  }
  // An event whose form is gone (its account was deleted) has no row: nobody is left to tell.
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
  await deps.queue.enqueueInTransaction<EmailJob>(tx, QUEUE.emailSend, emails);
  return { deliveries: deliveries.length, emails: emails.length };
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
