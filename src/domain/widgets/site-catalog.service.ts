import type { Database } from '../../infra/db.js';
import { sql, sqlBuilder, type RawBuilder } from '../../infra/sql.js';
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
const branch = (table: 'Form' | 'CalendarWidget' | 'EcommerceWidget', kind: CatalogKind, type: RawBuilder<string | null>) => (siteId: number) =>
  sqlBuilder
    .selectFrom(table)
    .select([sql.lit(kind).$castTo<CatalogKind>().as('kind'), 'id', 'name', type.as('type'), 'createdAt', 'updatedAt'])
    .where('siteId', '=', siteId)
    .where('archivedAt', 'is', null);

const branches = {
  form: branch('Form', 'form', sql<string | null>`"type"::text`),
  calendar: branch('CalendarWidget', 'calendar', sql<string | null>`NULL::text`),
  ecommerce: branch('EcommerceWidget', 'ecommerce', sql<string | null>`"type"::text`),
} satisfies Record<CatalogKind, unknown>;

/**
 * ONE statement whatever the data: the union of the kinds asked for, counted and paged together. The page is
 * LEFT JOINed to a one-row total, so a page past the end still reports the total; its padding row has only it.
 */
export async function listSiteCatalog(db: Database, siteId: number, filter: CatalogFilter): Promise<Page<CatalogEntry>> {
  const [first, ...others] = (filter.kind ? [filter.kind] : CATALOG_KINDS).map((kind) => branches[kind](siteId));
  if (!first) throw new Error('no catalog kind');
  const union = others.reduce((all, branch) => all.unionAll(branch), first);
  const { skip, take } = skipTake(filter);
  const rows = await db.sql(
    sqlBuilder
      .with('widgets', () => union)
      .with('counted', (qc) => qc.selectFrom('widgets').select(sql<number>`count(*)::int`.as('total')))
      .with('page', (qc) => qc.selectFrom('widgets').selectAll().orderBy('createdAt', 'desc').orderBy('id', 'desc').orderBy('kind', 'asc').limit(take).offset(skip))
      .selectFrom('counted')
      .leftJoin('page', (join) => join.onTrue())
      .select(['page.kind', 'page.id', 'page.name', 'page.type', 'page.updatedAt', 'counted.total'])
      .orderBy('page.createdAt', 'desc')
      .orderBy('page.id', 'desc')
      .orderBy('page.kind', 'asc'),
  );
  const total = Number(rows[0]?.total ?? 0);
  const data: CatalogEntry[] = [];
  for (const row of rows) {
    if (row.kind === null || row.id === null || row.name === null || row.updatedAt === null) continue;
    data.push({ kind: row.kind, id: row.id, name: row.name, type: row.type, updatedAt: row.updatedAt, embedHtml: embedHtml(row.kind, row.id) });
  }
  return toPage(data, filter, total);
}
