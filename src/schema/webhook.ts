import { requireApiKeyViewer } from '../context.js';
import { AppError } from '../errors.js';
import {
  createWebhookSubscription,
  deleteWebhookSubscription,
  getWebhookSubscriptionOrThrow,
  isEventType,
  listWebhookDeliveries,
  listWebhookSubscriptions,
  scopeForEvent,
  updateWebhookSubscription,
  type CreatedWebhookSubscription,
  type WebhookSubscriptionView,
} from '../domain/webhooks/webhooks.service.js';
import { EVENT_TYPES } from '../domain/webhooks/events.service.js';
import { builder } from './builder.js';
import { pageField, pageRef } from './pagination.js';
import { DeliveryStatusEnum, WebhookDeliveryPage } from './webhook-delivery.js';

/**
 * REST Hooks subscriptions (contract §4): the fields behind POST/GET /webhooks, GET/DELETE /webhooks/{id},
 * plus the deliveries list for dashboards (GraphQL only). The secret appears once, in createWebhook's answer.
 */

export const WebhookRef = builder.objectRef<WebhookSubscriptionView>('WebhookSubscription').implement({
  fields: (t) => ({
    id: t.exposeInt('id'),
    url: t.exposeString('url'),
    event: t.exposeString('event', { description: EVENT_TYPES.join(' | ') }),
    formId: t.exposeInt('formId', { nullable: true }),
    active: t.exposeBoolean('active', { description: 'false once the receiver answered 410 Gone, or after 3 days of only failed deliveries' }),
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

const CreateWebhookInput = builder.inputType('CreateWebhookInput', {
  fields: (t) => ({
    url: t.string({ required: true, description: 'absolute https URL' }),
    event: t.string({ required: true, description: EVENT_TYPES.join(' | ') }),
    formId: t.int({ description: 'only this form’s events' }),
  }),
});

builder.queryFields((t) => ({
  webhooks: pageField(t, {
    type: WebhookPage,
    description: 'Webhook subscriptions, newest first (any key of the account)',
    authScopes: { apiKey: true },
    args: {},
    resolve: (_args, page, context) => listWebhookSubscriptions(context.deps.db.prisma, requireApiKeyViewer(context).accountId, page),
  }),
  webhook: t.field({
    type: WebhookRef,
    authScopes: { apiKey: true },
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, args, context) => getWebhookSubscriptionOrThrow(context.deps.db.prisma, requireApiKeyViewer(context).accountId, args.id),
  }),
  webhookDeliveries: pageField(t, {
    type: WebhookDeliveryPage,
    description: 'Deliveries for dashboards, newest first: attempts, last status code, latency, next retry',
    authScopes: { apiKey: true },
    args: { webhookId: t.arg.int(), status: t.arg({ type: DeliveryStatusEnum }) },
    resolve: (args, page, context) =>
      listWebhookDeliveries(context.deps.db.prisma, requireApiKeyViewer(context).accountId, page, {
        ...(args.webhookId != null ? { subscriptionId: args.webhookId } : {}),
        ...(args.status ? { status: args.status } : {}),
      }),
  }),
}));

const UpdateWebhookInput = builder.inputType('UpdateWebhookInput', {
  fields: (t) => ({
    url: t.string({ description: 'absolute https URL on port 443' }),
    active: t.boolean({ description: 'true turns a deactivated subscription back on' }),
  }),
});

builder.mutationFields((t) => ({
  updateWebhook: t.field({
    type: WebhookRef,
    description: "Changes the url or turns the subscription on or off; needs the read scope of the subscription's event",
    authScopes: { apiKey: true },
    args: { id: t.arg.int({ required: true }), input: t.arg({ type: UpdateWebhookInput, required: true }) },
    resolve: async (_root, args, context) => {
      const viewer = requireApiKeyViewer(context);
      const prisma = context.deps.db.prisma;
      // Pointing a subscription elsewhere sends its event's resources there: the same scope as subscribing.
      const current = await getWebhookSubscriptionOrThrow(prisma, viewer.accountId, args.id);
      const required = scopeForEvent(current.event);
      if (!viewer.scopes.has(required)) throw new AppError('insufficient_scope', { required });
      return updateWebhookSubscription(prisma, viewer.accountId, args.id, {
        ...(args.input.url !== undefined ? { url: args.input.url } : {}),
        ...(args.input.active !== undefined ? { active: args.input.active } : {}),
      });
    },
  }),
  createWebhook: t.field({
    type: CreateWebhookResultRef,
    description: 'Subscribes to an event; needs the read scope of its resource (submission.* read:submissions, form.* read:forms)',
    authScopes: { apiKey: true },
    args: { input: t.arg({ type: CreateWebhookInput, required: true }) },
    resolve: (_root, args, context) => {
      const viewer = requireApiKeyViewer(context);
      // The scope depends on the input, so it is checked here, before the rest of the input (contract §4 order).
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
