import { z } from 'zod';
import { EVENT_TYPES } from '../../domain/webhooks/events.service.js';
import type { Route } from '../route.js';
import { listOf } from '../schemas.js';
import { isoDateTimeParam } from './params.js';

/** An event exactly as delivered (decisions §6.5 `GET /events`). */
export const eventSchema = z.object({
  id: z.string(),
  type: z.enum(EVENT_TYPES as [string, ...string[]]),
  createdAt: z.iso.datetime(),
  data: z.record(z.string(), z.unknown()),
});

export const eventRoutes: Route[] = [
  {
    method: 'GET',
    path: '/events',
    summary: 'Events of the last 30 days, newest first, as delivered; only the kinds whose read scope the key holds',
    tag: 'Events',
    auth: 'apiKey',
    // Any key: the kinds it sees follow its read scopes.
    scope: null,
    paginated: true,
    query: z.object({
      type: z.enum(EVENT_TYPES as [string, ...string[]]).optional(),
      createdFrom: isoDateTimeParam.optional().describe('inclusive'),
      createdBefore: isoDateTimeParam.optional().describe('exclusive'),
    }),
    operation: 'events-list',
    variables: ({ query }) => ({ ...query }),
    respond: (data) => ({ status: 200, body: listOf(eventSchema).parse(data.events) }),
    success: { status: 200, schema: listOf(eventSchema) },
  },
  {
    method: 'GET',
    path: '/events/{eventId}',
    summary: 'One event as delivered (404 for a kind whose read scope the key lacks)',
    tag: 'Events',
    auth: 'apiKey',
    scope: null,
    operation: 'event-get',
    variables: ({ params }) => ({ id: params.eventId }),
    respond: (data) => ({ status: 200, body: eventSchema.parse(data.event) }),
    success: { status: 200, schema: eventSchema },
  },
];
