import { z } from 'zod';
import { EVENT_TYPES } from '../../domain/webhooks/events.service.js';
import type { Route } from '../route.js';
import { rowsOf } from '../rows.js';
import { isoDateTimeParam } from './params.js';

// Any key: the kinds it sees follow its read scopes.
const events = rowsOf({ tag: 'Events', auth: 'apiKey', scope: null });

export const eventRoutes: Route[] = [
  events.list('/events', {
    summary: 'Events of the last 30 days, newest first, as delivered; only the kinds whose read scope the key holds',
    query: z.object({
      type: z.enum(EVENT_TYPES as [string, ...string[]]).optional(),
      createdFrom: isoDateTimeParam.optional().describe('inclusive'),
      createdBefore: isoDateTimeParam.optional().describe('exclusive'),
    }),
    operation: 'events-list',
    variables: ({ query }) => query,
  }),
  events.row('GET /events/{eventId}', {
    summary: 'One event as delivered (404 for a kind whose read scope the key lacks)',
    operation: 'event-get',
    variables: ({ params }) => ({ id: params.eventId }),
    success: { status: 200 },
  }),
];
