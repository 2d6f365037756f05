import type { DriverSql, SqlExecutor } from '../../infra/db-driver.js';
import { notFound } from '../../errors.js';
import { FORM_VERSION_BUMP } from '../forms/form-version.js';
import { rawStatement, sql, type RawBuilder } from '../../infra/sql.js';
import { currentTraceparent } from '../../infra/trace-context.js';
import { deadLetterOf, QUEUE } from '../../infra/jobs.js';
import { newEventId } from '../webhooks/events.service.js';
import { ERASED_FINGERPRINT } from './idempotency.service.js';
import type { Reader } from './submissions.service.js';

/**
 * Erasure of submissions (contract §6.3), shared by `DELETE /submissions/{id}` and the erasure-request job:
 * the rows, their forms' counters, a `submission.deleted` event and an audit row each, then every copy of their
 * formData, all in the caller's ONE transaction, so an erasure is whole or not at all.
 */

export interface ErasedSubmission {
  id: number;
  formId: number;
}

/** What is left of a `submission.created` event's data once its submission is erased: the PHI-thin shape (§5). */
const thinned = (data: RawBuilder<unknown>): RawBuilder<unknown> =>
  sql`jsonb_build_object('id', ${data}->'id', 'formId', ${data}->'formId', 'createdAt', ${data}->'createdAt')`;

const FANOUT_QUEUES = [QUEUE.eventFanout, deadLetterOf(QUEUE.eventFanout)];

/**
 * EVERY place besides the Submission row where a submission's formData, or a value derived from it, can live.
 * A new table that keeps event payloads or request bodies adds its line here (and the scrub test its check).
 * Emails already written to the outbox directory are not rewritten; none is written after the erasure, because
 * the email job reads the submission at send time and the fan-out skips an erased submission's event.
 */
export function formDataCopies(accountId: number, ids: number[]): RawBuilder<unknown>[] {
  const idList = sql`${ids}::int[]`;
  return [
    // The outbox, which is also the 30-day event history (GET /v1/events): waiting and relayed events alike. First:
    // eraseSubmissions runs it before the DELETE.
    sql`UPDATE "OutboxEvent" SET "payload" = jsonb_set("payload", '{data}', ${thinned(sql.raw(`"payload"->'data'`))})
               WHERE "accountId" = ${accountId} AND "payload"->>'type' = 'submission.created'
                 AND ("payload"->'data'->>'id')::int = ANY(${idList}) AND ("payload"->'data') ? 'formData'`,
    // The idempotency record: its fingerprint hashes the request body. The record stays (a replay answers 404).
    sql`UPDATE "IdempotencyRecord" SET "fingerprint" = ${ERASED_FINGERPRINT}
               WHERE "accountId" = ${accountId} AND "submissionId" = ANY(${idList}) AND "fingerprint" <> ${ERASED_FINGERPRINT}`,
    // Stored webhook payloads (pending retries then send the thin body under the same webhook-id).
    sql`UPDATE "WebhookDelivery" SET "payload" = jsonb_set("payload", '{data}', ${thinned(sql.raw(`"payload"->'data'`))}), "updatedAt" = now()
               WHERE "accountId" = ${accountId} AND "eventType" = 'submission.created'
                 AND ("payload"->'data'->>'id')::int = ANY(${idList}) AND ("payload"->'data') ? 'formData'`,
    // Event jobs: pending, completed (kept by pg-boss for days) and dead-lettered ones; a failure's output too.
    sql`UPDATE pgboss.job SET "data" = jsonb_set("data", '{payload,data}', ${thinned(sql.raw(`"data"->'payload'->'data'`))}), "output" = NULL
               WHERE "name" = ANY(${FANOUT_QUEUES}::text[]) AND ("data"->>'accountId')::int = ${accountId}
                 AND "data"->'payload'->>'type' = 'submission.created'
                 AND ("data"->'payload'->'data'->>'id')::int = ANY(${idList}) AND ("data"->'payload'->'data') ? 'formData'`,
  ];
}

/** Who erases: the key goes on each audit row. */
export interface Eraser {
  accountId: number;
  apiKeyId: number | null;
}

/**
 * Erases those of `ids` that are the account's (others and absent ones are left alone: the answer says which
 * were erased). Must run inside a transaction, and takes its locks in the relay's order (event-relay.ts: the
 * outbox rows, then the submissions): first the outbox scrub, which waits for a relay fanning out those events (its
 * deliveries are then there for the scrubs below) or keeps a later relay off them until the erasure commits; then
 * the DELETE, which waits for a queued fan-out holding the submission (event-fanout.job.ts). The other order
 * deadlocked with a relay holding the event and waiting for the submission.
 */
export async function eraseSubmissions(tx: SqlExecutor, eraser: Eraser, ids: number[], now = new Date()): Promise<ErasedSubmission[]> {
  if (ids.length === 0) return [];
  const [outboxScrub] = formDataCopies(eraser.accountId, ids);
  await tx.sql(rawStatement(outboxScrub!));
  const at = now.toISOString();
  // One statement: the rows, their counters (the forms' and their days') and versions (raw, so the forms' updatedAt stays; the version makes
  // conditional GETs of the lists see the change), audit rows and events.
  const erased = await tx.sql(rawStatement(sql<ErasedSubmission>`
    WITH erased AS (
      DELETE FROM "Submission" WHERE "accountId" = ${eraser.accountId} AND "id" = ANY(${ids}::int[]) RETURNING "id", "formId", "createdAt"
    ), counted AS (
      UPDATE "Form" f SET "submissionCount" = f."submissionCount" - c."n", "version" = ${FORM_VERSION_BUMP.version}
      FROM (SELECT "formId", count(*)::int AS "n" FROM erased GROUP BY "formId") c WHERE f."id" = c."formId"
    ), counted_days AS (
      -- The day counts that window totals sum (window-total.ts); listed after the forms' counters, as in ingest's
      -- statement, so that both take the two row locks in one order.
      UPDATE "FormSubmissionDay" d SET "count" = d."count" - c."n"
      FROM (SELECT "formId", date_trunc('day', "createdAt") AS "day", count(*)::int AS "n" FROM erased GROUP BY 1, 2) c
      WHERE d."formId" = c."formId" AND d."day" = c."day"
    ), audited AS (
      INSERT INTO "AuditEvent" ("accountId", "apiKeyId", "action", "resource", "resourceId", "formId", "createdAt")
      SELECT ${eraser.accountId}, ${eraser.apiKeyId}::int, 'submission.erased', 'submission', "id", "formId", ${now} FROM erased
    ), announced AS (
      INSERT INTO "OutboxEvent" ("accountId", "formId", "eventId", "type", "payload", "createdAt", "traceparent")
      SELECT ${eraser.accountId}, erased."formId", e."eventId", 'submission.deleted',
             jsonb_build_object('id', e."eventId", 'type', 'submission.deleted', 'createdAt', ${at}::text,
                                'data', jsonb_build_object('id', erased."id", 'formId', erased."formId", 'deletedAt', ${at}::text)),
             ${now}, ${currentTraceparent()}::text
      FROM erased JOIN unnest(${ids}::int[], ${ids.map(() => newEventId(now))}::text[]) AS e("id", "eventId") ON e."id" = erased."id"
    )
    SELECT "id", "formId" FROM erased ORDER BY "id"`));
  if (erased.length) {
    const [, ...copies] = formDataCopies(eraser.accountId, erased.map((row) => row.id));
    for (const statement of copies) await tx.sql(rawStatement(statement));
  }
  return erased;
}

/** `DELETE /submissions/{id}`: another account's id reads as absent. */
export async function deleteSubmission(db: DriverSql, reader: Reader, id: number): Promise<void> {
  const erased = await db.transaction((tx) => eraseSubmissions(tx, reader, [id]));
  if (erased.length === 0) throw notFound('submission');
}
