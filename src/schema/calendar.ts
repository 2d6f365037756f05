import { requireApiKeyViewer } from '../context.js';
import {
  BOOKING_STATUSES,
  calendarObjectV1,
  getBookingOrThrow,
  getCalendarWidgetOrThrow,
  listCalendarBookings,
  listCalendarWidgets,
  type BookingView,
} from '../domain/widgets/calendars.service.js';
import { builder } from './builder.js';
import { DomainRef, SITE_REFERENCE } from './domain.js';
import { siteDomain } from '../domain/verification/site-domain.js';
import { statusFilter, statusFilterArgs } from './list-filters.js';
import { pageRef, walkField, walkPageRef } from './pagination.js';
import { widgetField, widgetListField } from './widget-list.js';

/* Calendar widgets and bookings (read-only). No field reads a hidden column: cancellation tokens, provider
   event ids and the assigned host have no field at all, and the JSON objects are stripped of webhook keys. */

export const BookingStatusEnum = builder.enumType('BookingStatus', {
  values: BOOKING_STATUSES,
});

export const CalendarWidgetRef = builder.prismaObject('CalendarWidget', {
  fields: (t) => ({
    id: t.exposeInt('id'),
    name: t.exposeString('name'),
    domain: t.field({ type: DomainRef, select: SITE_REFERENCE, resolve: (widget) => siteDomain(widget.site) }),
    bookingCount: t.exposeInt('bookingCount', { description: 'every booking of any status; a counter column, never a count of rows' }),
    settings: t.field({ type: 'JSON', select: { settings: true }, description: 'webhook keys removed at any depth', resolve: (w) => calendarObjectV1(w.settings) }),
    appearance: t.field({ type: 'JSON', select: { appearance: true }, description: 'webhook keys removed at any depth', resolve: (w) => calendarObjectV1(w.appearance) }),
    behavior: t.field({ type: 'JSON', select: { behavior: true }, description: 'webhook keys removed at any depth', resolve: (w) => calendarObjectV1(w.behavior) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const CalendarWidgetPage = pageRef('CalendarWidgetPage', CalendarWidgetRef);

export const BookingRef = builder.objectRef<BookingView>('Booking').implement({
  fields: (t) => ({
    id: t.exposeInt('id'),
    calendarWidgetId: t.exposeInt('calendarWidgetId'),
    inviteeName: t.exposeString('inviteeName'),
    inviteeEmail: t.exposeString('inviteeEmail'),
    slotIso: t.exposeString('slotIso', { description: 'ISO 8601 time of the slot' }),
    slotDisplay: t.exposeString('slotDisplay'),
    inviteeTimezone: t.exposeString('inviteeTimezone'),
    status: t.field({ type: BookingStatusEnum, resolve: (b) => b.status }),
    customFields: t.field({ type: 'JSON', resolve: (b) => b.customFields ?? {} }),
    videoCallUrl: t.exposeString('videoCallUrl', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const BookingPage = walkPageRef('BookingPage', BookingRef);

builder.queryFields((t) => ({
  calendarWidgets: widgetListField(t, {
    type: CalendarWidgetPage,
    typeName: 'CalendarWidget',
    description: 'Calendar widgets (not archived), newest first; domainId narrows to one registered domain',
    scope: 'read:calendars',
    list: listCalendarWidgets,
  }),
  calendarWidget: widgetField(t, 'CalendarWidget', 'read:calendars', getCalendarWidgetOrThrow),
  calendarWidgetBookings: walkField(t, {
    type: BookingPage,
    description: 'Bookings of a calendar widget, newest first; optional status and createdAt range [createdFrom, createdBefore)',
    authScopes: { scope: 'read:bookings' },
    args: { calendarWidgetId: t.arg.int({ required: true }), ...statusFilterArgs(t.arg, BookingStatusEnum) },
    resolve: (args, page, context) =>
      listCalendarBookings(context.deps.db.prisma, requireApiKeyViewer(context).accountId, args.calendarWidgetId, { ...page, ...statusFilter(args) }),
  }),
  booking: t.field({
    type: BookingRef,
    authScopes: { scope: 'read:bookings' },
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, args, context) => getBookingOrThrow(context.deps.db.prisma, requireApiKeyViewer(context).accountId, args.id),
  }),
}));
