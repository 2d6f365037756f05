import { z } from 'zod';
import { validationFailed } from '../../errors.js';
import { isPlainObject } from '../../domain/validation.js';
import type { Route } from '../route.js';

/** Erasure (decisions §6.3): DELETE /submissions/{id}, POST /erasure-requests, GET /erasure-requests/{id}. */

export const erasureRequestSchema = z.object({
  id: z.number().int(),
  status: z.enum(['pending', 'running', 'done']),
  submissionsErased: z.number().int(),
  createdAt: z.iso.datetime(),
  completedAt: z.iso.datetime().nullable(),
});

const createErasureBodySchema = z.object({ email: z.string().describe('the data subject’s address, matched trimmed and case-insensitively') }).strict();

/** The envelope only; the address itself is checked by the service, shared with GraphQL. */
function parseCreateErasureBody(value: unknown): { email: unknown } {
  if (!isPlainObject(value)) throw validationFailed([{ field: '(body)', message: 'must be a JSON object' }]);
  const unknownKeys = Object.keys(value).filter((key) => key !== 'email');
  if (unknownKeys.length) throw validationFailed(unknownKeys.map((field) => ({ field, message: 'unknown field' })));
  if (typeof value.email !== 'string') throw validationFailed([{ field: 'email', message: 'must be an email address' }]);
  return { email: value.email };
}

export const erasureRoutes: Route[] = [
  {
    method: 'DELETE',
    path: '/submissions/{id}',
    summary:
      'Erase a submission: gone from reads, lists, totals and counts, its formData from every stored copy (idempotency record included); fires submission.deleted; its Idempotency-Key then replays as 404',
    tag: 'Erasure',
    auth: 'apiKey',
    scope: 'write:submissions',
    operation: 'delete-submission',
    variables: ({ params }) => ({ id: params.id }),
    respond: () => ({ status: 204 }),
    success: { status: 204 },
  },
  {
    method: 'POST',
    path: '/erasure-requests',
    summary: 'Erase every submission one of whose formData values is this email (trimmed, case-insensitive), PHI forms included, in the background; 202',
    tag: 'Erasure',
    auth: 'apiKey',
    scope: 'write:submissions',
    body: { schema: createErasureBodySchema, parse: parseCreateErasureBody },
    operation: 'create-erasure-request',
    variables: ({ body }) => ({ email: (body as { email: unknown }).email }),
    respond: (data) => ({ status: 202, body: erasureRequestSchema.parse(data.createErasureRequest) }),
    success: { status: 202, schema: erasureRequestSchema },
  },
  {
    method: 'GET',
    path: '/erasure-requests/{id}',
    summary: 'Follow an erasure request: status pending → running → done, with the number of submissions erased',
    tag: 'Erasure',
    auth: 'apiKey',
    scope: 'write:submissions',
    operation: 'get-erasure-request',
    variables: ({ params }) => ({ id: params.id }),
    respond: (data) => ({ status: 200, body: erasureRequestSchema.parse(data.erasureRequest) }),
    success: { status: 200, schema: erasureRequestSchema },
  },
];
