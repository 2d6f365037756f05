import { z } from 'zod';
import type { Route } from '../route.js';
import { rowsOf } from '../rows.js';
import { oneMemberBody } from './params.js';

/** Erasure (contract §6.3): DELETE /submissions/{id}, POST /erasure-requests, GET /erasure-requests/{id}. */

/** The envelope only; the address itself is checked by the service, shared with GraphQL. */
const createErasureBodySchema = oneMemberBody('email', { type: 'string', description: 'the data subject’s address, matched trimmed and case-insensitively' }, (email) =>
  typeof email === 'string' ? null : 'must be an email address',
)
  .pipe(z.object({ email: z.string() }))
  .meta({ required: ['email'], additionalProperties: false });

const erasure = rowsOf({ tag: 'Erasure', auth: 'apiKey' });

export const erasureRoutes: Route[] = [
  erasure.row('DELETE /submissions/{id}', {
    summary: 'Erase a submission',
    description:
      'Erases one submission for good (204): it is gone from reads, lists, totals and counts, and its formData from every stored copy (idempotency records, events, webhook payloads). Fires submission.deleted; a replay of its Idempotency-Key then answers 404. Cannot be undone. Needs write:submissions.',
    operation: 'delete-submission',
  }),
  erasure.row('POST /erasure-requests', {
    summary: "Erase a person's submissions",
    description:
      'Starts erasing, in the background, every submission of the account (PHI forms included) one of whose formData values is this email, trimmed and case-insensitive; 202 with the request, status pending. Follow it with get-erasure-request. Cannot be undone. Needs write:submissions.',
    body: createErasureBodySchema,
    operation: 'create-erasure-request',
    variables: ({ body }) => ({ email: body.email }),
    success: { status: 202 },
  }),
  erasure.read('/erasure-requests/{id}', {
    operation: 'get-erasure-request',
    summary: 'Get an erasure request',
    description:
      'Follows an erasure request: status pending, running, then done, with the number of submissions erased so far. Needs write:submissions.',
  }),
];
