import { notFound } from '../../errors.js';
import type { Booking, BookingStatus, CalendarWidget, Prisma, PrismaClient } from '../../generated/prisma/client.js';
import { NEWEST_FIRST, pageOf, walkPageOf, type Page, type PageRequest, type WalkPage, type WalkRequest } from '../pagination.js';
import type { ListKey } from '../list-cursor.js';
import { isPlainObject } from '../validation.js';
import { assertCreatedRange, totalPlan, type CreatedRange, type TotalPlan } from '../list-filters.js';

/* Calendar widgets and their bookings: read-only in v1. Hidden columns (cancellationToken, providerEventId,
   assignedHost) are never selected, so no layer above can leak them; webhook keys inside the free JSON objects
   are removed before anything leaves this file. */

type Db = PrismaClient | Prisma.TransactionClient;
/** Pothos' selection for the fields a GraphQL query asked for, spread into reads. */
export type CalendarWidgetQuery = Omit<Prisma.CalendarWidgetFindManyArgs, 'where' | 'orderBy' | 'skip' | 'take' | 'cursor'>;

/**
 * Decisions §4: every key whose name contains "webhook" (any case) is removed, at any depth, arrays included.
 * A webhook URL is a capability (whoever knows it can post fake bookings to the owner's integration).
 */
export function withoutWebhookKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutWebhookKeys);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !key.toLowerCase().includes('webhook'))
      .map(([key, inner]) => [key, withoutWebhookKeys(inner)]),
  );
}

/** settings / appearance / behavior as v1 shows them: always an object, webhook keys stripped. */
export function calendarObjectV1(value: Prisma.JsonValue | undefined): Record<string, unknown> {
  const stripped = withoutWebhookKeys(value ?? {});
  return isPlainObject(stripped) ? stripped : {};
}

export interface WidgetListFilter extends PageRequest {
  domainId?: number | null;
}

/** A widget list's rows: the account's widgets not archived, of one registered domain when `domainId` is given. */
export const activeWidgetsWhere = (accountId: number, filter: WidgetListFilter) => ({
  accountId,
  archivedAt: null,
  ...(filter.domainId != null && { siteId: filter.domainId }),
});

/**
 * Archived widgets leave the lists and their single reads answer 404, like archived forms; their bookings stay
 * readable. The count is of widgets (indexed by account), never of bookings: bookingCount is a column.
 */
export async function listCalendarWidgets(prisma: Db, accountId: number, filter: WidgetListFilter, query: CalendarWidgetQuery = {}): Promise<Page<CalendarWidget>> {
  const where: Prisma.CalendarWidgetWhereInput = activeWidgetsWhere(accountId, filter);
  const total = await prisma.calendarWidget.count({ where });
  return pageOf(filter, total, (window) => prisma.calendarWidget.findMany({ ...query, where, orderBy: NEWEST_FIRST, ...window }));
}

/** Another account's widget is indistinguishable from an absent one. */
export async function getCalendarWidgetOrThrow(prisma: Db, accountId: number, id: number, query: CalendarWidgetQuery = {}): Promise<CalendarWidget> {
  const widget = await prisma.calendarWidget.findFirst({ ...query, where: { id, accountId, archivedAt: null } });
  if (!widget) throw notFound('calendar_widget');
  return widget;
}

/** Exactly the documented booking columns: the hidden ones are not even read. */
export const BOOKING_COLUMNS = {
  id: true,
  calendarWidgetId: true,
  inviteeName: true,
  inviteeEmail: true,
  slotIso: true,
  slotDisplay: true,
  inviteeTimezone: true,
  status: true,
  customFields: true,
  videoCallUrl: true,
  createdAt: true,
} as const satisfies Prisma.BookingSelect;

export type BookingView = Pick<Booking, keyof typeof BOOKING_COLUMNS>;

/** The documented booking status set (v1 "Booking status values"): the status filter accepts one of them. */
export const BOOKING_STATUSES = ['scheduled', 'cancelled', 'no_show', 'completed', 'failed'] as const satisfies readonly BookingStatus[];

export interface BookingListFilter extends WalkRequest, CreatedRange {
  status?: BookingStatus | null;
}

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

/** The list a bookings cursor walks: one widget's bookings with one status and window. */
export const bookingsListKey = (widgetId: number, filter: BookingListFilter): ListKey => ({
  list: `calendar-widget:${widgetId}:bookings`,
  filters: { status: filter.status, createdFrom: filter.createdFrom, createdBefore: filter.createdBefore },
});

/**
 * Bookings of a widget (archived ones included: archiving preserves them), newest first, in two statements
 * whether filtered or not: the widget with its total (its counter, or a count of the filter's rows folded into
 * the same read along the (calendarWidgetId[, status], createdAt) indexes), then the page along the same index. A
 * cursor page (§7.6) reads the widget without a count, then the rows after the cursor along the same index.
 */
export async function listCalendarBookings(prisma: Db, accountId: number, widgetId: number, filter: BookingListFilter): Promise<WalkPage<BookingView>> {
  assertCreatedRange(filter);
  const plan = totalPlan(filter, filter.status != null);
  const status = filter.status != null ? { status: filter.status } : {};
  const counted = countedCreatedAt(plan, filter);
  const owner = { id: widgetId, accountId };
  const range = createdAtRange(filter);
  const where: Prisma.BookingWhereInput = { calendarWidgetId: widgetId, ...status, ...(range && { createdAt: range }) };
  return walkPageOf(
    filter,
    bookingsListKey(widgetId, filter),
    async (counting) => {
      // Two reads of one shape, so that the unfiltered one carries no count at all.
      const widget =
        plan.kind === 'counter' || !counting
          ? await prisma.calendarWidget.findFirst({ where: owner, select: { bookingCount: true } })
          : await prisma.calendarWidget.findFirst({ where: owner, select: { bookingCount: true, _count: { select: { bookings: { where: { ...status, ...(counted && { createdAt: counted }) } } } } } });
      if (!widget) throw notFound('calendar_widget');
      return filteredTotal(plan, widget.bookingCount, '_count' in widget ? (widget._count as { bookings: number }).bookings : undefined);
    },
    ({ after, ...window }) => prisma.booking.findMany({ where: after ? { AND: [where, after] } : where, select: BOOKING_COLUMNS, orderBy: NEWEST_FIRST, ...window }),
  );
}

export async function getBookingOrThrow(prisma: Db, accountId: number, id: number): Promise<BookingView> {
  const booking = await prisma.booking.findFirst({ where: { id, accountId }, select: BOOKING_COLUMNS });
  if (!booking) throw notFound('booking');
  return booking;
}
