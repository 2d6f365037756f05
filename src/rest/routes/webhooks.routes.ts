import { z } from 'zod';
import { EVENT_TYPES } from '../../domain/webhooks/events.service.js';
import { idNumberWith, isPlainObject, parseInput } from '../../domain/validation.js';
import { defineRoute, type Route } from '../route.js';

const CREATE_FIELDS = new Set(['url', 'event', 'formId']);

/**
 * JSON types only: the scope depends on `event`, so the rules (https URL, known event, the account's form) are
 * the service's, checked after the scope (check order: scope → input), for GraphQL alike.
 */
/** Unknown members are reported beside the others, as v1 always answered, even when a known one has the wrong type. */
const noUnknownMembers = z.superRefine<Record<string, unknown>>((body, ctx) => {
  for (const key of Object.keys(body)) if (!CREATE_FIELDS.has(key)) ctx.addIssue({ code: 'custom', path: [key], message: 'unknown field' });
});
// zod skips a refinement after a type error unless `when` says otherwise; superRefine takes no params, the check's def does.
noUnknownMembers._zod.def.when = ({ value }) => isPlainObject(value);

export const createWebhookBodySchema = z
  .looseObject(
    {
      url: z.string({ error: 'url is required: an absolute https URL' }).describe('absolute https URL'),
      event: z.string({ error: `event is required: one of ${EVENT_TYPES.join(', ')}` }).meta({ enum: [...EVENT_TYPES] }),
      formId: idNumberWith('formId must be the id of one of your forms').nullable().optional(),
    },
    { error: 'must be a JSON object' },
  )
  .check(noUnknownMembers)
  .meta({ additionalProperties: false });

/** v1 names a body that is not an object `body` on this route (`(body)` elsewhere). */
const parseCreateWebhookBody = (value: unknown) => parseInput(createWebhookBodySchema, value, 'body');

export const webhookRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    path: '/webhooks',
    summary:
      'Subscribe to an event (REST Hooks). 201 with the signing secret, shown once; an identical url + event + form subscription is returned with 200 and secret null',
    tag: 'Webhooks',
    auth: 'apiKey',
    // The scope depends on the event (submission.* read:submissions, form.* read:forms): checked by the resolver.
    scope: null,
    errors: ['insufficient_scope'],
    body: { schema: createWebhookBodySchema, parse: parseCreateWebhookBody },
    operation: 'webhook-create',
    variables: ({ body }) => ({ input: { url: body.url, event: body.event, formId: body.formId ?? null } }),
    shape: { spread: 'webhook', keep: ['secret'] },
    success: { status: 201, also: [200] },
    outcome: (data) => (data.createWebhook.created ? {} : { status: 200 }),
  }),
  defineRoute({
    method: 'GET',
    path: '/webhooks',
    summary: 'List webhook subscriptions, newest first (without secrets)',
    tag: 'Webhooks',
    auth: 'apiKey',
    scope: null,
    paginated: true,
    operation: 'webhook-list',
    variables: ({ query }) => query,
    success: { status: 200 },
  }),
  defineRoute({
    method: 'GET',
    path: '/webhooks/{id}',
    summary: 'Read a webhook subscription (without its secret)',
    tag: 'Webhooks',
    auth: 'apiKey',
    scope: null,
    operation: 'webhook-get',
    variables: ({ params }) => ({ id: params.id }),
    success: { status: 200 },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/webhooks/{id}',
    summary: 'Unsubscribe; works on every plan, the Free plan included',
    tag: 'Webhooks',
    auth: 'apiKey',
    scope: null,
    planGate: false,
    operation: 'webhook-delete',
    variables: ({ params }) => ({ id: params.id }),
    success: { status: 204 },
  }),
];
