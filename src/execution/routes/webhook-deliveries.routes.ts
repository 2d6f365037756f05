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
    summary: "List a webhook's deliveries",
    description:
      "A subscription's delivery log, newest first: status (pending, succeeded, failed), attempts, last status code and error, next attempt; filter by status. No payloads. Use it to see why a receiver missed events. Any key of the account.",
    query: z.object({ status: z.enum(DELIVERY_STATUSES as [DeliveryStatus, ...DeliveryStatus[]]).optional() }),
    operation: 'list-webhook-deliveries',
    variables: ({ params, query }) => ({ ...query, webhookId: params.id }),
  }),
  webhooks.row('GET /webhooks/{id}/deliveries/{deliveryId}', {
    summary: 'Get a webhook delivery',
    description:
      "One delivery with the exact JSON body sent and every attempt (time, status code, error, duration). Needs the read scope of the subscription's event.",
    errors: ['insufficient_scope'],
    operation: 'get-webhook-delivery',
    variables: deliveryIds,
  }),
  webhooks.row('POST /webhooks/{id}/deliveries/{deliveryId}/redeliver', {
    summary: 'Redeliver a webhook delivery',
    description:
      "Sends one delivery again with its original webhook-id and payload (receivers de-duplicate on it); 202 with the delivery, now pending. Needs the read scope of the subscription's event.",
    errors: ['insufficient_scope'],
    operation: 'redeliver-webhook-delivery',
    variables: deliveryIds,
    success: { status: 202 },
  }),
  webhooks.row('POST /webhooks/{id}/replay', {
    summary: "Replay a webhook's deliveries",
    description:
      "Sends again every delivery of the subscription created in [createdFrom, createdBefore) (at most 30 days; only failed ones with status: failed), each with its original webhook-id; 202 with the number queued. Use it after a receiver's outage. Needs the read scope of the subscription's event.",
    body: { schema: replayBodySchema, parse: parseReplayBody },
    errors: ['insufficient_scope'],
    operation: 'replay-webhook',
    success: { status: 202 },
  }),
  webhooks.row('POST /webhooks/{id}/ping', {
    summary: 'Ping a webhook',
    description:
      "Sends a webhook.ping event ({ id, type, createdAt, data: { webhookId } }) to the subscription's URL at once, to test a receiver and its signature check; 202 with the new delivery. Any key of the account.",
    operation: 'ping-webhook',
    success: { status: 202 },
  }),
];
