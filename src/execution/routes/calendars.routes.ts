import { z } from 'zod';
import type { Route } from '../route.js';
import { rowsOf } from '../rows.js';
import { idQueryParam } from './params.js';
import { BOOKING_STATUSES } from '../../domain/widgets/calendars.service.js';
import { createdRangeQuery } from '../../domain/list-filters.js';

const calendars = rowsOf({ tag: 'Calendar widgets', auth: 'apiKey' });
const bookings = rowsOf({ tag: 'Bookings', auth: 'apiKey' });

export const calendarRoutes: Route[] = [
  calendars.list('/calendar-widgets', {
    summary: 'List calendar widgets',
    description:
      "The account's booking calendar widgets, newest first, each with its bookingCount; filter by domainId. Use it to find a calendar's id before listing its bookings. Needs read:calendars.",
    query: z.object({ domainId: idQueryParam.optional() }),
    operation: 'list-calendar-widgets',
  }),
  calendars.read('/calendar-widgets/{id}', {
    operation: 'get-calendar-widget',
    summary: 'Get a calendar widget',
    description:
      'One calendar widget by id with its settings, appearance and behavior (keys naming a webhook removed) and bookingCount. Needs read:calendars.',
  }),
  bookings.list('/calendar-widgets/{id}/bookings', {
    summary: "List a calendar widget's bookings",
    description:
      "A calendar widget's bookings, newest first, with invitee, slot, timezone and status; filter by one status and a createdAt window [createdFrom, createdBefore). Needs read:bookings.",
    query: z.object({ status: z.enum(BOOKING_STATUSES).optional(), ...createdRangeQuery }),
    operation: 'list-calendar-widget-bookings',
    walk: true,
    variables: ({ params, query }) => ({ calendarWidgetId: params.id, ...query }),
  }),
  bookings.read('/bookings/{id}', {
    operation: 'get-booking',
    summary: 'Get a booking',
    description:
      'One booking by id: invitee name and email, slot, timezone, status, custom fields and video-call link. Needs read:bookings.',
  }),
];
