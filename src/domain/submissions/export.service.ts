import type { Database } from '../../infra/db.js';
import { notFound } from '../../errors.js';
import { Prisma, type Submission } from '../../generated/prisma/client.js';
import type { PhiCipher } from '../../infra/phi-crypto.js';
import type { CreatedRange } from '../created-range.js';
import { isPlainObject } from '../validation.js';
import { recordAuditBatch } from './audit.service.js';
import { csvHeader, csvRow, exportColumns, type ExportColumns } from './export-csv.js';
import type { Present } from '../webhooks/events.service.js';
import { readFormData, submissionColumns, type Reader } from './submissions.service.js';

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
export async function getExportableFormOrThrow(db: Database, accountId: number, formId: number): Promise<ExportForm> {
  const [form] = await db.sql<ExportForm>(Prisma.sql`SELECT "id", "phi", "fields" FROM "Form" WHERE "id" = ${formId} AND "accountId" = ${accountId}`);
  if (!form) throw notFound('form');
  return form;
}

function rangeSql({ form, accountId, range }: ExportQuery, after: Position | null, upTo: Position | null): Prisma.Sql {
  return Prisma.join(
    [
      Prisma.sql`s."formId" = ${form.id} AND s."accountId" = ${accountId}`,
      ...(range.from ? [Prisma.sql`s."createdAt" >= ${range.from}`] : []),
      ...(range.before ? [Prisma.sql`s."createdAt" < ${range.before}`] : []),
      ...(after ? [Prisma.sql`(s."createdAt", s."id") > (${after.createdAt}, ${after.id})`] : []),
      ...(upTo ? [Prisma.sql`(s."createdAt", s."id") <= (${upTo.createdAt}, ${upTo.id})`] : []),
    ],
    ' AND ',
  );
}

/**
 * The batches in order. The next batch is read while the caller works through the current one (one batch ahead,
 * no more): the database round trip overlaps the serialising instead of adding to it.
 */
async function* batches(db: Database, query: ExportQuery, upTo: Position | null): AsyncGenerator<Submission[]> {
  const read = (after: Position | null): Promise<Submission[]> =>
    db.sql<Submission>(Prisma.sql`
      SELECT ${submissionColumns(true)} FROM "Submission" s
      WHERE ${rangeSql(query, after, upTo)} ORDER BY s."createdAt", s."id" LIMIT ${BATCH}`);
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
async function* chunked(lines: AsyncIterable<string>): AsyncGenerator<string> {
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

/**
 * One v1 Submission per line, the same bytes as `GET /submissions/{id}` answers: `present` runs that route's
 * fragment on the row (src/rest/present.ts), decrypting a PHI form's data as the field's resolver does.
 */
async function* ndjsonLines(db: Database, present: Present<Submission>, query: ExportQuery): AsyncGenerator<string> {
  for await (const rows of batches(db, query, null)) {
    for (const row of rows) yield `${JSON.stringify(await present(row))}\n`;
  }
}

async function newestInRange(db: Database, query: ExportQuery): Promise<Position | null> {
  const [newest] = await db.sql<Position>(Prisma.sql`
    SELECT s."createdAt", s."id" FROM "Submission" s WHERE ${rangeSql(query, null, null)} ORDER BY s."createdAt" DESC, s."id" DESC LIMIT 1`);
  return newest ?? null;
}

/** Every formData key of the rows up to `upTo`: in the database for plain forms, by decrypting for PHI forms. */
async function formDataKeys(db: Database, phi: PhiCipher, query: ExportQuery, upTo: Position): Promise<string[]> {
  if (!query.form.phi) {
    const rows = await db.sql<{ key: string }>(Prisma.sql`
      SELECT DISTINCT k AS "key" FROM "Submission" s, jsonb_object_keys(s."formData") k WHERE ${rangeSql(query, null, upTo)}`);
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

async function* csvLines(db: Database, phi: PhiCipher, query: ExportQuery): AsyncGenerator<string> {
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
  /** The submission as GET shows it (an NDJSON line). */
  present: Present<Submission>;
}

/**
 * Looks the form up (404 before any byte) and audits a PHI form's export as ONE row, then returns the body,
 * produced only as it is read.
 */
export async function exportFormSubmissions(
  deps: { db: Database; phi: PhiCipher },
  reader: Reader,
  formId: number,
  request: ExportRequest,
): Promise<AsyncIterable<string>> {
  const form = await getExportableFormOrThrow(deps.db, reader.accountId, formId);
  if (form.phi) {
    await recordAuditBatch(deps.db, [{ ...reader, action: 'submissions.exported', resource: 'form', resourceId: form.id, formId: form.id }]);
  }
  const query: ExportQuery = { form, accountId: reader.accountId, range: request.range };
  return chunked(request.format === 'csv' ? csvLines(deps.db, deps.phi, query) : ndjsonLines(deps.db, request.present, query));
}
