import { z } from 'zod';
import type { Route } from '../route.js';
import { rowsOf } from '../rows.js';
import { idQueryParam } from './params.js';
import { BOOKING_STATUSES } from '../../domain/widgets/calendars.service.js';
import { createdRangeQuery } from '../../domain/list-filters.js';

const calendars = rowsOf({ tag: 'Calendar widgets', auth: 'apiKey', scope: 'read:calendars' });
const bookings = rowsOf({ tag: 'Bookings', auth: 'apiKey', scope: 'read:bookings' });

export const calendarRoutes: Route[] = [
  calendars.list('/calendar-widgets', {
    summary: 'List calendar widgets with their booking counts, newest first',
    query: z.object({ domainId: idQueryParam.optional() }),
    operation: 'calendar-widgets-list',
    variables: ({ query }) => query,
  }),
  calendars.read('/calendar-widgets/{id}', { operation: 'calendar-widget-get', summary: 'Read a calendar widget with its settings, appearance and behavior (webhook keys removed)' }),
  bookings.list('/calendar-widgets/{id}/bookings', {
    summary: 'List a calendar widget’s bookings, newest first; optional status and createdAt window [createdFrom, createdBefore)',
    query: z.object({ status: z.enum(BOOKING_STATUSES).optional(), ...createdRangeQuery }),
    operation: 'calendar-widget-bookings-list',
    variables: ({ params, query }) => ({ calendarWidgetId: params.id, ...query }),
  }),
  bookings.read('/bookings/{id}', { operation: 'booking-get', summary: 'Read a booking' }),
];
