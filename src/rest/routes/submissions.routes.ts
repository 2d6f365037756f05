import { z } from 'zod';
import { MAX_FORM_DATA_BYTES, MAX_FORM_DATA_FIELDS } from '../../domain/submissions/submissions.service.js';
import { createdRangeQuery } from '../../domain/list-filters.js';
import { defineRoute, type Route } from '../route.js';

/**
 * The ingest envelope. formData's own rules (an object, 50 keys, 51200 bytes) are the service's, shared with
 * GraphQL. Unknown members are reported alone, before a missing formData, as v1 always answered.
 */
const ingestBodySchema = z
  .looseObject(
    { formData: z.unknown().meta({ type: 'object', description: `at most ${MAX_FORM_DATA_FIELDS} fields and ${MAX_FORM_DATA_BYTES} bytes serialized` }) },
    { error: 'must be a JSON object' },
  )
  .superRefine((body, ctx) => {
    const unknown = Object.keys(body).filter((key) => key !== 'formData');
    for (const key of unknown) ctx.addIssue({ code: 'custom', path: [key], message: 'unknown field' });
    if (!unknown.length && body.formData === undefined) ctx.addIssue({ code: 'custom', path: ['formData'], message: 'required' });
  })
  .meta({ required: ['formData'], additionalProperties: false });

export const submissionRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/forms/{id}/submissions',
    summary: 'List a form’s submissions, newest first; optional createdAt window [createdFrom, createdBefore)',
    tag: 'Submissions',
    auth: 'apiKey',
    scope: 'read:submissions',
    paginated: true,
    query: z.object(createdRangeQuery),
    errors: ['phi_key_unavailable'],
    operation: 'list-form-submissions',
    variables: ({ params, query }) => ({ formId: params.id, ...query }),
    success: { status: 200 },
  }),
  defineRoute({
    method: 'GET',
    path: '/submissions/{id}',
    summary: 'Read a submission',
    tag: 'Submissions',
    auth: 'apiKey',
    scope: 'read:submissions',
    errors: ['phi_key_unavailable'],
    operation: 'get-submission',
    variables: ({ params }) => ({ id: params.id }),
    success: { status: 200 },
  }),
  defineRoute({
    method: 'POST',
    path: '/forms/{id}/submissions',
    summary: 'Ingest a submission through the widget pipeline (webhooks, emails, PHI handling); idempotent with Idempotency-Key',
    tag: 'Submissions',
    auth: 'apiKey',
    scope: 'write:submissions',
    requestHeaders: ['Idempotency-Key'],
    body: ingestBodySchema,
    errors: ['form_archived', 'too_many_fields', 'invalid_idempotency_key', 'idempotency_in_progress', 'idempotency_key_reused', 'phi_key_unavailable'],
    operation: 'ingest-submission',
    variables: ({ params, body, headers }) => ({ formId: params.id, formData: body.formData, idempotencyKey: headers.get('idempotency-key') }),
    shape: { spread: 'submission' },
    success: { status: 201, also: [200], headers: ['Idempotent-Replayed'] },
    outcome: (data) => (data.ingestSubmission.replayed ? { status: 200, headers: { 'Idempotent-Replayed': 'true' } } : {}),
  }),
];
