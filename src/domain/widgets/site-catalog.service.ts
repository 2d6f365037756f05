import type { Database } from '../../infra/db.js';
import { Prisma } from '../../generated/prisma/client.js';
import { skipTake, toPage, type Page, type PageRequest } from '../pagination.js';

/* GET /site-catalog (site key): one site's active embeddable widgets. A site key reads no customer data, so
   this file selects only the widget's kind, id, name, type and timestamps: never a form's fields, a calendar's
   settings or a shop widget's prices, and nothing of any submission, booking or order. */

export const CATALOG_KINDS = ['form', 'calendar', 'ecommerce'] as const;
export type CatalogKind = (typeof CATALOG_KINDS)[number];

/**
 * The embed loader every snippet points at. The snippet is the one line a site owner pastes into a page:
 * `<script src="https://widgets.example/embed.js" data-widget="<kind>:<id>" async></script>`; the loader reads
 * `data-widget` and renders that widget in place. Only integers and the fixed kinds go into it, so it needs no
 * escaping.
 */
export const EMBED_SCRIPT_URL = 'https://widgets.example/embed.js';

export const embedHtml = (kind: CatalogKind, id: number): string =>
  `<script src="${EMBED_SCRIPT_URL}" data-widget="${kind}:${id}" async></script>`;

export interface CatalogEntry {
  kind: CatalogKind;
  id: number;
  name: string;
  /** The form's (`standard`, `multi-step`) or shop widget's (`one_time`, …) type; null for calendars. */
  type: string | null;
  updatedAt: Date;
  embedHtml: string;
}

export interface CatalogFilter extends PageRequest {
  kind?: CatalogKind | null;
}

/* One branch per kind; each walks the table's siteId index. Form types are stored as their v1 names
   (`multi-step` is the enum's mapped value), so `type::text` is already what v1 shows. */
const branches: Record<CatalogKind, (siteId: number) => Prisma.Sql> = {
  form: (siteId) => Prisma.sql`
    SELECT 'form' AS "kind", "id", "name", "type"::text AS "type", "createdAt", "updatedAt"
    FROM "Form" WHERE "siteId" = ${siteId} AND "archivedAt" IS NULL`,
  calendar: (siteId) => Prisma.sql`
    SELECT 'calendar' AS "kind", "id", "name", NULL::text AS "type", "createdAt", "updatedAt"
    FROM "CalendarWidget" WHERE "siteId" = ${siteId} AND "archivedAt" IS NULL`,
  ecommerce: (siteId) => Prisma.sql`
    SELECT 'ecommerce' AS "kind", "id", "name", "type"::text AS "type", "createdAt", "updatedAt"
    FROM "EcommerceWidget" WHERE "siteId" = ${siteId} AND "archivedAt" IS NULL`,
};

/** A page row; the one padding row of an empty page has only `total`. */
interface CatalogRow {
  kind: CatalogKind | null;
  id: number | null;
  name: string;
  type: string | null;
  updatedAt: Date;
  total: number;
}

/**
 * ONE statement whatever the data: the union of the kinds asked for, counted and paged together. The page is
 * LEFT JOINed to a one-row total, so a page past the end still reports the total.
 */
export async function listSiteCatalog(db: Database, siteId: number, filter: CatalogFilter): Promise<Page<CatalogEntry>> {
  const kinds = filter.kind ? [filter.kind] : CATALOG_KINDS;
  const union = Prisma.join(kinds.map((kind) => branches[kind](siteId)), ' UNION ALL ');
  const { skip, take } = skipTake(filter);
  const rows = await db.sql<CatalogRow>(Prisma.sql`
    WITH "widgets" AS (${union}),
    "counted" AS (SELECT count(*)::int AS "total" FROM "widgets"),
    "page" AS (
      SELECT * FROM "widgets" ORDER BY "createdAt" DESC, "id" DESC, "kind" ASC LIMIT ${take} OFFSET ${skip}
    )
    SELECT "page"."kind", "page"."id", "page"."name", "page"."type", "page"."updatedAt", "counted"."total"
    FROM "counted" LEFT JOIN "page" ON true
    ORDER BY "page"."createdAt" DESC, "page"."id" DESC, "page"."kind" ASC`);
  const total = Number(rows[0]?.total ?? 0);
  const data: CatalogEntry[] = [];
  for (const row of rows) {
    if (row.kind === null || row.id === null) continue;
    data.push({ kind: row.kind, id: row.id, name: row.name, type: row.type, updatedAt: row.updatedAt, embedHtml: embedHtml(row.kind, row.id) });
  }
  return toPage(data, filter, total);
}
