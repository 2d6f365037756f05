import { notFound } from '../../errors.js';
import type { Booking, BookingStatus, CalendarWidget, Prisma, PrismaClient } from '../../generated/prisma/client.js';
import { NEWEST_FIRST, pageOf, type Page, type WalkPage } from '../pagination.js';
import type { ListKey } from '../list-cursor.js';
import { isPlainObject } from '../validation.js';
import { activeWidgetsWhere, walkCountedWidgetRows, widgetRowsWhere, type WidgetListFilter, type WidgetRowsFilter } from './widget-lists.js';

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

export type BookingListFilter = WidgetRowsFilter<BookingStatus>;

/** The list a bookings cursor walks: one widget's bookings with one status and window. */
export const bookingsListKey = (accountId: number, widgetId: number, filter: BookingListFilter): ListKey => ({
  accountId,
  list: `calendar-widget:${widgetId}:bookings`,
  filters: { status: filter.status, createdFrom: filter.createdFrom, createdBefore: filter.createdBefore },
});

/**
 * Bookings of a widget (archived ones included: archiving preserves them), newest first, in two statements
 * (walkCountedWidgetRows) along the (calendarWidgetId[, status], createdAt) indexes, the total from bookingCount.
 */
export function listCalendarBookings(prisma: Db, accountId: number, widgetId: number, filter: BookingListFilter): Promise<WalkPage<BookingView>> {
  const owner = { id: widgetId, accountId };
  const where: Prisma.BookingWhereInput = widgetRowsWhere({ calendarWidgetId: widgetId }, filter);
  return walkCountedWidgetRows(
    filter,
    bookingsListKey(accountId, widgetId, filter),
    'calendar_widget',
    async (countWhere) => {
      if (!countWhere) {
        const widget = await prisma.calendarWidget.findFirst({ where: owner, select: { bookingCount: true } });
        return widget && { counter: widget.bookingCount };
      }
      const widget = await prisma.calendarWidget.findFirst({ where: owner, select: { bookingCount: true, _count: { select: { bookings: { where: countWhere } } } } });
      return widget && { counter: widget.bookingCount, counted: widget._count.bookings };
    },
    ({ after, ...window }) => prisma.booking.findMany({ where: after ? { AND: [where, after] } : where, select: BOOKING_COLUMNS, orderBy: NEWEST_FIRST, ...window }),
  );
}

export async function getBookingOrThrow(prisma: Db, accountId: number, id: number): Promise<BookingView> {
  const booking = await prisma.booking.findFirst({ where: { id, accountId }, select: BOOKING_COLUMNS });
  if (!booking) throw notFound('booking');
  return booking;
}
