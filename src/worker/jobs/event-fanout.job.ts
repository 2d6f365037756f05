import type { Database } from '../../infra/db.js';
import { Prisma, type Submission } from '../../generated/prisma/client.js';
import { confirmationRecipient, deliveryGroup, derivedJobId, messageIdFor, type EmailJob, type EventJob, type WebhookDeliveryJob } from '../../domain/webhooks/events.service.js';
import { QUEUE, type JobQueue } from '../../infra/jobs.js';
import type { PhiCipher } from '../../infra/phi-crypto.js';
import { readFormData } from '../../domain/submissions/submissions.service.js';

/**
 * The `event.fanout` handler: turns one recorded event (`recordEvent`, relayed by event-relay.ts) into a WebhookDelivery
 * per target (each matching subscription, plus the form's `webhookUrl` for a submission, whose address is read at
 * send time and never copied) and the emails of a submission, with their jobs, in ONE transaction.
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
  hasWebhookUrl: boolean;
  ownerEmail: string | null;
  fields: unknown;
  subscriptionIds: number[];
  submissionId: number | null;
}

/** The form, its owner's address, the listening subscriptions and the submission, as ONE select. */
function targetsSql({ accountId, formId, payload }: EventJob): Prisma.Sql {
  const submissionId = payload.type === 'submission.created' ? Number(payload.data.id) : null;
  // The submission is locked (FOR SHARE) until this fan-out commits: an erasure's DELETE waits for it, then
  // scrubs the deliveries written here; a fan-out after the erasure finds no row and announces nothing.
  return Prisma.sql`
    WITH sub AS (SELECT "id", "formData", "formDataCiphertext", "formDataKeyId" FROM "Submission" WHERE "id" = ${submissionId}::int AND "formId" = ${formId} FOR SHARE)
    SELECT (f."webhookUrl" IS NOT NULL AND ${payload.type} = 'submission.created') AS "hasWebhookUrl",
           a."ownerEmail" AS "ownerEmail",
           f."fields" AS "fields",
           COALESCE((SELECT array_agg(s."id" ORDER BY s."id") FROM "WebhookSubscription" s
                     WHERE s."accountId" = a."id" AND s."event" = ${payload.type} AND s."active" AND s."deletedAt" IS NULL
                       AND (s."formId" IS NULL OR s."formId" = f."id") AND s."createdAt" <= ${new Date(payload.createdAt)}),
                    ARRAY[]::integer[]) AS "subscriptionIds",
           sub."id" AS "submissionId", sub."formData" AS "formData", sub."formDataCiphertext" AS "formDataCiphertext", sub."formDataKeyId" AS "formDataKeyId"
    FROM "Form" f
    JOIN "Account" a ON a."id" = f."accountId"
    LEFT JOIN sub ON true
    WHERE f."id" = ${formId} AND f."accountId" = ${accountId}`;
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

export async function fanOutEvent(deps: EventFanoutDeps, job: EventJob): Promise<FanoutResult> {
  const { payload } = job;
  return deps.db.transaction(async (tx) => {
    const [targets] = await tx.sql<Targets>(targetsSql(job));
    // The form is gone (its account was deleted): nobody is left to tell.
    if (!targets) return { deliveries: 0, emails: 0 };
    // The submission was erased before its event went out (contract §6.3): its data is told to no one.
    if (payload.type === 'submission.created' && targets.submissionId === null) return { deliveries: 0, emails: 0 };
    const subscriptionIds: (number | null)[] = targets.subscriptionIds.map(Number);
    if (targets.hasWebhookUrl) subscriptionIds.push(null);
    const deliveries = subscriptionIds.length
      ? await tx.sql<{ id: number; subscriptionId: number | null }>(Prisma.sql`
          INSERT INTO "WebhookDelivery" ("accountId", "subscriptionId", "formId", "messageId", "eventId", "eventType", "payload", "nextAttemptAt", "updatedAt")
          SELECT ${job.accountId}, target."subscriptionId", ${job.formId}, target."messageId", ${payload.id}, ${payload.type}, ${JSON.stringify(payload)}::jsonb, now(), now()
          FROM unnest(${subscriptionIds}::integer[], ${subscriptionIds.map((id) => messageIdFor(payload.id, id))}::text[]) AS target("subscriptionId", "messageId")
          ON CONFLICT ("messageId") DO NOTHING
          RETURNING "id", "subscriptionId"`)
      : [];
    const emails = emailsOf(targets, deps.phi);
    await deps.queue.enqueueInTransaction<WebhookDeliveryJob>(
      tx,
      QUEUE.webhookDelivery,
      deliveries.map((row) => ({ data: { deliveryId: row.id }, group: deliveryGroup(row.subscriptionId, job.formId) })),
    );
    await deps.queue.enqueueInTransaction<EmailJob>(tx, QUEUE.emailSend, emails.map((data) => ({ data, id: derivedJobId(payload.id, data.kind) })));
    return { deliveries: deliveries.length, emails: emails.length };
  });
}

export function createEventFanoutHandler(deps: EventFanoutDeps): (job: EventJob) => Promise<void> {
  return async (job) => {
    await fanOutEvent(deps, job);
  };
}
