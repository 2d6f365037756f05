import { requireApiKeyViewer, type ApiKeyViewer } from '../context.js';
import { AppError } from '../errors.js';
import { assertReplayWindow, getSubscriptionDelivery, listSubscriptionDeliveries, type AttemptView, type DeliveryDetailView, type DeliveryView } from '../domain/webhooks/deliveries.service.js';
import { ping, redeliver, replay, subscriptionEventOrThrow } from '../domain/webhooks/delivery-actions.service.js';
import { isEventType, scopeForEvent } from '../domain/webhooks/webhooks.service.js';
import { builder } from './builder.js';
import { pageField, pageRef } from './pagination.js';

/**
 * Webhook deliveries (contract §6.5): the log of one subscription, one delivery with its payload and attempts,
 * and sending again (redeliver, replay, ping). A delivery's payload is its event's resource: reading it, or
 * resending it, needs the read scope a subscriber to that event needs.
 */

export const DeliveryStatusEnum = builder.enumType('WebhookDeliveryStatus', { values: ['pending', 'succeeded', 'failed'] as const });

const AttemptRef = builder.objectRef<AttemptView>('WebhookDeliveryAttempt').implement({
  fields: (t) => ({
    at: t.exposeString('at', { description: 'ISO 8601 date-time' }),
    statusCode: t.exposeInt('statusCode', { nullable: true }),
    error: t.exposeString('error', { nullable: true }),
    durationMs: t.exposeInt('durationMs'),
  }),
});

/** One type for lists and the detail: `payload` and `attemptLog` are read by `webhookDelivery` only (lists: null). */
export const WebhookDeliveryRef = builder.objectRef<DeliveryView & Partial<Pick<DeliveryDetailView, 'payload' | 'attemptLog'>>>('WebhookDelivery').implement({
  fields: (t) => ({
    id: t.exposeInt('id'),
    webhookId: t.exposeInt('webhookId', { nullable: true, description: "null for deliveries to a form's webhookUrl" }),
    eventId: t.exposeString('eventId'),
    eventType: t.exposeString('eventType', { description: 'an event kind, or webhook.ping' }),
    status: t.field({ type: DeliveryStatusEnum, resolve: (d) => d.status }),
    attempts: t.exposeInt('attempts'),
    lastAttemptAt: t.expose('lastAttemptAt', { type: 'DateTime', nullable: true }),
    lastStatusCode: t.exposeInt('lastStatusCode', { nullable: true }),
    lastError: t.exposeString('lastError', { nullable: true, description: 'http_<status>, timeout, blocked_address, … (the outbound-fetch reasons)' }),
    nextAttemptAt: t.expose('nextAttemptAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    formId: t.exposeInt('formId', { nullable: true }),
    event: t.exposeString('eventType', { deprecationReason: 'use eventType' }),
    messageId: t.exposeString('messageId', { description: 'the webhook-id header, the same on every retry and redelivery' }),
    lastLatencyMs: t.exposeInt('lastLatencyMs', { nullable: true }),
    deliveredAt: t.expose('deliveredAt', { type: 'DateTime', nullable: true }),
    payload: t.field({ type: 'JSON', nullable: true, description: 'the exact JSON body sent (webhookDelivery only)', resolve: (d) => d.payload ?? null }),
    attemptLog: t.field({ type: [AttemptRef], nullable: true, description: 'every try, oldest first (webhookDelivery only)', resolve: (d) => d.attemptLog ?? null }),
  }),
});

export const WebhookDeliveryPage = pageRef('WebhookDeliveryPage', WebhookDeliveryRef);

const ReplayResultRef = builder.objectRef<{ replayed: number }>('WebhookReplayResult').implement({
  fields: (t) => ({ replayed: t.exposeInt('replayed') }),
});

const ReplayInput = builder.inputType('ReplayWebhookInput', {
  fields: (t) => ({
    createdFrom: t.field({ type: 'DateTime', required: true, description: 'inclusive' }),
    createdBefore: t.field({ type: 'DateTime', required: true, description: 'exclusive; at most 30 days after createdFrom' }),
    status: t.field({ type: DeliveryStatusEnum, description: 'failed: only failed deliveries' }),
  }),
});

/** The read scope of the subscription's event (a ping needs none). */
function assertEventScope(viewer: ApiKeyViewer, event: string): void {
  if (!isEventType(event)) return;
  const required = scopeForEvent(event);
  if (!viewer.scopes.has(required)) throw new AppError('insufficient_scope', { required });
}

builder.queryFields((t) => ({
  webhookDeliveryLog: pageField(t, {
    type: WebhookDeliveryPage,
    description: "A subscription's deliveries, newest first, optionally of one status",
    authScopes: { apiKey: true },
    args: { webhookId: t.arg.int({ required: true }), status: t.arg({ type: DeliveryStatusEnum }) },
    resolve: (args, page, context) =>
      listSubscriptionDeliveries(context.deps.db, requireApiKeyViewer(context).accountId, args.webhookId, page, args.status),
  }),
  webhookDelivery: t.field({
    type: WebhookDeliveryRef,
    description: "One delivery with the exact body sent and every attempt; needs the read scope of the subscription's event",
    authScopes: { apiKey: true },
    args: { webhookId: t.arg.int({ required: true }), id: t.arg.int({ required: true }) },
    resolve: async (_root, args, context) => {
      const viewer = requireApiKeyViewer(context);
      const delivery = await getSubscriptionDelivery(context.deps.db, viewer.accountId, args.webhookId, args.id);
      // What the payload carries: the subscription's event, or a ping's webhookId (which needs no read scope).
      assertEventScope(viewer, delivery.eventType);
      return delivery;
    },
  }),
}));

builder.mutationFields((t) => ({
  redeliverWebhookDelivery: t.field({
    type: WebhookDeliveryRef,
    description: 'Sends a delivery again with its original webhook-id and payload; answers it pending',
    authScopes: { apiKey: true },
    args: { webhookId: t.arg.int({ required: true }), id: t.arg.int({ required: true }) },
    resolve: async (_root, args, context) => {
      const viewer = requireApiKeyViewer(context);
      assertEventScope(viewer, await subscriptionEventOrThrow(context.deps.db, viewer.accountId, args.webhookId));
      return redeliver(context.deps, viewer.accountId, args.webhookId, args.id);
    },
  }),
  replayWebhook: t.field({
    type: ReplayResultRef,
    description: 'Queues again every settled delivery of the subscription created in a window of at most 30 days',
    authScopes: { apiKey: true },
    args: { id: t.arg.int({ required: true }), input: t.arg({ type: ReplayInput, required: true }) },
    resolve: async (_root, args, context) => {
      const viewer = requireApiKeyViewer(context);
      const { createdFrom, createdBefore, status } = args.input;
      if (status && status !== 'failed') {
        throw new AppError('validation_failed', { fields: [{ field: 'status', message: 'status may only be failed' }] });
      }
      const window = { createdFrom, createdBefore, onlyFailed: status === 'failed' };
      assertReplayWindow(window);
      assertEventScope(viewer, await subscriptionEventOrThrow(context.deps.db, viewer.accountId, args.id));
      const replayed = await replay(context.deps, viewer.accountId, args.id, window);
      return { replayed };
    },
  }),
  pingWebhook: t.field({
    type: WebhookDeliveryRef,
    description: 'Sends { id, type: "webhook.ping", createdAt, data: { webhookId } } at once (even to an inactive subscription)',
    authScopes: { apiKey: true },
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, args, context) => ping(context.deps, requireApiKeyViewer(context).accountId, args.id),
  }),
}));
