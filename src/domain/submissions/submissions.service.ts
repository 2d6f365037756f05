import type { SelectQueryBuilder } from 'kysely';
import type { DriverSql, SqlExecutor } from '../../infra/db-driver.js';
import { preparedQuery, sql, sqlBuilder } from '../../infra/sql.js';
import { AppError, notFound } from '../../errors.js';
import type { Prisma, Submission } from '../../generated/prisma/client.js';
import { recordSubmissionReads } from './audit.service.js';
import { outboxRow } from '../webhooks/events.service.js';
import { FORM_VERSION_BUMP } from '../forms/form-version.js';
import { assertValidIdempotencyKey, claimIdempotencyKey, claimInsert, claimRecord, claimValues, fingerprint, releaseClaim, type ClaimRecord } from './idempotency.service.js';
import { cursorModePage, pageModePage, skipTake, type WalkPage, type WalkRequest } from '../pagination.js';
import { decodeCursor, encodeCursor, type ListKey } from '../list-cursor.js';
import { PhiDecryptError, type PhiCipher } from '../../infra/phi-crypto.js';
import { isPlainObject } from '../validation.js';
import { assertCreatedRange, type CreatedRange } from '../list-filters.js';
import { dayCounts, floorDay, windowParts, windowTotal, type WindowParts } from './window-total.js';

/*
 * Submissions are a hot resource: read and written only through src/infra/sql.ts (ingest's one statement, erasure's,
 * every list and get, mapped by submissionOf), never through Prisma. The rule and its check: src/domain/README.md.
 */

export const MAX_FORM_DATA_FIELDS = 50;
export const MAX_FORM_DATA_BYTES = 51_200;


/** PHI forms keep only ciphertext at rest; everything else reads the plain column. */
export function readFormData(phi: PhiCipher, submission: Pick<Submission, 'formDataCiphertext' | 'formDataKeyId'> & { formData: unknown }): unknown {
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
export async function auditPhiReads(db: SqlExecutor, reader: Reader, submissions: Submission[]): Promise<void> {
  // The key id marks an encrypted (PHI) row even when a read leaves its formData out: listing it is still a read.
  const phiIds = submissions.filter((submission) => submission.formDataKeyId !== null).map((submission) => submission.id);
  if (phiIds.length) await recordSubmissionReads(db, reader, phiIds);
}

export interface SubmissionListFilter extends WalkRequest, CreatedRange {}

/** Which createdAt bounds apply (the statement's shape); their values are parameters. */
interface WindowShape {
  from: boolean;
  before: boolean;
}

interface WindowValues {
  createdFrom: Date | null;
  createdBefore: Date | null;
}

const windowShape = (range: CreatedRange): WindowShape => ({ from: range.createdFrom != null, before: range.createdBefore != null });

/** `query` limited to the createdAt window, on the column `column` (an aliased "createdAt"). */
function inCreatedRange<D, TB extends keyof D, O>(query: SelectQueryBuilder<D, TB, O>, column: string, shape: WindowShape, values: WindowValues): SelectQueryBuilder<D, TB, O> {
  const createdAt = sql.ref<Date>(column);
  let limited = query;
  if (shape.from) limited = limited.where(createdAt, '>=', values.createdFrom);
  if (shape.before) limited = limited.where(createdAt, '<', values.createdBefore);
  return limited;
}

/** Where a read of rows starts: at an offset (page mode), or after a cursor's position (cursor mode, §7.6). */
interface StartShape {
  after: boolean;
}

interface StartValues {
  take: number;
  skip: number;
  afterCreatedAt: Date | null;
  afterId: number | null;
}

/**
 * The newest submissions of the form aliased `f` (a page of them, in the window), as the lateral subquery `s`:
 * it walks the (formId, createdAt desc, id desc) index once per form, so its cost follows the page, not the table.
 * After a cursor, the row comparison is an index condition on the same index: a page at any depth reads only its rows.
 * Both lists of submissions (one form's page, the newest of each form of a page) read through it.
 */
const newestSubmissionsOfForm = (shape: WindowShape & StartShape, values: WindowValues & StartValues) => {
  const rows = inCreatedRange(sqlBuilder.selectFrom('Submission as p').selectAll('p').where('p.formId', '=', sql.ref<number>('f.id')), 'p.createdAt', shape, values);
  const started = shape.after ? rows.where(sql<boolean>`("p"."createdAt", "p"."id") < (${values.afterCreatedAt}, ${values.afterId})`) : rows;
  const ordered = started.orderBy('p.createdAt', 'desc').orderBy('p.id', 'desc').limit(values.take);
  return (shape.after ? ordered : ordered.offset(values.skip)).as('s');
};

/** A submission's columns in `s` that every read of rows carries. */
const SUBMISSION_COLUMNS = ['s.id', 's.accountId', 's.formId', 's.formDataKeyId', 's.createdAt'] as const;
const FORM_DATA_COLUMNS = ['s.formData', 's.formDataCiphertext'] as const;

/** Which costly columns a read of submissions carries besides SUBMISSION_COLUMNS. */
export interface SubmissionColumns {
  formData: boolean;
  sourceDomain: boolean;
}

/**
 * The columns of `s` a read of rows asks for: formData (plain or sealed) and sourceDomain only when `columns` says,
 * and left undefined on the rows otherwise (a dashboard listing ids and dates would otherwise move and decode every
 * form's data, or carry three nulls per row). The one list for every read of rows; typed as if all were read.
 */
export const submissionColumns = (columns: SubmissionColumns) =>
  [...SUBMISSION_COLUMNS, ...(columns.formData ? FORM_DATA_COLUMNS : []), ...(columns.sourceDomain ? (['s.sourceDomain'] as const) : [])] as unknown as readonly [
    ...typeof SUBMISSION_COLUMNS,
    ...typeof FORM_DATA_COLUMNS,
    's.sourceDomain',
  ];

/** How the page's total is read: none (cursor mode), the form's counter, or the window's (window-total.ts). */
type CountShape = 'none' | 'counter' | 'window';

const countShape = (shape: WindowShape & StartShape): CountShape => (shape.after ? 'none' : shape.from || shape.before ? 'window' : 'counter');

interface SubmissionPageValues extends WindowValues, StartValues, WindowParts, Record<string, unknown> {
  formId: number;
  accountId: number;
}

/**
 * The form with its page: in page mode with its total, read ONCE per request: the counter column, or a window's
 * total from the day counts plus its edge rows, in a materialized CTE (a count in the SELECT list is a subplan run
 * once per returned row). The CTE is not scoped to the account: its one value is only read on the row of the
 * account's form, and another account's form answers no row at all.
 */
const submissionPage = preparedQuery((shape: WindowShape & StartShape, values: SubmissionPageValues) => {
  const count = countShape(shape);
  const total = count === 'window' ? sql<number>`t."n"` : count === 'counter' ? sql<number>`f."submissionCount"` : sql<number>`0`;
  const base = count === 'window' ? sqlBuilder.with((cte) => cte('t').materialized(), () => windowTotal(shape, values)).selectFrom(['Form as f', 't']) : sqlBuilder.selectFrom('Form as f');
  return base
    .leftJoinLateral(() => newestSubmissionsOfForm(shape, values), (join) => join.onTrue())
    .select(SUBMISSION_COLUMNS)
    .select(['s.formData', 's.formDataCiphertext', 's.sourceDomain'])
    .select(total.as('total'))
    .where('f.id', '=', values.formId)
    .where('f.accountId', '=', values.accountId);
});

/** `formIds` as PostgreSQL's array text (`{1,2,3}`): pg would build it from an array one element at a time. */
const newestOfForms = preparedQuery((columns: SubmissionColumns, values: { formIds: string; limit: number }) =>
  sqlBuilder
    .selectFrom('Form as f')
    .innerJoinLateral(() => newestSubmissionsOfForm({ from: false, before: false, after: false }, { createdFrom: null, createdBefore: null, take: values.limit, skip: 0, afterCreatedAt: null, afterId: null }), (join) => join.onTrue())
    .select(submissionColumns(columns))
    .where(sql<boolean>`f."id" = ANY(${values.formIds}::int[])`),
);

/** A submission row as Prisma's client shows it. Named properties, not `{ ...rest }` (V8's slow path, per row). */
export const submissionOf = (row: Omit<Submission, 'formData'> & { formData: unknown }): Submission => ({
  id: row.id,
  accountId: row.accountId,
  formId: row.formId,
  formData: row.formData as Prisma.JsonValue,
  formDataCiphertext: row.formDataCiphertext,
  formDataKeyId: row.formDataKeyId,
  sourceDomain: row.sourceDomain,
  createdAt: row.createdAt,
});

/** The list a submissions cursor walks: one form's submissions with one window. */
export const submissionsListKey = (accountId: number, formId: number, range: CreatedRange): ListKey => ({
  accountId,
  list: `form:${formId}:submissions`,
  filters: { createdFrom: range.createdFrom, createdBefore: range.createdBefore },
});

/**
 * Submissions of an active or archived form (archiving preserves them), newest first, in ONE statement whether
 * filtered or not: the form (scoped to the account, so another account's form reads as absent) with its total in
 * page mode, joined to the page. A form without submissions on that page still answers one row, whose submission
 * columns are null. A createdAt window walks the (formId, createdAt, id) index for the page, and its total sums
 * the form's day counts with the rows of its two edge days (window-total.ts); a cursor page (§7.6) reads `limit + 1` rows after the cursor's position along the same index and counts nothing.
 */
export async function listFormSubmissions(db: SqlExecutor, reader: Reader, formId: number, filter: SubmissionListFilter): Promise<WalkPage<Submission>> {
  assertCreatedRange(filter);
  const key = submissionsListKey(reader.accountId, formId, filter);
  const after = filter.after !== null ? decodeCursor(key, filter.after) : null;
  const { skip, take } = after ? { skip: 0, take: filter.limit + 1 } : skipTake({ page: filter.page ?? 1, limit: filter.limit });
  const rows = await db.sql(
    submissionPage(
      { ...windowShape(filter), after: after !== null },
      {
        formId,
        accountId: reader.accountId,
        take,
        skip,
        createdFrom: filter.createdFrom ?? null,
        createdBefore: filter.createdBefore ?? null,
        afterCreatedAt: after?.createdAt ?? null,
        afterId: after?.id ?? null,
        ...windowParts(filter),
      },
    ),
  );
  const first = rows[0];
  if (!first) throw notFound('form');
  const data: Submission[] = [];
  for (const row of rows) {
    if (row.id === null || row.accountId === null || row.formId === null || row.createdAt === null) continue;
    data.push(submissionOf({ ...row, id: row.id, accountId: row.accountId, formId: row.formId, createdAt: row.createdAt }));
  }
  const nextOf = (last: Submission) => encodeCursor(key, last);
  // Only the rows returned are read (the extra row of a cursor page only says that more follow).
  const page = after ? cursorModePage(data, filter.limit, nextOf) : pageModePage(data, { page: filter.page ?? 1, limit: filter.limit }, first.total, nextOf);
  await auditPhiReads(db, reader, page.data);
  return page;
}

/**
 * The newest `limit` submissions of each of `formIds`, in ONE statement (a GraphQL page's forms, batched by
 * src/execution/loaders.ts); formData and sourceDomain only when `columns` asks. Auditing the reads is the caller's
 * (it knows the viewer).
 */
export async function newestSubmissionsOfForms(db: SqlExecutor, formIds: readonly number[], limit: number, columns: SubmissionColumns): Promise<Submission[]> {
  // Ids are integers (the loader's keys), so the literal needs no quoting.
  const rows = await db.sql(newestOfForms(columns, { formIds: `{${formIds.join(',')}}`, limit }));
  // Each row carries a Submission's columns as read (jsonb parsed, timestamps as UTC Dates; those `columns` leaves
  // out undefined, and no field reads them): used as they come, not copied (a dashboard reads 500 per request).
  return rows as (Omit<Submission, 'formData'> & { formData: unknown })[] as Submission[];
}

/**
 * One submission of the account: every column a read carries (named, never `*`: a column a migration adds must not
 * change what a prepared statement returns, test/database/rolling-migration.test.ts), mapped as the list's rows are
 * (submissionOf).
 */
const submissionById = preparedQuery((_shape: null, values: { accountId: number; id: number }) =>
  sqlBuilder
    .selectFrom('Submission as s')
    .select(submissionColumns({ formData: true, sourceDomain: true }))
    .where('s.id', '=', values.id)
    .where('s.accountId', '=', values.accountId),
);

async function findSubmission(db: SqlExecutor, accountId: number, id: number): Promise<Submission> {
  const [row] = await db.sql(submissionById(null, { accountId, id }));
  if (!row) throw notFound('submission');
  return submissionOf(row);
}

export async function getSubmissionOrThrow(db: SqlExecutor, reader: Reader, id: number): Promise<Submission> {
  const submission = await findSubmission(db, reader.accountId, id);
  await auditPhiReads(db, reader, [submission]);
  return submission;
}

const DAY_MS = 24 * 60 * 60 * 1000;
export const MAX_STATS_DAYS = 366;

export interface DailyCount {
  date: string;
  count: number;
}

/**
 * Submissions per UTC day of [from, to), every day present (zeros included), in ONE statement that reads the form's
 * day counts and only the rows of the partial days at its ends (window-total.ts `dayCounts`). Another account's form
 * simply counts nothing, like an absent one.
 */
export async function dailySubmissionCounts(db: SqlExecutor, accountId: number, formId: number, from: Date, to: Date): Promise<DailyCount[]> {
  const start = floorDay(from);
  const days = Math.ceil((to.getTime() - start.getTime()) / DAY_MS);
  if (!(to > from) || days > MAX_STATS_DAYS) {
    throw new AppError('validation_failed', { fields: [{ field: 'to', message: `must be after from, at most ${MAX_STATS_DAYS} days later` }] });
  }
  const rows = await db.sql(dayCounts(accountId, formId, from, to));
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

/** The ingest's form lookup: the form (the account's), and the submission's id reserved unless it is archived. */
const ingestTarget = (values: { formId: number; accountId: number }) =>
  sqlBuilder.with('target', (db) => db.selectFrom('Form').select(['archivedAt', 'phi']).where('id', '=', values.formId).where('accountId', '=', values.accountId));
const RESERVED_ID = sql<number | null>`CASE WHEN "target"."archivedAt" IS NULL THEN nextval(pg_get_serial_sequence('"Submission"', 'id'))::int END`.as('submissionId');

const formLookup = preparedQuery((_shape: null, values: { formId: number; accountId: number }) =>
  ingestTarget(values).selectFrom('target').select(['target.archivedAt', 'target.phi', RESERVED_ID, sql<number | null>`NULL::int`.as('recordId')]),
);

/** The same, claiming a fresh Idempotency-Key of an active form in the same statement. */
const claimingFormLookup = preparedQuery((_shape: null, values: ClaimRecord & { formId: number }) =>
  ingestTarget(values)
    .with('claim', (db) => claimInsert(db, db.selectFrom('target').select(claimValues(values)).where('target.archivedAt', 'is', null)))
    .selectFrom('target')
    .select(['target.archivedAt', 'target.phi', RESERVED_ID, (eb) => eb.selectFrom('claim').select('claim.id').as('recordId')]),
);

interface StoredSubmission extends Record<string, unknown> {
  id: number;
  accountId: number;
  formId: number;
  formData: string | null;
  formDataCiphertext: Uint8Array<ArrayBuffer> | null;
  formDataKeyId: string | null;
  createdAt: Date;
  /** The UTC day of createdAt (window-total.ts floorDay). */
  createdDay: Date;
  recordId: number;
  /** The event's outbox row (events.service.ts `outboxRow`); its account and form are the submission's. */
  eventId: string;
  eventType: string;
  eventPayload: string;
  eventCreatedAt: Date;
  eventTraceparent: string | null;
}

/**
 * ONE statement, atomic by itself: stores the row, counts it on its form and its day (raw: Prisma's @updatedAt would
 * otherwise move the form's updatedAt on every submission), completes the idempotency claim and records the
 * event.
 */
const storeSubmission = preparedQuery((_shape: null, values: StoredSubmission) =>
  sqlBuilder
    .with('created', (db) =>
      db
        .insertInto('Submission')
        .values({
          id: values.id,
          accountId: values.accountId,
          formId: values.formId,
          formData: values.formData,
          formDataCiphertext: values.formDataCiphertext,
          formDataKeyId: values.formDataKeyId,
          createdAt: values.createdAt,
        })
        .returning('id'),
    )
    .with('counted', (db) => db.updateTable('Form').set({ submissionCount: sql<number>`"submissionCount" + 1`, ...FORM_VERSION_BUMP }).where('id', '=', values.formId))
    // Its day's count, for window totals (window-total.ts); listed after the form's counter, as in erasure's statement,
    // so that both take the two row locks in one order.
    .with('countedDay', (db) =>
      db
        .insertInto('FormSubmissionDay')
        .values({ formId: values.formId, day: values.createdDay, count: 1 })
        .onConflict((conflict) => conflict.columns(['formId', 'day']).doUpdateSet({ count: sql<number>`"FormSubmissionDay"."count" + 1` })),
    )
    .with('claimed', (db) =>
      db
        .updateTable('IdempotencyRecord')
        .set((eb) => ({ submissionId: eb.selectFrom('created').select('created.id'), completedAt: sql<Date>`now()` }))
        .where('id', '=', values.recordId),
    )
    .with('recorded', (db) =>
      db.insertInto('OutboxEvent').values({
        accountId: values.accountId,
        formId: values.formId,
        eventId: values.eventId,
        type: values.eventType,
        payload: values.eventPayload,
        createdAt: values.eventCreatedAt,
        traceparent: values.eventTraceparent,
      }),
    )
    .selectFrom('created')
    .select('created.id'),
);

/**
 * An ingest between its two steps (`beginIngest`, `storeIngest`): the form looked up, the submission's id reserved
 * and the Idempotency-Key (if any) claimed; nothing stored yet.
 */
export interface IngestDraft {
  replayed: false;
  /** The submission as it will be stored (a PHI form's formData sealed). */
  submission: Submission;
  formData: unknown;
  /**
   * The submission as its `submission.created` event shows it, for the caller to present: from the plain formData,
   * so nothing is decrypted for it (a PHI form's event keeps ids only: eventData).
   */
  eventSubmission: Submission;
  phi: boolean;
  /** The claimed idempotency record, released if the ingest fails before it is stored. */
  recordId: number | null;
}

/**
 * The widget's pipeline, in two steps so that the caller presents the event's data between them (the domain takes
 * no presenter): `beginIngest` looks the form up, reserves the submission's id (so that the event, which carries
 * it, is complete before the write) and claims a fresh Idempotency-Key; it answers a replay, or a draft. The caller
 * presents `draft.eventSubmission` as v1 shows a submission and hands that to `storeIngest`, which writes the
 * submission, its form's counter, the idempotency record and its event (fanned out to webhooks and emails by the
 * worker) by ONE statement, so nothing is announced that was not stored and nothing stored goes unannounced. A
 * failure after the claim (an archived form, the presentation, the write) releases it.
 */
export async function beginIngest(
  deps: { db: DriverSql; phi: PhiCipher },
  accountId: number,
  formId: number,
  formData: unknown,
  idempotencyKey: string | null,
): Promise<IngestDraft | (IngestResult & { replayed: true })> {
  assertFormDataWithinLimits(formData);
  if (idempotencyKey !== null) assertValidIdempotencyKey(idempotencyKey);
  const print = idempotencyKey === null ? null : fingerprint(`POST /forms/${formId}/submissions`, formData);
  const [form] = await deps.db.sql(
    idempotencyKey !== null && print !== null
      ? claimingFormLookup(null, { ...claimRecord(accountId, idempotencyKey, print, new Date()), formId })
      : formLookup(null, { formId, accountId }),
  );
  if (!form) throw notFound('form');

  let recordId = form.recordId;
  if (idempotencyKey !== null && print !== null && recordId === null) {
    // The key is taken (a replay, a request still running, an expired record) or the form is archived: the full rules.
    const claim = await claimIdempotencyKey(deps.db, accountId, idempotencyKey, print);
    if (claim.kind === 'replay') {
      // Erasure marks the record in the transaction that deletes the row; a missing row (404) only guards a 500.
      const submission = await findSubmission(deps.db, accountId, claim.submissionId);
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
    const eventSubmission = { ...submission, formData: sealed ? null : submission.formData, formDataCiphertext: null, formDataKeyId: null };
    return { replayed: false, submission, formData, eventSubmission, phi: form.phi, recordId };
  } catch (error) {
    if (recordId !== null) await releaseClaim(deps.db, recordId);
    throw error;
  }
}

/**
 * Stores a draft (`beginIngest`) with its `submission.created` event, `eventData` the draft's `eventSubmission` as
 * v1 shows it, in ONE statement. `eventData` is the presentation under way: if it fails, or the write does, the
 * claim is released.
 */
export async function storeIngest(deps: { db: DriverSql }, draft: IngestDraft, eventData: Promise<Record<string, unknown>>): Promise<IngestResult> {
  const { submission, formData, recordId } = draft;
  try {
    const data = await eventData;
    const event = outboxRow({ type: 'submission.created', accountId: submission.accountId, formId: submission.formId, phi: draft.phi, data });
    const [stored] = await deps.db.sql(
      storeSubmission(null, {
        id: submission.id,
        accountId: submission.accountId,
        formId: submission.formId,
        formData: submission.formDataCiphertext ? null : JSON.stringify(formData),
        formDataCiphertext: submission.formDataCiphertext,
        formDataKeyId: submission.formDataKeyId,
        createdAt: submission.createdAt,
        createdDay: floorDay(submission.createdAt),
        recordId: recordId ?? 0,
        eventId: event.eventId,
        eventType: event.type,
        eventPayload: event.payload,
        eventCreatedAt: event.createdAt,
        eventTraceparent: event.traceparent,
      }),
    );
    if (!stored) throw new Error('the submission insert returned no row');
    return { submission, formData, replayed: false };
  } catch (error) {
    if (recordId !== null) await releaseClaim(deps.db, recordId);
    throw error;
  }
}
