import type { InsertQueryBuilder, InsertResult, Selectable, UpdateQueryBuilder, UpdateResult } from 'kysely';
import type { DriverSql, SqlExecutor, SqlTransaction } from '../../infra/db-driver.js';
import { preparedQuery, sql, sqlBuilder, type DB } from '../../infra/sql.js';
import { AppError, notFound } from '../../errors.js';
import type { Form, Plan, Prisma } from '../../generated/prisma/client.js';
import { outboxInsertSql, type DomainEvent } from '../webhooks/events.service.js';
import { normalizeFields, type CreateFormInput, type FieldElement, type UpdateFormInput } from './form-input.js';
import { formTypeValue, type FormWithSite } from './form.mapper.js';
import { FORM_VERSION_BUMP } from './form-version.js';
import { skipTake, toPage, type Page, type PageRequest } from '../pagination.js';

/*
 * Forms are a hot resource: read and written only through src/infra/sql.ts (typed SQL on the driver), never through
 * Prisma, because ingest and erasure must move a form's counter and version in their one statement, and a list and a
 * get must give the same row (formFromRow). The rule and its check: src/domain/README.md.
 */

type FormRow = Selectable<DB['Form']>;

/** Forms + calendar widgets per site, archived forms not counted (contract §4). */
export const PLAN_CAPS: Record<Plan, number> = { free: 1, starter: 3, pro: 25, business: 200 };

/** A form's columns a list may read besides its id (`hostname`: its domain's, through a join). */
export const FORM_COLUMNS = ['accountId', 'siteId', 'name', 'type', 'fields', 'phi', 'archivedAt', 'submissionCount', 'version', 'createdAt', 'updatedAt', 'hostname'] as const;
export type FormColumn = (typeof FORM_COLUMNS)[number];

export interface FormListFilter extends PageRequest {
  domainId?: number | null;
  archived?: boolean | null;
  /**
   * The columns to read; the others are left undefined on the forms returned (the GraphQL selection decides:
   * src/schema/form.ts). A dashboard listing names and counts reads 3 columns of 100 forms instead of 14:
   * decoding rows (timestamps, the `fields` jsonb) was the largest cost of a list, in PostgreSQL and in Node alike.
   */
  columns: readonly FormColumn[];
}

interface FormListShape {
  archived: boolean;
  byDomain: boolean;
  /** In FORM_COLUMNS' order: one compiled statement per set of columns. */
  columns: readonly FormColumn[];
}

interface FormListValues extends Record<string, unknown> {
  accountId: number;
  domainId: number | null;
  take: number;
  skip: number;
}

/** The forms the filter keeps (the page's and the total's). */
const filteredForms = (shape: FormListShape, values: FormListValues) => {
  const forms = sqlBuilder.selectFrom('Form as f').where('f.accountId', '=', values.accountId).where('f.archivedAt', shape.archived ? 'is not' : 'is', null);
  return shape.byDomain ? forms.where('f.siteId', '=', values.domainId) : forms;
};

type FormListRow = Omit<FormRow, 'webhookUrl'> & { hostname: string | null; total: number };

const formPage = preparedQuery((shape: FormListShape, values: FormListValues) => {
  const rowColumns = shape.columns.filter((column) => column !== 'hostname').map((column) => `f.${column}` as const);
  const forms = filteredForms(shape, values).select(['f.id', ...rowColumns]);
  const withDomain = shape.columns.includes('hostname') ? forms.leftJoin('Site as s', 's.id', 'f.siteId').select('s.hostname') : forms;
  return (
    withDomain
      .select(sql<number>`count(*) OVER ()::int`.as('total'))
      .orderBy('f.createdAt', 'desc')
      .orderBy('f.id', 'desc')
      .limit(values.take)
      .offset(values.skip)
      // The selection is dynamic; the row has the columns of `shape.columns` (formFromRow reads no others).
      .$castTo<FormListRow>()
  );
});

const formCount = preparedQuery((shape: FormListShape, values: FormListValues) => filteredForms(shape, values).select(sql<number>`count(*)::int`.as('n')));

/**
 * The hottest read of the service, so ONE statement: the page, its domains (join) and the total (window
 * count). Only a page past the end needs a second statement for the total.
 */
export async function listForms(db: SqlExecutor, accountId: number, filter: FormListFilter): Promise<Page<FormWithSite>> {
  const { skip, take } = skipTake(filter);
  const columns = FORM_COLUMNS.filter((column) => filter.columns.includes(column) || (column === 'siteId' && filter.columns.includes('hostname')));
  const shape = { archived: filter.archived === true, byDomain: filter.domainId != null, columns };
  const values = { accountId, domainId: filter.domainId ?? null, take, skip };
  const rows = await db.sql(formPage(shape, values));
  const total = rows[0]?.total ?? (skip === 0 ? 0 : (await db.sql(formCount(shape, values)))[0]?.n ?? 0);
  const data = rows.map(formFromRow);
  return toPage(data, filter, total);
}

/**
 * A Form row as Prisma's client shows it (the mapped enum name, jsonb as JSON), with its domain; a column the
 * read left out stays undefined. Named properties, not `{ ...rest }`: object rest is V8's slow path, and this runs
 * for every row of the hottest list.
 */
function formFromRow(row: Omit<FormRow, 'webhookUrl'> & { webhookUrl?: string | null; hostname: string | null }): FormWithSite {
  return {
    id: row.id,
    accountId: row.accountId,
    siteId: row.siteId,
    name: row.name,
    type: formTypeValue(row.type) as Form['type'],
    fields: row.fields as Prisma.JsonValue,
    phi: row.phi,
    webhookUrl: row.webhookUrl ?? null,
    archivedAt: row.archivedAt,
    submissionCount: row.submissionCount,
    version: row.version,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    domain: row.hostname === undefined ? (undefined as never) : row.siteId !== null && row.hostname !== null ? { id: row.siteId, domain: row.hostname } : null,
  };
}

/**
 * One active form of the account with its domain: the columns a list can read (FORM_COLUMNS; never the write-only
 * `webhookUrl`), mapped as the list's rows are (formFromRow).
 */
const activeFormById = preparedQuery((_shape: null, values: { accountId: number; id: number }) =>
  sqlBuilder
    .selectFrom('Form as f')
    .leftJoin('Site as s', 's.id', 'f.siteId')
    .select(['f.id', ...FORM_COLUMNS.filter((column) => column !== 'hostname').map((column) => `f.${column}` as const)])
    .select('s.hostname')
    .where('f.id', '=', values.id)
    .where('f.accountId', '=', values.accountId)
    .where('f.archivedAt', 'is', null),
);

export async function getFormWithSiteOrThrow(db: SqlExecutor, accountId: number, id: number): Promise<FormWithSite> {
  const [row] = await db.sql(activeFormById(null, { accountId, id }));
  if (!row) throw notFound('form');
  return formFromRow(row);
}

async function verifiedProductionSites(db: SqlExecutor, accountId: number): Promise<{ id: number; hostname: string }[]> {
  return db.sql(
    sqlBuilder
      .selectFrom('Site')
      .select(['id', 'hostname'])
      .where('accountId', '=', accountId)
      .where('verified', '=', true)
      .where('environment', '=', 'production')
      .where('archivedAt', 'is', null)
      .orderBy('id', 'asc'),
  );
}

/** Rules 1–3 of form creation: an explicit verified production domain, or the only one the account has. */
async function chooseSite(db: SqlExecutor, accountId: number, domainId: number | undefined): Promise<number> {
  const sites = await verifiedProductionSites(db, accountId);
  if (domainId !== undefined) {
    if (!sites.some((site) => site.id === domainId)) throw new AppError('invalid_domain', { domainId });
    return domainId;
  }
  const only = sites.length === 1 ? sites[0] : undefined;
  if (!only) throw new AppError('domain_required', { candidates: sites.map((site) => ({ id: site.id, domain: site.hostname })) });
  return only.id;
}

/**
 * Rule 4: the site's forms-and-calendars cap. The site row is locked first so that two concurrent creates
 * cannot both see one free slot; then the plan and the site's active forms and calendars in one statement.
 */
async function assertSiteHasRoom(tx: SqlTransaction, accountId: number, siteId: number): Promise<void> {
  await tx.sql(sqlBuilder.selectFrom('Site').select('id').where('id', '=', siteId).forUpdate());
  const [usage] = await tx.sql(
    sqlBuilder
      .selectFrom('Account as a')
      .select('a.plan')
      .select((eb) => [
        eb.selectFrom('Form').select(sql<number>`count(*)::int`.as('n')).where('siteId', '=', siteId).where('archivedAt', 'is', null).as('forms'),
        eb.selectFrom('CalendarWidget').select(sql<number>`count(*)::int`.as('n')).where('siteId', '=', siteId).where('archivedAt', 'is', null).as('calendars'),
      ])
      .where('a.id', '=', accountId),
  );
  if (!usage) throw new Error(`account ${accountId} is missing`);
  const cap = PLAN_CAPS[usage.plan];
  const used = (usage.forms ?? 0) + (usage.calendars ?? 0);
  if (used >= cap) throw new AppError('plan_limit_reached', { cap, used, domainId: siteId });
}

/**
 * `phi` is GraphQL's and the import's only (contract §4): v1 bodies never carry it. It governs what is stored
 * from then on: later submissions are sealed (or, turned off, stored plain); earlier ones stay as they were.
 */
export interface PhiSetting {
  phi?: boolean;
}

/**
 * The columns of `f` a write reads (the row it locks, the row it wrote): FORM_COLUMNS', the id and the write-only
 * webhookUrl. Named, never `*`: a column a migration adds must not change what a prepared statement returns
 * (test/database/rolling-migration.test.ts).
 */
const WRITTEN_COLUMNS = (['id', 'webhookUrl', ...FORM_COLUMNS.filter((column) => column !== 'hostname')] as const).map((column) => `f.${column}` as const);

/** Writes the row and reads it back with its domain, in ONE statement. */
async function writtenForm(tx: SqlTransaction, write: InsertQueryBuilder<DB, 'Form', InsertResult> | UpdateQueryBuilder<DB, 'Form', 'Form', UpdateResult>): Promise<FormWithSite> {
  const [row] = await tx.sql(
    sqlBuilder
      .with('written', () => write.returningAll())
      .selectFrom('written as f')
      .leftJoin('Site as s', 's.id', 'f.siteId')
      .select(WRITTEN_COLUMNS)
      .select('s.hostname'),
  );
  if (!row) throw notFound('form');
  return formFromRow(row);
}

/**
 * A `form.*` event a form write records, but for its data: `form` is the form the event shows (for form.archived:
 * as it was just before). The caller presents it as v1 shows the form and records it with `recordFormEvent` in the
 * write's transaction, in the order given (src/schema/form.ts): the domain takes no presenter (issue 32).
 */
export interface FormEvent extends Omit<DomainEvent, 'data'> {
  type: 'form.created' | 'form.updated' | 'form.archived';
  form: FormWithSite;
}

/** What a form write did, within its transaction: the form written, and the events to record with it. */
export interface FormWrite {
  form: FormWithSite;
  events: FormEvent[];
}

/** Records a form write's event in its transaction, `data` the form as v1 shows it: ONE insert into the outbox. */
export async function recordFormEvent(tx: SqlTransaction, event: FormEvent, data: Record<string, unknown>): Promise<void> {
  await tx.sql(outboxInsertSql({ type: event.type, accountId: event.accountId, formId: event.formId, phi: event.phi, data }));
}

/** A new form, its input checked and its site chosen: made before the write's transaction (`newForm`). */
export interface NewForm {
  accountId: number;
  siteId: number;
  fields: FieldElement[];
  input: CreateFormInput & PhiSetting;
}

/** Checks the fields (ids given or made, none twice), then chooses the site (`domainId`, or the account's one). */
export async function newForm(db: DriverSql, accountId: number, input: CreateFormInput & PhiSetting): Promise<NewForm> {
  const fields = normalizeFields(input.fields);
  return { accountId, siteId: await chooseSite(db, accountId, input.domainId), fields, input };
}

/** Inside the caller's transaction: the form, and its `form.created` event. */
export async function createForm(tx: SqlTransaction, { accountId, siteId, fields, input }: NewForm): Promise<FormWrite> {
  await assertSiteHasRoom(tx, accountId, siteId);
  const now = new Date();
  const form = await writtenForm(
    tx,
    sqlBuilder.insertInto('Form').values({
      accountId,
      siteId,
      name: input.name,
      type: input.type === 'multi-step' ? 'multi-step' : 'standard',
      fields: JSON.stringify(fields),
      webhookUrl: input.webhookUrl ?? null,
      phi: input.phi ?? false,
      createdAt: now,
      updatedAt: now,
    }),
  );
  return { form, events: [{ type: 'form.created', accountId, formId: form.id, phi: form.phi, form }] };
}

export interface FormChange {
  input: UpdateFormInput & PhiSetting;
  /** The new fields, checked (`formChange`), when given. */
  fields: FieldElement[] | undefined;
}

/** Checks a change's fields, before the write's transaction. */
export function formChange(input: UpdateFormInput & PhiSetting): FormChange {
  return { input, fields: input.fields ? normalizeFields(input.fields) : undefined };
}

/** Inside the caller's transaction: the form, and its events (form.archived when archiving, then form.updated unless archiving was all). */
export async function updateForm(tx: SqlTransaction, accountId: number, id: number, { input, fields }: FormChange): Promise<FormWrite> {
  const before = await lockedFormOrThrow(tx, accountId, id, true);
  const restoring = input.archived === false && before.archivedAt !== null;
  const archiving = input.archived === true && before.archivedAt === null;
  if (restoring && before.siteId !== null) await assertSiteHasRoom(tx, accountId, before.siteId);
  const now = new Date();
  const form = await writtenForm(
    tx,
    sqlBuilder
      .updateTable('Form')
      .set({
        ...(input.name !== undefined && { name: input.name }),
        ...(fields !== undefined && { fields: JSON.stringify(fields) }),
        ...(input.webhookUrl !== undefined && { webhookUrl: input.webhookUrl }),
        ...(input.phi !== undefined && { phi: input.phi }),
        ...(restoring && { archivedAt: null }),
        ...(archiving && { archivedAt: now }),
        updatedAt: now,
        ...FORM_VERSION_BUMP,
      })
      .where('id', '=', id),
  );
  const events: FormEvent[] = [];
  if (archiving) events.push({ type: 'form.archived', accountId, formId: id, phi: before.phi, form: before });
  if (!archiving || Object.keys(input).length > 1) events.push({ type: 'form.updated', accountId, formId: id, phi: form.phi, form });
  return { form, events };
}

/**
 * DELETE, inside the caller's transaction: archives. The form stops serving; its submissions are preserved and
 * stay readable. `form` and the form.archived event's: the form as it was just before.
 */
export async function archiveForm(tx: SqlTransaction, accountId: number, id: number): Promise<FormWrite> {
  const before = await lockedFormOrThrow(tx, accountId, id, false);
  const now = new Date();
  await tx.sql(sqlBuilder.updateTable('Form').set({ archivedAt: now, updatedAt: now, ...FORM_VERSION_BUMP }).where('id', '=', id));
  return { form: before, events: [{ type: 'form.archived', accountId, formId: id, phi: before.phi, form: before }] };
}

/** The form with its domain, its row locked until the transaction ends (a concurrent write waits for this one). */
async function lockedFormOrThrow(tx: SqlTransaction, accountId: number, id: number, includeArchived: boolean): Promise<FormWithSite> {
  let query = sqlBuilder
    .selectFrom('Form as f')
    .leftJoin('Site as s', 's.id', 'f.siteId')
    .select(WRITTEN_COLUMNS)
    .select('s.hostname')
    .where('f.id', '=', id)
    .where('f.accountId', '=', accountId);
  if (!includeArchived) query = query.where('f.archivedAt', 'is', null);
  const [row] = await tx.sql(query.forUpdate('f'));
  if (!row) throw notFound('form');
  return formFromRow(row);
}
