import DataLoader from 'dataloader';
import { requireApiKeyViewer, type RequestContext } from '../context.js';
import { AppError } from '../errors.js';
import { deliveriesOfEvents, getEventOrThrow, listEvents, visibleEventTypes } from '../domain/webhooks/event-history.service.js';
import { assertFilterDate, type DeliveryView } from '../domain/webhooks/deliveries.service.js';
import { EVENT_TYPES, type EventPayload } from '../domain/webhooks/events.service.js';
import { isEventType } from '../domain/webhooks/webhooks.service.js';
import { builder } from './builder.js';
import { LiveEvents } from './live-events.js';
import { walkField, walkPageRef } from './pagination.js';
import { WebhookDeliveryRef } from './webhook-delivery.js';

/**
 * The event history (contract §6.5 `GET /events`): `{ id, type, createdAt, data }` exactly as delivered, kept 30
 * days, only the kinds the key could subscribe to. GraphQL adds each event's deliveries, those to forms'
 * `webhookUrl` included (they have no subscription, so no REST delivery route reaches them).
 */

/** Per request (never module-level): one statement for the deliveries of every event on a page. */
const deliveryLoaders = new WeakMap<RequestContext, DataLoader<string, DeliveryView[]>>();
function deliveryLoader(context: RequestContext): DataLoader<string, DeliveryView[]> {
  let loader = deliveryLoaders.get(context);
  if (!loader) {
    const accountId = requireApiKeyViewer(context).accountId;
    loader = new DataLoader(async (ids) => {
      const byEvent = await deliveriesOfEvents(context.deps.db, accountId, ids);
      return ids.map((id) => byEvent.get(id) ?? []);
    });
    deliveryLoaders.set(context, loader);
  }
  return loader;
}

const EventRef = builder.objectRef<EventPayload>('Event').implement({
  fields: (t) => ({
    id: t.exposeString('id'),
    type: t.exposeString('type', { description: EVENT_TYPES.join(' | ') }),
    createdAt: t.exposeString('createdAt', { description: 'ISO 8601 date-time, as delivered' }),
    data: t.field({ type: 'JSON', description: 'the resource as delivered (a PHI form’s submission: ids only)', resolve: (event) => event.data }),
    deliveries: t.field({
      type: [WebhookDeliveryRef],
      description: "Its deliveries, newest first, to subscriptions and to the form's webhookUrl",
      resolve: (event, _args, context) => deliveryLoader(context).load(event.id),
    }),
  }),
});

const EventPage = walkPageRef('EventPage', EventRef);

builder.queryFields((t) => ({
  events: walkField(t, {
    type: EventPage,
    description: 'Events of the last 30 days, newest first; only the kinds whose read scope the key holds',
    authScopes: { apiKey: true },
    args: {
      type: t.arg.string({ description: EVENT_TYPES.join(' | ') }),
      createdFrom: t.arg({ type: 'DateTime', description: 'inclusive' }),
      createdBefore: t.arg({ type: 'DateTime', description: 'exclusive' }),
    },
    resolve: (args, page, context) => {
      const viewer = requireApiKeyViewer(context);
      if (args.type != null && !isEventType(args.type)) {
        throw new AppError('validation_failed', { fields: [{ field: 'type', message: `type must be one of ${EVENT_TYPES.join(', ')}` }] });
      }
      assertFilterDate('createdFrom', args.createdFrom);
      assertFilterDate('createdBefore', args.createdBefore);
      if (args.createdFrom && args.createdBefore && args.createdFrom >= args.createdBefore) {
        throw new AppError('validation_failed', { fields: [{ field: 'createdBefore', message: 'must be after createdFrom' }] });
      }
      const filter = { type: args.type ?? null, createdFrom: args.createdFrom ?? null, createdBefore: args.createdBefore ?? null };
      return listEvents(context.deps.db, viewer.accountId, viewer.scopes, filter, page);
    },
  }),
  event: t.field({
    type: EventRef,
    authScopes: { apiKey: true },
    args: { id: t.arg.string({ required: true }) },
    resolve: (_root, args, context) => {
      const viewer = requireApiKeyViewer(context);
      return getEventOrThrow(context.deps.db, viewer.accountId, viewer.scopes, args.id);
    },
  }),
}));

builder.subscriptionFields((t) => ({
  events: t.field({
    type: EventRef,
    description:
      'Live events (contract §7.2) over server-sent events: POST /graphql with Accept: text/event-stream. The kinds whose read scope the key holds, optionally one type, from the moment of subscribing; at most 5 open streams per key, with GET /v1/events/stream',
    authScopes: { apiKey: true },
    args: { type: t.arg.string({ description: EVENT_TYPES.join(' | ') }) },
    subscribe: async (_root, args, context) => {
      const viewer = requireApiKeyViewer(context);
      if (args.type != null && !isEventType(args.type)) {
        throw new AppError('validation_failed', { fields: [{ field: 'type', message: `type must be one of ${EVENT_TYPES.join(', ')}` }] });
      }
      const types = visibleEventTypes(viewer.scopes).filter((type) => args.type == null || type === args.type);
      const stream = await context.deps.streams.openStream({
        accountId: viewer.accountId,
        keyId: viewer.keyId,
        types,
        resume: null,
        idleMs: context.deps.config.streamKeepAliveMs,
      });
      return new LiveEvents(stream);
    },
    resolve: (event) => event,
  }),
}));
