import { z } from 'zod';
import { requireApiKeyViewer } from '../../context.js';
import { visibleEventTypes } from '../../domain/webhooks/event-history.service.js';
import { EVENT_TYPES, type EventPayload } from '../../domain/webhooks/events.service.js';
import { defineStreamRoute, type TableRoute } from '../route.js';
import { rowsOf } from '../rows.js';
import { ServerSentEvents } from '../server-sent-events.js';
import { isoDateTimeParam } from './params.js';

// Any key: the kinds it sees follow its read scopes.
const events = rowsOf({ tag: 'Events', auth: 'apiKey' });

const eventType = z.enum(EVENT_TYPES as [string, ...string[]]);

/**
 * A `data` line per event, made once per replica however many streams carry it: the tail hands every stream the
 * same payload object, and the line depends on nothing but the event (GET /events/{id}'s fields are the event's own).
 */
const dataLines = new WeakMap<EventPayload, Promise<string>>();

export const eventRoutes: TableRoute[] = [
  // Before /events/{eventId}, which the path would match too.
  defineStreamRoute({
    method: 'GET',
    path: '/events/stream',
    summary: 'Stream live events',
    description:
      'Server-sent events (text/event-stream): each new event as GET /events/{id} answers it (id: <event id>, event: <type>, data: <JSON>), only the kinds whose read scope the key holds, optionally one type. Resumes after Last-Event-ID (header, or lastEventId) with no gap and no duplicate; without it, from the moment of connection. A : keep-alive comment at least every 15 s. At most 5 open streams per key (REST and GraphQL together); opening one costs 1 request.',
    tag: 'Events',
    auth: 'apiKey',
    scope: null,
    query: z.object({
      type: eventType.optional(),
      lastEventId: z.string().min(1).max(256).optional().describe('as the Last-Event-ID header, which wins when both are sent (an EventSource reconnecting sends the header)'),
    }),
    requestHeaders: ['Last-Event-ID'],
    errors: ['validation_failed', 'too_many_streams'],
    operationId: 'stream-events',
    stream: async ({ query, headers }, context, { present }) => {
      const viewer = requireApiKeyViewer(context);
      const header = headers.get('last-event-id');
      const resume = header ? { eventId: header, field: 'Last-Event-ID' } : query.lastEventId ? { eventId: query.lastEventId, field: 'lastEventId' } : null;
      const types = visibleEventTypes(viewer.scopes).filter((type) => !query.type || type === query.type);
      const stream = await context.deps.streams.openStream({
        accountId: viewer.accountId,
        keyId: viewer.keyId,
        types,
        resume,
        idleMs: context.deps.config.streamKeepAliveMs,
      });
      const data = (event: EventPayload): Promise<string> => {
        let line = dataLines.get(event);
        if (!line) dataLines.set(event, (line = present.event(event).then((body) => JSON.stringify(body))));
        return line;
      };
      return {
        status: 200,
        // Cache-Control and Vary: the facade's, as on every authenticated GET.
        headers: { 'content-type': 'text/event-stream; charset=utf-8', 'x-accel-buffering': 'no' },
        body: new ServerSentEvents(stream, data),
      };
    },
    success: {
      status: 200,
      media: {
        'text/event-stream': {
          schema: z.string(),
          description: 'messages `id: <event id>`, `event: <type>`, `data: <the event as GET /events/{id} answers it>`; `: keep-alive` comments at least every 15 s',
        },
      },
    },
  }),
  events.list('/events', {
    summary: 'List events',
    description:
      'Events of the last 30 days (submission.created, form.created, …), newest first, exactly as they were delivered to webhooks; filter by type and createdAt window. A key sees only the kinds whose read scope it holds. Use it to catch up on what a receiver missed.',
    query: z.object({
      type: eventType.optional(),
      createdFrom: isoDateTimeParam.optional().describe('inclusive'),
      createdBefore: isoDateTimeParam.optional().describe('exclusive'),
    }),
    operation: 'list-events',
    walk: true,
  }),
  events.row('GET /events/{eventId}', {
    summary: 'Get an event',
    description:
      'One event (evt_…) as it was delivered: { id, type, createdAt, data }. 404 for a kind whose read scope the key lacks.',
    operation: 'get-event',
    variables: ({ params }) => ({ id: params.eventId }),
  }),
];
