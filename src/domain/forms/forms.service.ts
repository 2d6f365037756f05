import type { Database } from '../../infra/db.js';
import { AppError, notFound } from '../../errors.js';
import { Prisma, type Form, type Plan, type PrismaClient } from '../../generated/prisma/client.js';
import { recordEvent, type Present } from '../webhooks/events.service.js';
import { normalizeFields, type CreateFormInput, type UpdateFormInput } from './form-input.js';
import { formTypeValue, type FormWithSite } from './form.mapper.js';
import { bumpFormVersion } from './form-version.js';
import { skipTake, toPage, type Page, type PageRequest } from '../pagination.js';

/** Forms + calendar widgets per site, archived forms not counted (contract §4). */
export const PLAN_CAPS: Record<Plan, number> = { free: 1, starter: 3, pro: 25, business: 200 };

type Db = PrismaClient | Prisma.TransactionClient;

const WITH_SITE = { site: { select: { id: true, hostname: true } } } as const;

export interface FormListFilter extends PageRequest {
  domainId?: number | null;
  archived?: boolean | null;
  /**
   * Read each form's `fields` (else they are null). Off when the list does not show them (the v1 list, the
   * dashboard): decoding that jsonb was the largest cost of the list, in PostgreSQL and in Node alike.
   */
  withFields?: boolean;
}

type FormListRow = Omit<Form, 'type' | 'webhookUrl'> & { type: string; hostname: string | null; total: number };

/**
 * The hottest read of the service, so ONE statement: the page, its domains (join) and the total (window
 * count). Only a page past the end needs a second statement for the total.
 */
export async function listForms(db: Database, accountId: number, filter: FormListFilter): Promise<Page<FormWithSite>> {
  const { skip, take } = skipTake(filter);
  const where = Prisma.sql`f."accountId" = ${accountId}
    AND ${filter.archived ? Prisma.sql`f."archivedAt" IS NOT NULL` : Prisma.sql`f."archivedAt" IS NULL`}
    ${filter.domainId != null ? Prisma.sql`AND f."siteId" = ${filter.domainId}` : Prisma.empty}`;
  const rows = await db.sql<FormListRow>(Prisma.sql`
    SELECT f."id", f."accountId", f."siteId", f."name", f."type"::text AS "type",
           ${filter.withFields ? Prisma.sql`f."fields"` : Prisma.sql`NULL::jsonb`} AS "fields", f."phi", f."archivedAt",
           f."submissionCount", f."version", f."createdAt", f."updatedAt", s."hostname", count(*) OVER ()::int AS "total"
    FROM "Form" f LEFT JOIN "Site" s ON s."id" = f."siteId"
    WHERE ${where}
    ORDER BY f."createdAt" DESC, f."id" DESC
    LIMIT ${take} OFFSET ${skip}`);
  const total = rows[0]?.total ?? (skip === 0 ? 0 : (await db.sql<{ n: number }>(Prisma.sql`SELECT count(*)::int AS "n" FROM "Form" f WHERE ${where}`))[0]?.n ?? 0);
  // Named properties, not `{ ...rest }`: object rest is V8's slow path, and this runs for every row of the hottest list.
  const data = rows.map((row) => ({
    id: row.id,
    accountId: row.accountId,
    siteId: row.siteId,
    name: row.name,
    type: formTypeValue(row.type) ?? 'standard',
    fields: row.fields,
    phi: row.phi,
    webhookUrl: null,
    archivedAt: row.archivedAt,
    submissionCount: row.submissionCount,
    version: row.version,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    site: row.siteId !== null && row.hostname !== null ? { id: row.siteId, hostname: row.hostname } : null,
  }));
  return toPage(data, filter, total);
}

const formWhere = (accountId: number, id: number, includeArchived: boolean): Prisma.FormWhereInput => ({
  id,
  accountId,
  ...(!includeArchived && { archivedAt: null }),
});

export async function getFormWithSiteOrThrow(prisma: Db, accountId: number, id: number, includeArchived: boolean): Promise<FormWithSite> {
  const form = await prisma.form.findFirst({ where: formWhere(accountId, id, includeArchived), include: WITH_SITE });
  if (!form) throw notFound('form');
  return form;
}

async function verifiedProductionSites(prisma: Db, accountId: number) {
  return prisma.site.findMany({
    where: { accountId, verified: true, environment: 'production', archivedAt: null },
    select: { id: true, hostname: true },
    orderBy: { id: 'asc' },
  });
}

/** Rules 1–3 of form creation: an explicit verified production domain, or the only one the account has. */
async function chooseSite(prisma: Db, accountId: number, domainId: number | undefined): Promise<number> {
  const sites = await verifiedProductionSites(prisma, accountId);
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
 * cannot both see one free slot.
 */
async function assertSiteHasRoom(tx: Prisma.TransactionClient, accountId: number, siteId: number): Promise<void> {
  await tx.$queryRaw`SELECT 1 FROM "Site" WHERE "id" = ${siteId} FOR UPDATE`;
  const account = await tx.account.findUniqueOrThrow({ where: { id: accountId }, select: { plan: true } });
  const [forms, calendars] = await Promise.all([
    tx.form.count({ where: { siteId, archivedAt: null } }),
    tx.calendarWidget.count({ where: { siteId, archivedAt: null } }),
  ]);
  const cap = PLAN_CAPS[account.plan];
  const used = forms + calendars;
  if (used >= cap) throw new AppError('plan_limit_reached', { cap, used, domainId: siteId });
}

/**
 * `phi` is GraphQL's and the import's only (contract §4): v1 bodies never carry it. It governs what is stored
 * from then on: later submissions are sealed (or, turned off, stored plain); earlier ones stay as they were.
 */
export interface PhiSetting {
  phi?: boolean;
}

/** `present` gives the form as v1 shows it, for the `form.*` event recorded with the change. */
export async function createForm(prisma: PrismaClient, accountId: number, input: CreateFormInput & PhiSetting, present: Present<FormWithSite>): Promise<FormWithSite> {
  const fields = normalizeFields(input.fields);
  const siteId = await chooseSite(prisma, accountId, input.domainId);
  return prisma.$transaction(async (tx) => {
    await assertSiteHasRoom(tx, accountId, siteId);
    const form = await tx.form.create({
      data: {
        accountId,
        siteId,
        name: input.name,
        type: formTypeValue(input.type) ?? 'standard',
        fields,
        webhookUrl: input.webhookUrl ?? null,
        phi: input.phi ?? false,
      },
      include: WITH_SITE,
    });
    await recordEvent(tx, { type: 'form.created', accountId, formId: form.id, phi: form.phi, data: await present(form) });
    return form;
  });
}

export async function updateForm(prisma: PrismaClient, accountId: number, id: number, input: UpdateFormInput & PhiSetting, present: Present<FormWithSite>): Promise<FormWithSite> {
  const fields = input.fields ? normalizeFields(input.fields) : undefined;
  return prisma.$transaction(async (tx) => {
    const before = await getFormWithSiteOrThrow(tx, accountId, id, true);
    const restoring = input.archived === false && before.archivedAt !== null;
    const archiving = input.archived === true && before.archivedAt === null;
    if (restoring && before.siteId !== null) await assertSiteHasRoom(tx, accountId, before.siteId);
    const form = await tx.form.update({
      where: { id },
      data: {
        ...(input.name !== undefined && { name: input.name }),
        ...(fields !== undefined && { fields }),
        ...(input.webhookUrl !== undefined && { webhookUrl: input.webhookUrl }),
        ...(input.phi !== undefined && { phi: input.phi }),
        ...(restoring && { archivedAt: null }),
        ...(archiving && { archivedAt: new Date() }),
        ...bumpFormVersion,
      },
      include: WITH_SITE,
    });
    if (archiving) await recordEvent(tx, { type: 'form.archived', accountId, formId: id, phi: before.phi, data: await present(before) });
    if (!archiving || Object.keys(input).length > 1) {
      await recordEvent(tx, { type: 'form.updated', accountId, formId: id, phi: form.phi, data: await present(form) });
    }
    return form;
  });
}

/** DELETE: archives. The form stops serving; its submissions are preserved and stay readable. */
export async function archiveForm(prisma: PrismaClient, accountId: number, id: number, present: Present<FormWithSite>): Promise<void> {
  await prisma.$transaction(async (tx) => {
    const before = await getFormWithSiteOrThrow(tx, accountId, id, false);
    await tx.form.update({ where: { id }, data: { archivedAt: new Date(), ...bumpFormVersion } });
    await recordEvent(tx, { type: 'form.archived', accountId, formId: id, phi: before.phi, data: await present(before) });
  });
}
