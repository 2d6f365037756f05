import { z } from 'zod';
import { AppError, validationFailed, type FieldProblem } from '../../errors.js';
import { EVENT_TYPES } from '../../domain/webhooks/events.service.js';
import { idNumberWith, isPlainObject, parseInput } from '../../domain/validation.js';
import type { Route } from '../route.js';
import { rowsOf } from '../rows.js';

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

export const updateWebhookBodySchema = z.object({
  url: z.string().optional().describe('absolute https URL on port 443'),
  active: z.boolean().optional().describe('true turns a deactivated subscription back on'),
});

const PATCHABLE = new Set(['url', 'active']);

/** `{ url?, active? }`; any other field is 400 forbidden_field (contract §6.5). The url's rules are the resolver's. */
export function parseUpdateWebhookBody(value: unknown): { url?: string; active?: boolean } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw validationFailed([{ field: 'body', message: 'must be a JSON object' }]);
  }
  const body = value as Record<string, unknown>;
  const forbidden = Object.keys(body).filter((key) => !PATCHABLE.has(key));
  if (forbidden.length) throw new AppError('forbidden_field', { fields: forbidden });
  const problems: FieldProblem[] = [];
  if (body.url !== undefined && typeof body.url !== 'string') problems.push({ field: 'url', message: 'url must be an absolute https URL' });
  if (body.active !== undefined && typeof body.active !== 'boolean') problems.push({ field: 'active', message: 'active must be true or false' });
  if (problems.length) throw validationFailed(problems);
  return {
    ...(typeof body.url === 'string' ? { url: body.url } : {}),
    ...(typeof body.active === 'boolean' ? { active: body.active } : {}),
  };
}

/** Any key of the account; where a row's scope depends on the subscription's event, its resolver checks it. */
export const webhooks = rowsOf({ tag: 'Webhooks', auth: 'apiKey' });

export const webhookRoutes: Route[] = [
  webhooks.row('POST /webhooks', {
    summary: 'Subscribe a webhook',
    description:
      "Subscribes an https URL to one event kind (optionally of one form). 201 with the subscription and its signing secret (whsec_…), shown only this once; an identical url, event and form answers 200 with the existing subscription and secret null. Needs the read scope of the event's resource.",
    // The scope depends on the event (submission.* read:submissions, form.* read:forms): checked by the resolver.
    errors: ['insufficient_scope'],
    body: { schema: createWebhookBodySchema, parse: parseCreateWebhookBody },
    operation: 'create-webhook',
    variables: ({ body }) => ({ input: { url: body.url, event: body.event, formId: body.formId ?? null } }),
    shape: { spread: 'webhook', keep: ['secret'] },
    success: { status: 201, also: [200] },
    outcome: (data) => (data.createWebhook.created ? {} : { status: 200 }),
  }),
  webhooks.list('/webhooks', {
    summary: 'List webhook subscriptions',
    description:
      "The account's webhook subscriptions, newest first, with url, event, form and active flag; never their secrets. Any key of the account.",
    operation: 'list-webhooks',
  }),
  webhooks.read('/webhooks/{id}', {
    operation: 'get-webhook',
    summary: 'Get a webhook subscription',
    description:
      'One webhook subscription by id (without its secret), with whether it is active. Any key of the account.',
  }),
  webhooks.row('PATCH /webhooks/{id}', {
    summary: 'Update a webhook subscription',
    description:
      "Changes a subscription's url, or turns it off or back on (active); other members are 400 forbidden_field. Needs the read scope of the subscription's event.",
    // The scope depends on the subscription's event: checked by the resolver.
    body: { schema: updateWebhookBodySchema, parse: parseUpdateWebhookBody },
    errors: ['forbidden_field', 'insufficient_scope'],
    operation: 'update-webhook',
  }),
  webhooks.row('DELETE /webhooks/{id}', {
    summary: 'Unsubscribe a webhook',
    description:
      'Deletes a webhook subscription (204); no more deliveries are made to it. Works on every plan, the Free plan included.',
    planGate: false,
    operation: 'delete-webhook',
  }),
];
