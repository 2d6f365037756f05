import { z } from 'zod';
import type { Route } from '../route.js';
import { listOf } from '../schemas.js';
import { bookingSchema, calendarWidgetListItemSchema, calendarWidgetSchema } from '../schemas/widgets.js';
import { idQueryParam } from './params.js';
import { BOOKING_STATUSES } from '../../domain/widgets/calendars.service.js';
import { createdRangeQuery } from '../../domain/list-filters.js';

export const calendarRoutes: Route[] = [
  {
    method: 'GET',
    path: '/calendar-widgets',
    summary: 'List calendar widgets with their booking counts, newest first',
    tag: 'Calendar widgets',
    auth: 'apiKey',
    scope: 'read:calendars',
    paginated: true,
    query: z.object({ domainId: idQueryParam.optional() }),
    operation: 'calendar-widgets-list',
    variables: ({ query }) => ({ ...query }),
    respond: (data) => ({ status: 200, body: listOf(calendarWidgetListItemSchema).parse(data.calendarWidgets) }),
    success: { status: 200, schema: listOf(calendarWidgetListItemSchema) },
  },
  {
    method: 'GET',
    path: '/calendar-widgets/{id}',
    summary: 'Read a calendar widget with its settings, appearance and behavior (webhook keys removed)',
    tag: 'Calendar widgets',
    auth: 'apiKey',
    scope: 'read:calendars',
    operation: 'calendar-widget-get',
    variables: ({ params }) => ({ id: params.id }),
    respond: (data) => ({ status: 200, body: calendarWidgetSchema.parse(data.calendarWidget) }),
    success: { status: 200, schema: calendarWidgetSchema },
  },
  {
    method: 'GET',
    path: '/calendar-widgets/{id}/bookings',
    summary: 'List a calendar widget’s bookings, newest first; optional status and createdAt window [createdFrom, createdBefore)',
    tag: 'Bookings',
    auth: 'apiKey',
    scope: 'read:bookings',
    paginated: true,
    query: z.object({ status: z.enum(BOOKING_STATUSES).optional(), ...createdRangeQuery }),
    operation: 'calendar-widget-bookings-list',
    variables: ({ params, query }) => ({ calendarWidgetId: params.id, ...query }),
    respond: (data) => ({ status: 200, body: listOf(bookingSchema).parse(data.calendarWidgetBookings) }),
    success: { status: 200, schema: listOf(bookingSchema) },
  },
  {
    method: 'GET',
    path: '/bookings/{id}',
    summary: 'Read a booking',
    tag: 'Bookings',
    auth: 'apiKey',
    scope: 'read:bookings',
    operation: 'booking-get',
    variables: ({ params }) => ({ id: params.id }),
    respond: (data) => ({ status: 200, body: bookingSchema.parse(data.booking) }),
    success: { status: 200, schema: bookingSchema },
  },
];
