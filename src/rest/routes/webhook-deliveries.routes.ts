import type { DeliveryStatus } from '../../generated/prisma/client.js';
import { z } from 'zod';
import { validationFailed, type FieldProblem } from '../../errors.js';
import { DELIVERY_STATUSES } from '../../domain/webhooks/deliveries.service.js';
import type { Route } from '../route.js';
import { webhooks } from './webhooks.routes.js';
import { isoDateTimeParam } from './params.js';

export const replayBodySchema = z.object({
  createdFrom: isoDateTimeParam.describe('inclusive'),
  createdBefore: isoDateTimeParam.describe('exclusive; at most 30 days after createdFrom'),
  status: z.literal('failed').optional().describe('only failed deliveries'),
});

/** JSON types and shapes; the window's rules (not inverted, at most 30 days) are the resolver's. */
export function parseReplayBody(value: unknown): z.output<typeof replayBodySchema> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw validationFailed([{ field: 'body', message: 'must be a JSON object' }]);
  const result = replayBodySchema.strict().safeParse(value);
  if (result.success) return result.data;
  const problems: FieldProblem[] = result.error.issues.map((issue) => ({
    field: issue.path.length ? issue.path.join('.') : issue.code === 'unrecognized_keys' ? issue.keys.join(',') : 'body',
    message: issue.code === 'unrecognized_keys' ? 'unknown field' : issue.message,
  }));
  throw validationFailed(problems);
}

const deliveryIds = ({ params }: { params: { id: number; deliveryId: number } }) => ({ webhookId: params.id, id: params.deliveryId });

/** The delivery log of a subscription (contract §6.5). Deliveries to a form's webhookUrl are reached through GraphQL. */
export const webhookDeliveryRoutes: Route[] = [
  webhooks.list('/webhooks/{id}/deliveries', {
    summary: "A subscription's deliveries, newest first, optionally of one status (no payloads; any key of the account)",
    query: z.object({ status: z.enum(DELIVERY_STATUSES as [DeliveryStatus, ...DeliveryStatus[]]).optional() }),
    operation: 'webhook-deliveries-list',
    variables: ({ params, query }) => ({ ...query, webhookId: params.id }),
  }),
  webhooks.row('GET /webhooks/{id}/deliveries/{deliveryId}', {
    summary: "One delivery with the exact body sent and every attempt; needs the read scope of the subscription's event",
    errors: ['insufficient_scope'],
    operation: 'webhook-delivery-get',
    variables: deliveryIds,
    success: { status: 200 },
  }),
  webhooks.row('POST /webhooks/{id}/deliveries/{deliveryId}/redeliver', {
    summary: 'Send a delivery again, with its original webhook-id and payload; 202 with the delivery, now pending',
    errors: ['insufficient_scope'],
    operation: 'webhook-delivery-redeliver',
    variables: deliveryIds,
    success: { status: 202 },
  }),
  webhooks.row('POST /webhooks/{id}/replay', {
    summary:
      'Send again every delivery of the subscription created in [createdFrom, createdBefore) (at most 30 days; only failed ones with status "failed"); queued, 202 at once',
    body: { schema: replayBodySchema, parse: parseReplayBody },
    errors: ['insufficient_scope'],
    operation: 'webhook-replay',
    variables: ({ params, body }) => ({ id: params.id, input: body }),
    success: { status: 202 },
  }),
  webhooks.row('POST /webhooks/{id}/ping', {
    summary: 'Send { id, type: "webhook.ping", createdAt, data: { webhookId } } at once; 202 with the new delivery',
    operation: 'webhook-ping',
    variables: ({ params }) => ({ id: params.id }),
    success: { status: 202 },
  }),
];
