import type { AppDeps } from '../../deps.js';
import type { Database } from '../../infra/db.js';
import { AppError, notFound } from '../../errors.js';
import { Prisma, type PrismaClient, type Submission } from '../../generated/prisma/client.js';
import { recordSubmissionReads } from './audit.service.js';
import { outboxInsertSql, type Present } from '../webhooks/events.service.js';
import { FORM_VERSION_BUMP } from '../forms/form-version.js';
import { assertValidIdempotencyKey, claimIdempotencyKey, claimInsertSql, fingerprint, releaseClaim } from './idempotency.service.js';
import { skipTake, toPage, type Page, type PageRequest } from '../pagination.js';
import { PhiDecryptError, type PhiCipher } from '../../infra/phi-crypto.js';
import { isPlainObject } from '../validation.js';
import { assertCreatedRange, totalPlan, type CreatedRange } from '../list-filters.js';

export const MAX_FORM_DATA_FIELDS = 50;
export const MAX_FORM_DATA_BYTES = 51_200;


/** PHI forms keep only ciphertext at rest; everything else reads the plain column. */
export function readFormData(phi: PhiCipher, submission: Pick<Submission, 'formData' | 'formDataCiphertext' | 'formDataKeyId'>): unknown {
  if (submission.formDataCiphertext && submission.formDataKeyId) {
    try {
      return phi.decrypt(submission.formDataCiphertext, submission.formDataKeyId);
    } catch (error) {
      // A rotation without SECRET_KEY_PREVIOUS (or a damaged row) is the service's state, not a crash: say so, retryable.
      if (error instanceof PhiDecryptError) throw new AppError('phi_key_unavailable');
      throw error;
    }
  }
  return submission.formData ?? {};
}

/** Who reads: PHI reads are written to the audit log with the key that made them. */
export interface Reader {
  accountId: number;
  apiKeyId: number | null;
}

/** Every read of a PHI form's submissions is audited (one INSERT per page); only PHI rows carry a key id. */
export async function auditPhiReads(prisma: PrismaClient, reader: Reader, submissions: Submission[]): Promise<void> {
  // The key id marks an encrypted (PHI) row even when a read leaves its formData out: listing it is still a read.
  const phiIds = submissions.filter((submission) => submission.formDataKeyId !== null).map((submission) => submission.id);
  if (phiIds.length) await recordSubmissionReads(prisma, reader, phiIds);
}

const FORM_DATA = Prisma.raw('s."formData", s."formDataCiphertext"');
const NO_FORM_DATA = Prisma.raw('NULL::jsonb AS "formData", NULL::bytea AS "formDataCiphertext"');

const SOURCE_DOMAIN = Prisma.raw('s."sourceDomain"');
const NO_SOURCE_DOMAIN = Prisma.raw('NULL::text AS "sourceDomain"');

/**
 * Every column of a Submission row aliased `s`, for hand-written reads that return whole submissions; formData
 * (plain or sealed) and sourceDomain are left out, as null, for reads that do not show them (a dashboard listing
 * ids and dates would otherwise move and decode every form's data).
 */
export const submissionColumns = (withFormData: boolean, withSourceDomain = true): Prisma.Sql =>
  Prisma.sql`s."id", s."accountId", s."formId", ${withFormData ? FORM_DATA : NO_FORM_DATA}, s."formDataKeyId", ${withSourceDomain ? SOURCE_DOMAIN : NO_SOURCE_DOMAIN}, s."createdAt"`;

type PageRow = Submission & { total: number };

export interface SubmissionListFilter extends PageRequest, CreatedRange {}

/** The page's createdAt bounds, as SQL conditions on the alias `alias`. */
function createdAtConditions(alias: string, range: CreatedRange): Prisma.Sql {
  const column = Prisma.raw(`${alias}."createdAt"`);
  return Prisma.sql`${range.createdFrom != null ? Prisma.sql`AND ${column} >= ${range.createdFrom}` : Prisma.empty}
    ${range.createdBefore != null ? Prisma.sql`AND ${column} < ${range.createdBefore}` : Prisma.empty}`;
}

/** The total of the (filtered) list, from the form's counter where it can (see totalPlan). */
function totalSql(range: CreatedRange): Prisma.Sql {
  const plan = totalPlan(range, false);
  if (plan.kind === 'counter') return Prisma.sql`f."submissionCount"`;
  if (plan.kind === 'counterMinusNewer') {
    return Prisma.sql`f."submissionCount" - (SELECT count(*)::int FROM "Submission" c WHERE c."formId" = f."id" AND c."createdAt" >= ${plan.createdBefore})`;
  }
  return Prisma.sql`(SELECT count(*)::int FROM "Submission" c WHERE c."formId" = f."id" ${createdAtConditions('c', range)})`;
}

/**
 * Submissions of an active or archived form (archiving preserves them), newest first, in ONE statement whether
 * filtered or not: the form (scoped to the account, so another account's form reads as absent) with its total,
 * joined to the page. A form without submissions on that page still answers one row, whose submission columns
 * are null. A createdAt window walks the (formId, createdAt, id) index for both the page and its count.
 */
export async function listFormSubmissions(db: Database, reader: Reader, formId: number, filter: SubmissionListFilter): Promise<Page<Submission>> {
  assertCreatedRange(filter);
  const { skip, take } = skipTake(filter);
  const rows = await db.sql<PageRow>(Prisma.sql`
    SELECT ${submissionColumns(true)}, ${totalSql(filter)} AS "total"
    FROM "Form" f
    LEFT JOIN LATERAL (
      SELECT * FROM "Submission" p WHERE p."formId" = f."id" ${createdAtConditions('p', filter)}
      ORDER BY p."createdAt" DESC, p."id" DESC LIMIT ${take} OFFSET ${skip}
    ) s ON true
    WHERE f."id" = ${formId} AND f."accountId" = ${reader.accountId}`);
  const first = rows[0];
  if (!first) throw notFound('form');
  // Named properties, not `{ ...rest }` (V8's slow path, per row).
  const data = rows
    .filter((row) => row.id !== null)
    .map((row) => ({
      id: row.id,
      accountId: row.accountId,
      formId: row.formId,
      formData: row.formData,
      formDataCiphertext: row.formDataCiphertext,
      formDataKeyId: row.formDataKeyId,
      sourceDomain: row.sourceDomain,
      createdAt: row.createdAt,
    }));
  await auditPhiReads(db.prisma, reader, data);
  return toPage(data, filter, first.total);
}

export async function getSubmissionOrThrow(prisma: PrismaClient, reader: Reader, id: number): Promise<Submission> {
  const submission = await prisma.submission.findFirst({ where: { id, accountId: reader.accountId } });
  if (!submission) throw notFound('submission');
  await auditPhiReads(prisma, reader, [submission]);
  return submission;
}

const DAY_MS = 24 * 60 * 60 * 1000;
export const MAX_STATS_DAYS = 366;

export interface DailyCount {
  date: string;
  count: number;
}

/**
 * Submissions per UTC day of [from, to), every day present (zeros included), in ONE statement. Another account's
 * form simply counts nothing, like an absent one.
 */
export async function dailySubmissionCounts(db: Database, accountId: number, formId: number, from: Date, to: Date): Promise<DailyCount[]> {
  const start = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()));
  const days = Math.ceil((to.getTime() - start.getTime()) / DAY_MS);
  if (!(to > from) || days > MAX_STATS_DAYS) {
    throw new AppError('validation_failed', { fields: [{ field: 'to', message: `must be after from, at most ${MAX_STATS_DAYS} days later` }] });
  }
  const rows = await db.sql<DailyCount>(Prisma.sql`
    SELECT to_char(date_trunc('day', "createdAt"), 'YYYY-MM-DD') AS "date", count(*)::int AS "count"
    FROM "Submission"
    WHERE "formId" = ${formId} AND "accountId" = ${accountId} AND "createdAt" >= ${from} AND "createdAt" < ${to}
    GROUP BY 1`);
  const byDate = new Map(rows.map((row) => [row.date, row.count]));
  return Array.from({ length: days }, (_, i) => {
    const date = new Date(start.getTime() + i * DAY_MS).toISOString().slice(0, 10);
    return { date, count: byDate.get(date) ?? 0 };
  });
}

/** Ingest rule 1 and the decided limits; `used` is the UTF-8 byte length of the serialized formData. */
export function assertFormDataWithinLimits(formData: unknown): asserts formData is Record<string, unknown> {
  if (!isPlainObject(formData)) {
    throw new AppError('validation_failed', { fields: [{ field: 'formData', message: 'must be an object' }] });
  }
  const keys = Object.keys(formData).length;
  if (keys > MAX_FORM_DATA_FIELDS) throw new AppError('too_many_fields', { cap: MAX_FORM_DATA_FIELDS, used: keys });
  const bytes = Buffer.byteLength(JSON.stringify(formData), 'utf8');
  if (bytes > MAX_FORM_DATA_BYTES) throw new AppError('payload_too_large', { cap: MAX_FORM_DATA_BYTES, used: bytes });
}

export interface IngestResult {
  submission: Submission;
  formData: unknown;
  replayed: boolean;
}

/**
 * The widget's pipeline: the submission, its form's counter, the idempotency record and its event (fanned out to
 * webhooks and emails by the worker) are written by ONE statement, so nothing is announced that was not stored
 * and nothing stored goes unannounced.
 */
export async function ingestSubmission(
  deps: Pick<AppDeps, 'db' | 'phi'>,
  accountId: number,
  formId: number,
  formData: unknown,
  idempotencyKey: string | null,
  /** The submission as v1 shows it, for the `submission.created` event recorded in the same statement. */
  present: Present<Submission>,
): Promise<IngestResult> {
  const prisma = deps.db.prisma;
  assertFormDataWithinLimits(formData);
  if (idempotencyKey !== null) assertValidIdempotencyKey(idempotencyKey);
  const print = idempotencyKey === null ? null : fingerprint(`POST /forms/${formId}/submissions`, formData);
  // The form lookup reserves the submission's id (so that the event, which carries it, is complete before the
  // write) and claims a fresh Idempotency-Key of an active form.
  const claimSql = idempotencyKey !== null && print !== null ? claimInsertSql(accountId, idempotencyKey, print, new Date(), Prisma.sql`FROM "target" WHERE "target"."archivedAt" IS NULL`) : null;
  const [form] = await deps.db.sql<{ archivedAt: Date | null; phi: boolean; submissionId: number | null; recordId: number | null }>(Prisma.sql`
    WITH "target" AS (SELECT "archivedAt", "phi" FROM "Form" WHERE "id" = ${formId} AND "accountId" = ${accountId})
    ${claimSql ? Prisma.sql`, "claim" AS (${claimSql})` : Prisma.empty}
    SELECT "target".*,
           CASE WHEN "target"."archivedAt" IS NULL THEN nextval(pg_get_serial_sequence('"Submission"', 'id'))::int END AS "submissionId",
           ${claimSql ? Prisma.sql`(SELECT "id" FROM "claim")` : Prisma.sql`NULL::int`} AS "recordId"
    FROM "target"`);
  if (!form) throw notFound('form');

  let recordId = form.recordId;
  if (idempotencyKey !== null && print !== null && recordId === null) {
    // The key is taken (a replay, a request still running, an expired record) or the form is archived: the full rules.
    const claim = await claimIdempotencyKey(deps.db, accountId, idempotencyKey, print);
    if (claim.kind === 'replay') {
      const submission = await prisma.submission.findUnique({ where: { id: claim.submissionId } });
      // Erasure marks the record in the transaction that deletes the row; this only guards a 500.
      if (!submission) throw notFound('submission');
      return { submission, formData: readFormData(deps.phi, submission), replayed: true };
    }
    recordId = claim.recordId;
  }

  try {
    if (form.archivedAt || form.submissionId === null) throw new AppError('form_archived');
    const sealed = form.phi ? deps.phi.encrypt(formData) : null;
    const submission: Submission = {
      id: form.submissionId,
      accountId,
      formId,
      formData: sealed ? null : (formData as Prisma.JsonObject),
      formDataCiphertext: sealed ? Buffer.from(sealed.ciphertext) : null,
      formDataKeyId: sealed?.keyId ?? null,
      sourceDomain: null,
      createdAt: new Date(),
    };
    // Presented from the plain formData: a PHI form's event keeps ids only (eventData), so nothing is decrypted for it.
    const data = await present({ ...submission, formData: sealed ? null : submission.formData, formDataCiphertext: null, formDataKeyId: null });
    const event = outboxInsertSql({ type: 'submission.created', accountId, formId, phi: form.phi, data });
    // ONE statement, atomic by itself: stores the row, counts it on its form (raw: Prisma's @updatedAt would
    // otherwise move the form's updatedAt on every submission), completes the idempotency claim and records the event.
    const [stored] = await deps.db.sql<{ id: number }>(Prisma.sql`
      WITH created AS (
        INSERT INTO "Submission" ("id", "accountId", "formId", "formData", "formDataCiphertext", "formDataKeyId", "createdAt")
        VALUES (${submission.id}, ${accountId}, ${formId}, ${sealed ? null : JSON.stringify(formData)}::jsonb,
                ${submission.formDataCiphertext}::bytea, ${submission.formDataKeyId}, ${submission.createdAt})
        RETURNING "id"
      ), counted AS (
        UPDATE "Form" SET "submissionCount" = "submissionCount" + 1, ${FORM_VERSION_BUMP} WHERE "id" = ${formId}
      ), claimed AS (
        UPDATE "IdempotencyRecord" SET "submissionId" = (SELECT "id" FROM created), "completedAt" = now()
        WHERE "id" = ${recordId ?? 0}
      ), recorded AS (${event})
      SELECT "id" FROM created`);
    if (!stored) throw new Error('the submission insert returned no row');
    return { submission, formData, replayed: false };
  } catch (error) {
    if (recordId !== null) await releaseClaim(prisma, recordId);
    throw error;
  }
}
