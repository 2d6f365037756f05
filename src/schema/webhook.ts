import { requireApiKeyViewer } from '../context.js';
import { AppError } from '../errors.js';
import { normalizePagination } from '../domain/pagination.js';
import {
  createWebhookSubscription,
  deleteWebhookSubscription,
  getWebhookSubscriptionOrThrow,
  isEventType,
  listWebhookDeliveries,
  listWebhookSubscriptions,
  scopeForEvent,
  type CreatedWebhookSubscription,
  type WebhookDeliveryView,
  type WebhookSubscriptionView,
} from '../domain/webhooks/webhooks.service.js';
import { EVENT_TYPES } from '../domain/webhooks/events.service.js';
import { builder } from './builder.js';
import { pageArgs, pageRef, listComplexity } from './pagination.js';

/**
 * REST Hooks subscriptions (decisions §4): the fields behind POST/GET /webhooks, GET/DELETE /webhooks/{id},
 * plus the deliveries list for dashboards (GraphQL only). The secret appears once, in createWebhook's answer.
 */

export const WebhookRef = builder.objectRef<WebhookSubscriptionView>('WebhookSubscription').implement({
  fields: (t) => ({
    id: t.exposeInt('id'),
    url: t.exposeString('url'),
    event: t.exposeString('event', { description: EVENT_TYPES.join(' | ') }),
    formId: t.exposeInt('formId', { nullable: true }),
    active: t.exposeBoolean('active', { description: 'false once the receiver answered 410 Gone' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const WebhookPage = pageRef('WebhookSubscriptionPage', WebhookRef);

const CreateWebhookResultRef = builder.objectRef<CreatedWebhookSubscription>('CreateWebhookResult').implement({
  fields: (t) => ({
    webhook: t.field({ type: WebhookRef, resolve: (result) => result }),
    secret: t.exposeString('secret', {
      nullable: true,
      description: 'The signing secret (whsec_…), shown only when the subscription is created; null when an identical one already existed',
    }),
    created: t.exposeBoolean('created', { description: 'false when the same url + event + form was already subscribed: that subscription is returned' }),
  }),
});

const DeliveryStatusEnum = builder.enumType('WebhookDeliveryStatus', { values: ['pending', 'succeeded', 'failed'] as const });

const WebhookDeliveryRef = builder.objectRef<WebhookDeliveryView>('WebhookDelivery').implement({
  fields: (t) => ({
    id: t.exposeInt('id'),
    webhookId: t.exposeInt('subscriptionId', { nullable: true, description: "null for deliveries to a form's webhookUrl" }),
    formId: t.exposeInt('formId', { nullable: true }),
    event: t.exposeString('eventType'),
    messageId: t.exposeString('messageId', { description: 'the webhook-id header, the same on every retry' }),
    status: t.field({ type: DeliveryStatusEnum, resolve: (d) => d.status }),
    attempts: t.exposeInt('attempts'),
    lastStatusCode: t.exposeInt('lastStatusCode', { nullable: true }),
    lastLatencyMs: t.exposeInt('lastLatencyMs', { nullable: true }),
    lastError: t.exposeString('lastError', { nullable: true, description: 'http_<status>, timeout, blocked_address, …' }),
    nextAttemptAt: t.expose('nextAttemptAt', { type: 'DateTime', nullable: true }),
    deliveredAt: t.expose('deliveredAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const WebhookDeliveryPage = pageRef('WebhookDeliveryPage', WebhookDeliveryRef);

const CreateWebhookInput = builder.inputType('CreateWebhookInput', {
  fields: (t) => ({
    url: t.string({ required: true, description: 'absolute https URL' }),
    event: t.string({ required: true, description: EVENT_TYPES.join(' | ') }),
    formId: t.int({ description: 'only this form’s events' }),
  }),
});

builder.queryFields((t) => ({
  webhooks: t.field({
    type: WebhookPage,
    description: 'Webhook subscriptions, newest first (any key of the account)',
    authScopes: { apiKey: true },
    complexity: listComplexity,
    args: { ...pageArgs(t.arg) },
    resolve: (_root, args, context) =>
      listWebhookSubscriptions(context.deps.db.prisma, requireApiKeyViewer(context).accountId, normalizePagination(args.page, args.limit)),
  }),
  webhook: t.field({
    type: WebhookRef,
    authScopes: { apiKey: true },
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, args, context) => getWebhookSubscriptionOrThrow(context.deps.db.prisma, requireApiKeyViewer(context).accountId, args.id),
  }),
  webhookDeliveries: t.field({
    type: WebhookDeliveryPage,
    description: 'Deliveries for dashboards, newest first: attempts, last status code, latency, next retry',
    authScopes: { apiKey: true },
    complexity: listComplexity,
    args: { ...pageArgs(t.arg), webhookId: t.arg.int(), status: t.arg({ type: DeliveryStatusEnum }) },
    resolve: (_root, args, context) =>
      listWebhookDeliveries(context.deps.db.prisma, requireApiKeyViewer(context).accountId, normalizePagination(args.page, args.limit), {
        ...(args.webhookId != null ? { subscriptionId: args.webhookId } : {}),
        ...(args.status ? { status: args.status } : {}),
      }),
  }),
}));

builder.mutationFields((t) => ({
  createWebhook: t.field({
    type: CreateWebhookResultRef,
    description: 'Subscribes to an event; needs the read scope of its resource (submission.* read:submissions, form.* read:forms)',
    authScopes: { apiKey: true },
    args: { input: t.arg({ type: CreateWebhookInput, required: true }) },
    resolve: (_root, args, context) => {
      const viewer = requireApiKeyViewer(context);
      // The scope depends on the input, so it is checked here, before the rest of the input (decisions §4 order).
      if (isEventType(args.input.event)) {
        const required = scopeForEvent(args.input.event);
        if (!viewer.scopes.has(required)) throw new AppError('insufficient_scope', { required });
      }
      return createWebhookSubscription(context.deps.db.prisma, viewer.accountId, {
        url: args.input.url,
        event: args.input.event,
        formId: args.input.formId ?? null,
      });
    },
  }),
  deleteWebhook: t.boolean({
    description: 'Unsubscribes (works on every plan); pending deliveries to it are dropped',
    authScopes: { apiKey: true },
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_root, args, context) => {
      await deleteWebhookSubscription(context.deps.db.prisma, requireApiKeyViewer(context).accountId, args.id);
      return true;
    },
  }),
}));
