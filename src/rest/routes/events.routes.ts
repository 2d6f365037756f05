import { z } from 'zod';
import { EVENT_TYPES } from '../../domain/webhooks/events.service.js';
import { defineRoute, type Route } from '../route.js';
import { isoDateTimeParam } from './params.js';

export const eventRoutes: Route[] = [
  defineRoute({
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
    success: { status: 200 },
  }),
  defineRoute({
    method: 'GET',
    path: '/events/{eventId}',
    summary: 'One event as delivered (404 for a kind whose read scope the key lacks)',
    tag: 'Events',
    auth: 'apiKey',
    scope: null,
    operation: 'event-get',
    variables: ({ params }) => ({ id: params.eventId }),
    success: { status: 200 },
  }),
];
