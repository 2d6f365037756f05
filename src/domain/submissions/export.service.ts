import type { DriverSql } from '../../infra/db-driver.js';
import { notFound } from '../../errors.js';
import type { Submission } from '../../generated/prisma/client.js';
import { sql, sqlBuilder } from '../../infra/sql.js';
import type { PhiCipher } from '../../infra/phi-crypto.js';
import type { CreatedRange } from '../created-range.js';
import { isPlainObject } from '../validation.js';
import { recordAuditBatch } from './audit.service.js';
import { csvHeader, csvRow, exportColumns, type ExportColumns } from './export-csv.js';
import { readFormData, submissionColumns, submissionOf, type Reader } from './submissions.service.js';

/**
 * `GET /forms/{id}/submissions/export` (contract §6.4): a form's submissions, oldest first (createdAt, id), read
 * in keyset batches of BATCH rows, each its own short statement, the next one read while the current one is sent:
 * no connection or cursor is held while the client reads, so a slow or vanished client costs the pool nothing, and
 * memory is two batches whatever the number of rows. The caller pulls chunks only as fast as the client reads them
 * (src/rest/streamed-body.ts), so a client that stops reading stops the reads one batch later.
 *
 * CSV needs every formData key before its header ("other keys sorted"): a first pass reads the keys only, up to
 * the newest row in range at that moment, and the rows pass stops at that same row, so header and rows describe
 * the same submissions. Plain forms: ONE statement (`jsonb_object_keys`, DISTINCT in the database). PHI forms:
 * their data is sealed, so the first pass decrypts batch by batch, keeping only the set of keys (decrypting each
 * row twice in all: CPU, not memory). A submission stored during the export with an older createdAt than rows
 * already passed (a concurrent ingest) may be left out, as in any keyset walk; one whose keys the first pass did
 * not see shows those values in no column.
 */

export type ExportFormat = 'ndjson' | 'csv';

const BATCH = 500;
/** Lines are gathered into chunks of about this many characters: one socket write per chunk, not per row. */
const CHUNK = 64 * 1024;

export interface ExportForm {
  id: number;
  phi: boolean;
  fields: unknown;
}

interface Position {
  createdAt: Date;
  id: number;
}

interface ExportQuery {
  form: ExportForm;
  accountId: number;
  range: CreatedRange;
}

/** The form, active or archived (its submissions stay readable); another account's reads as absent. */
export async function getExportableFormOrThrow(db: DriverSql, accountId: number, formId: number): Promise<ExportForm> {
  const [form] = await db.sql(sqlBuilder.selectFrom('Form').select(['id', 'phi', 'fields']).where('id', '=', formId).where('accountId', '=', accountId));
  if (!form) throw notFound('form');
  return form;
}

/** The form's submissions in the range, after `after` and up to `upTo` (keyset positions) when given. */
function submissionsIn({ form, accountId, range }: ExportQuery, after: Position | null, upTo: Position | null) {
  let query = sqlBuilder.selectFrom('Submission as s').where('s.formId', '=', form.id).where('s.accountId', '=', accountId);
  if (range.from) query = query.where('s.createdAt', '>=', range.from);
  if (range.before) query = query.where('s.createdAt', '<', range.before);
  if (after) query = query.where((eb) => eb(eb.refTuple('s.createdAt', 's.id'), '>', eb.tuple(after.createdAt, after.id)));
  if (upTo) query = query.where((eb) => eb(eb.refTuple('s.createdAt', 's.id'), '<=', eb.tuple(upTo.createdAt, upTo.id)));
  return query;
}

const EVERY_COLUMN = submissionColumns({ formData: true, sourceDomain: true });

/**
 * The batches in order. The next batch is read while the caller works through the current one (one batch ahead,
 * no more): the database round trip overlaps the serialising instead of adding to it.
 */
async function* batches(db: DriverSql, query: ExportQuery, upTo: Position | null): AsyncGenerator<Submission[]> {
  const read = async (after: Position | null): Promise<Submission[]> => {
    const rows = await db.sql(submissionsIn(query, after, upTo).select(EVERY_COLUMN).orderBy('s.createdAt').orderBy('s.id').limit(BATCH));
    return rows.map(submissionOf);
  };
  let next: Promise<Submission[]> | null = read(null);
  try {
    while (next) {
      const rows: Submission[] = await next;
      const last = rows.at(-1);
      next = last && rows.length === BATCH ? read({ createdAt: last.createdAt, id: last.id }) : null;
      if (rows.length) yield rows;
    }
  } finally {
    // The consumer stopped early (the client went away): the read ahead finishes on its own; its failure is nobody's.
    next?.catch(() => undefined);
  }
}

/** Lines gathered into chunks of about CHUNK characters. */
export async function* chunked(lines: AsyncIterable<string>): AsyncGenerator<string> {
  let chunk = '';
  for await (const line of lines) {
    chunk += line;
    if (chunk.length >= CHUNK) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

/** The rows an NDJSON export shows, oldest first; each line is presented by the caller (the domain takes no presenter). */
async function* ndjsonRows(db: DriverSql, query: ExportQuery): AsyncGenerator<Submission> {
  for await (const rows of batches(db, query, null)) yield* rows;
}

async function newestInRange(db: DriverSql, query: ExportQuery): Promise<Position | null> {
  const [newest] = await db.sql(submissionsIn(query, null, null).select(['s.createdAt', 's.id']).orderBy('s.createdAt', 'desc').orderBy('s.id', 'desc').limit(1));
  return newest ?? null;
}

/** Every formData key of the rows up to `upTo`: in the database for plain forms, by decrypting for PHI forms. */
async function formDataKeys(db: DriverSql, phi: PhiCipher, query: ExportQuery, upTo: Position): Promise<string[]> {
  if (!query.form.phi) {
    const rows = await db.sql(
      submissionsIn(query, null, upTo)
        .innerJoin(sql<{ k: string }>`jsonb_object_keys(s."formData")`.as('k'), (join) => join.onTrue())
        .select(sql<string>`k`.as('key'))
        .distinct(),
    );
    return rows.map((row) => row.key);
  }
  const keys = new Set<string>();
  for await (const rows of batches(db, query, upTo)) {
    for (const row of rows) {
      const formData = readFormData(phi, row);
      if (isPlainObject(formData)) for (const key of Object.keys(formData)) keys.add(key);
    }
  }
  return [...keys];
}

async function* csvLines(db: DriverSql, phi: PhiCipher, query: ExportQuery): AsyncGenerator<string> {
  const upTo = await newestInRange(db, query);
  const columns: ExportColumns = exportColumns(query.form.fields, upTo ? await formDataKeys(db, phi, query, upTo) : []);
  yield csvHeader(columns);
  if (!upTo) return;
  for await (const rows of batches(db, query, upTo)) {
    for (const row of rows) yield csvRow(columns, row, readFormData(phi, row));
  }
}

export interface ExportRequest {
  format: ExportFormat;
  range: CreatedRange;
}

/**
 * An export's body, produced only as it is read: CSV as its chunks of text; NDJSON as the rows, which the caller
 * turns into lines (one v1 Submission per line, as GET /submissions/{id} answers: src/execution/routes/export.routes.ts)
 * and gathers with `chunked`.
 */
export type ExportBody = { format: 'csv'; chunks: AsyncIterable<string> } | { format: 'ndjson'; rows: AsyncIterable<Submission> };

/**
 * Looks the form up (404 before any byte) and audits a PHI form's export as ONE row, then returns the body,
 * produced only as it is read.
 */
export async function exportFormSubmissions(
  deps: { db: DriverSql; phi: PhiCipher },
  reader: Reader,
  formId: number,
  request: ExportRequest,
): Promise<ExportBody> {
  const form = await getExportableFormOrThrow(deps.db, reader.accountId, formId);
  if (form.phi) {
    await recordAuditBatch(deps.db, [{ ...reader, action: 'submissions.exported', resource: 'form', resourceId: form.id, formId: form.id }]);
  }
  const query: ExportQuery = { form, accountId: reader.accountId, range: request.range };
  return request.format === 'csv' ? { format: 'csv', chunks: chunked(csvLines(deps.db, deps.phi, query)) } : { format: 'ndjson', rows: ndjsonRows(deps.db, query) };
}
