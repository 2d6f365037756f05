import { z } from 'zod';
import { defineRoute, type Route } from '../route.js';
import { idQueryParam } from './params.js';
import { BOOKING_STATUSES } from '../../domain/widgets/calendars.service.js';
import { createdRangeQuery } from '../../domain/list-filters.js';

export const calendarRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/calendar-widgets',
    summary: 'List calendar widgets with their booking counts, newest first',
    tag: 'Calendar widgets',
    auth: 'apiKey',
    scope: 'read:calendars',
    paginated: true,
    query: z.object({ domainId: idQueryParam.optional() }),
    operation: 'calendar-widgets-list',
    variables: ({ query }) => query,
    success: { status: 200 },
  }),
  defineRoute({
    method: 'GET',
    path: '/calendar-widgets/{id}',
    summary: 'Read a calendar widget with its settings, appearance and behavior (webhook keys removed)',
    tag: 'Calendar widgets',
    auth: 'apiKey',
    scope: 'read:calendars',
    operation: 'calendar-widget-get',
    variables: ({ params }) => ({ id: params.id }),
    success: { status: 200 },
  }),
  defineRoute({
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
    success: { status: 200 },
  }),
  defineRoute({
    method: 'GET',
    path: '/bookings/{id}',
    summary: 'Read a booking',
    tag: 'Bookings',
    auth: 'apiKey',
    scope: 'read:bookings',
    operation: 'booking-get',
    variables: ({ params }) => ({ id: params.id }),
    success: { status: 200 },
  }),
];
