import { z } from 'zod';
import { AppError, validationFailed, type FieldProblem } from '../../errors.js';
import { EVENT_TYPES } from '../../domain/webhooks/events.service.js';
import type { Route } from '../route.js';
import { listOf } from '../schemas.js';

/** v1 webhook subscription (decisions §4): `secret` only in the answer to its creation. */
export const webhookSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  event: z.enum(EVENT_TYPES as [string, ...string[]]),
  formId: z.number().int().nullable(),
  active: z.boolean(),
  createdAt: z.iso.datetime(),
});
export const createdWebhookSchema = webhookSchema.extend({ secret: z.string().nullable() });

export const createWebhookBodySchema = z.object({
  url: z.string().describe('absolute https URL'),
  event: z.enum(EVENT_TYPES as [string, ...string[]]),
  formId: z.number().int().nullable().optional(),
});

const ALLOWED = new Set(['url', 'event', 'formId']);

/**
 * JSON types only: the scope depends on `event`, so the rules (https URL, known event, the account's form)
 * are checked by the resolver after the scope (check order: scope → input).
 */
export function parseCreateWebhookBody(value: unknown): { url: string; event: string; formId: number | null } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw validationFailed([{ field: 'body', message: 'must be a JSON object' }]);
  }
  const body = value as Record<string, unknown>;
  const problems: FieldProblem[] = [];
  if (typeof body.url !== 'string') problems.push({ field: 'url', message: 'url is required: an absolute https URL' });
  if (typeof body.event !== 'string') problems.push({ field: 'event', message: `event is required: one of ${EVENT_TYPES.join(', ')}` });
  const formId = body.formId;
  if (formId !== undefined && formId !== null && !(typeof formId === 'number' && Number.isInteger(formId) && formId >= 1 && formId <= 2147483647)) {
    problems.push({ field: 'formId', message: 'formId must be the id of one of your forms' });
  }
  for (const key of Object.keys(body)) if (!ALLOWED.has(key)) problems.push({ field: key, message: 'unknown field' });
  if (problems.length) throw validationFailed(problems);
  return { url: body.url as string, event: body.event as string, formId: (formId as number | null | undefined) ?? null };
}

export const updateWebhookBodySchema = z.object({
  url: z.string().optional().describe('absolute https URL on port 443'),
  active: z.boolean().optional().describe('true turns a deactivated subscription back on'),
});

const PATCHABLE = new Set(['url', 'active']);

/** `{ url?, active? }`; any other field is 400 forbidden_field (decisions §6.5). The url's rules are the resolver's. */
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

const flatten = (data: Record<string, unknown>) => {
  const result = data.createWebhook as { webhook: Record<string, unknown>; secret: string | null; created: boolean };
  return { body: createdWebhookSchema.parse({ ...result.webhook, secret: result.secret }), created: result.created };
};

export const webhookRoutes: Route[] = [
  {
    method: 'POST',
    path: '/webhooks',
    summary:
      'Subscribe to an event (REST Hooks). 201 with the signing secret, shown once; an identical url + event + form subscription is returned with 200 and secret null',
    tag: 'Webhooks',
    auth: 'apiKey',
    // The scope depends on the event (submission.* read:submissions, form.* read:forms): checked by the resolver.
    scope: null,
    body: { schema: createWebhookBodySchema, parse: parseCreateWebhookBody },
    operation: 'webhook-create',
    variables: ({ body }) => ({ input: body }),
    respond: (data) => {
      const { body, created } = flatten(data);
      return { status: created ? 201 : 200, body };
    },
    success: { status: 201, schema: createdWebhookSchema },
  },
  {
    method: 'GET',
    path: '/webhooks',
    summary: 'List webhook subscriptions, newest first (without secrets)',
    tag: 'Webhooks',
    auth: 'apiKey',
    scope: null,
    paginated: true,
    operation: 'webhook-list',
    variables: ({ query }) => ({ ...query }),
    respond: (data) => ({ status: 200, body: listOf(webhookSchema).parse(data.webhooks) }),
    success: { status: 200, schema: listOf(webhookSchema) },
  },
  {
    method: 'GET',
    path: '/webhooks/{id}',
    summary: 'Read a webhook subscription (without its secret)',
    tag: 'Webhooks',
    auth: 'apiKey',
    scope: null,
    operation: 'webhook-get',
    variables: ({ params }) => ({ id: params.id }),
    respond: (data) => ({ status: 200, body: webhookSchema.parse(data.webhook) }),
    success: { status: 200, schema: webhookSchema },
  },
  {
    method: 'PATCH',
    path: '/webhooks/{id}',
    summary: "Change the url or turn the subscription on or off ({ url?, active? }); needs the read scope of the subscription's event",
    tag: 'Webhooks',
    auth: 'apiKey',
    // The scope depends on the subscription's event: checked by the resolver.
    scope: null,
    body: { schema: updateWebhookBodySchema, parse: parseUpdateWebhookBody },
    operation: 'webhook-update',
    variables: ({ params, body }) => ({ id: params.id, input: body }),
    respond: (data) => ({ status: 200, body: webhookSchema.parse(data.updateWebhook) }),
    success: { status: 200, schema: webhookSchema },
  },
  {
    method: 'DELETE',
    path: '/webhooks/{id}',
    summary: 'Unsubscribe; works on every plan, the Free plan included',
    tag: 'Webhooks',
    auth: 'apiKey',
    scope: null,
    planGate: false,
    operation: 'webhook-delete',
    variables: ({ params }) => ({ id: params.id }),
    respond: () => ({ status: 204 }),
    success: { status: 204 },
  },
];
