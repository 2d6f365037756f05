import { z } from 'zod';
import type { Route } from '../route.js';
import { rowsOf } from '../rows.js';

/** Erasure (contract §6.3): DELETE /submissions/{id}, POST /erasure-requests, GET /erasure-requests/{id}. */

/**
 * The envelope only; the address itself is checked by the service, shared with GraphQL. Unknown members are
 * reported alone, before a missing or non-string email, as the route always answered.
 */
const createErasureBodySchema = z
  .looseObject(
    { email: z.unknown().meta({ type: 'string', description: 'the data subject’s address, matched trimmed and case-insensitively' }) },
    { error: 'must be a JSON object' },
  )
  .superRefine((body, ctx) => {
    const unknown = Object.keys(body).filter((key) => key !== 'email');
    for (const key of unknown) ctx.addIssue({ code: 'custom', path: [key], message: 'unknown field' });
    if (!unknown.length && typeof body.email !== 'string') ctx.addIssue({ code: 'custom', path: ['email'], message: 'must be an email address' });
  })
  .pipe(z.object({ email: z.string() }))
  .meta({ required: ['email'], additionalProperties: false });

const erasure = rowsOf({ tag: 'Erasure', auth: 'apiKey', scope: 'write:submissions' });

export const erasureRoutes: Route[] = [
  erasure.row('DELETE /submissions/{id}', {
    summary:
      'Erase a submission: gone from reads, lists, totals and counts, its formData from every stored copy (idempotency record included); fires submission.deleted; its Idempotency-Key then replays as 404',
    operation: 'delete-submission',
    variables: ({ params }) => ({ id: params.id }),
    success: { status: 204 },
  }),
  erasure.row('POST /erasure-requests', {
    summary: 'Erase every submission one of whose formData values is this email (trimmed, case-insensitive), PHI forms included, in the background; 202',
    body: createErasureBodySchema,
    operation: 'create-erasure-request',
    variables: ({ body }) => ({ email: body.email }),
    success: { status: 202 },
  }),
  erasure.read('/erasure-requests/{id}', {
    operation: 'get-erasure-request',
    summary: 'Follow an erasure request: status pending → running → done, with the number of submissions erased',
  }),
];
