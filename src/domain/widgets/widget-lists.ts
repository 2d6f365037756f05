import { notFound } from '../../errors.js';
import type { Prisma } from '../../generated/prisma/client.js';
import type { ListKey, ListPosition } from '../list-cursor.js';
import { assertCreatedRange, totalPlan, type CreatedRange, type TotalPlan } from '../list-filters.js';
import { walkPageOf, type PageRequest, type WalkPage, type WalkRequest } from '../pagination.js';

/* What the lists of widgets (calendars, shop widgets, collections) and of their rows (bookings, orders) share. */

export interface WidgetListFilter extends PageRequest {
  domainId?: number | null;
}

/** A widget list's rows: the account's widgets not archived, of one registered domain when `domainId` is given. */
export const activeWidgetsWhere = (accountId: number, filter: WidgetListFilter) => ({
  accountId,
  archivedAt: null,
  ...(filter.domainId != null && { siteId: filter.domainId }),
});

export const createdAtRange = (filter: CreatedRange): Prisma.DateTimeFilter | undefined =>
  filter.createdFrom != null || filter.createdBefore != null
    ? { ...(filter.createdFrom != null && { gte: filter.createdFrom }), ...(filter.createdBefore != null && { lt: filter.createdBefore }) }
    : undefined;

/** The rows a filtered total counts: the window itself, or (counterMinusNewer) the rows at or after its end. */
export function countedCreatedAt(plan: TotalPlan, filter: CreatedRange): Prisma.DateTimeFilter | undefined {
  return plan.kind === 'counterMinusNewer' ? { gte: plan.createdBefore } : createdAtRange(filter);
}

/** The total from the parent's counter and, when filtered, the count Prisma folded into the parent's read. */
export function filteredTotal(plan: TotalPlan, counter: number, counted: number | undefined): number {
  if (plan.kind === 'counter') return counter;
  return plan.kind === 'counterMinusNewer' ? counter - (counted ?? 0) : (counted ?? 0);
}

/** A list of one widget's rows (bookings, orders): a createdAt window and, optionally, one status. */
export interface WidgetRowsFilter<Status extends string> extends WalkRequest, CreatedRange {
  status?: Status | null;
}

/** The rows of `owner` (`{ calendarWidgetId }`, `{ collectionId }`, …) that a widget's rows filter keeps. */
export function widgetRowsWhere<Owner extends object, Status extends string>(owner: Owner, filter: WidgetRowsFilter<Status>) {
  const range = createdAtRange(filter);
  return { ...owner, ...(filter.status != null && { status: filter.status }), ...(range && { createdAt: range }) };
}

/**
 * A widget's rows, newest first, in two statements whether filtered or not: `readWidget` reads the widget with its
 * total (its counter column, or, given `countWhere`, also a count of the filter's rows folded into the same read
 * along the (widget[, status], createdAt) indexes; null when the account has no such widget: 404 `missing`), then
 * `rows` reads the page along the same index. A cursor page (§7.6) reads the widget without a count.
 */
export async function walkCountedWidgetRows<Row extends ListPosition, Status extends string>(
  filter: WidgetRowsFilter<Status>,
  key: ListKey,
  missing: string,
  readWidget: (countWhere: { status?: Status; createdAt?: Prisma.DateTimeFilter } | null) => Promise<{ counter: number; counted?: number } | null>,
  rows: Parameters<typeof walkPageOf<Row>>[3],
): Promise<WalkPage<Row>> {
  assertCreatedRange(filter);
  const plan = totalPlan(filter, filter.status != null);
  const counted = countedCreatedAt(plan, filter);
  return walkPageOf(
    filter,
    key,
    async (counting) => {
      // Two reads of one shape, so that the unfiltered one carries no count at all.
      const countWhere = plan.kind === 'counter' || !counting ? null : { ...(filter.status != null && { status: filter.status }), ...(counted && { createdAt: counted }) };
      const widget = await readWidget(countWhere);
      if (!widget) throw notFound(missing);
      return filteredTotal(plan, widget.counter, widget.counted);
    },
    rows,
  );
}
