import { z } from 'zod';
import { EVENT_TYPES } from '../../domain/webhooks/events.service.js';
import type { Route } from '../route.js';
import { rowsOf } from '../rows.js';
import { isoDateTimeParam } from './params.js';

// Any key: the kinds it sees follow its read scopes.
const events = rowsOf({ tag: 'Events', auth: 'apiKey', scope: null });

export const eventRoutes: Route[] = [
  events.list('/events', {
    summary: 'List events',
    description:
      'Events of the last 30 days (submission.created, form.created, …), newest first, exactly as they were delivered to webhooks; filter by type and createdAt window. A key sees only the kinds whose read scope it holds. Use it to catch up on what a receiver missed.',
    query: z.object({
      type: z.enum(EVENT_TYPES as [string, ...string[]]).optional(),
      createdFrom: isoDateTimeParam.optional().describe('inclusive'),
      createdBefore: isoDateTimeParam.optional().describe('exclusive'),
    }),
    operation: 'list-events',
    variables: ({ query }) => query,
  }),
  events.row('GET /events/{eventId}', {
    summary: 'Get an event',
    description:
      'One event (evt_…) as it was delivered: { id, type, createdAt, data }. 404 for a kind whose read scope the key lacks.',
    operation: 'get-event',
    variables: ({ params }) => ({ id: params.eventId }),
    success: { status: 200 },
  }),
];
