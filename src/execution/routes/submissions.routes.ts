import { z } from 'zod';
import { MAX_FORM_DATA_BYTES, MAX_FORM_DATA_FIELDS } from '../../domain/submissions/submissions.service.js';
import { createdRangeQuery } from '../../domain/list-filters.js';
import type { Route } from '../route.js';
import { rowsOf } from '../rows.js';
import { formSubmissionsBodyVersion } from './form-versions.js';
import { oneMemberBody } from './params.js';

/** The ingest envelope. formData's own rules (an object, 50 keys, 51200 bytes) are the service's, shared with GraphQL. */
const ingestBodySchema = oneMemberBody('formData', { type: 'object', description: `at most ${MAX_FORM_DATA_FIELDS} fields and ${MAX_FORM_DATA_BYTES} bytes serialized` }, (formData) =>
  formData === undefined ? 'required' : null,
).meta({ required: ['formData'], additionalProperties: false });

const submissions = rowsOf({ tag: 'Submissions', auth: 'apiKey' });

export const submissionRoutes: Route[] = [
  submissions.list('/forms/{id}/submissions', {
    summary: "List a form's submissions",
    description:
      "A form's submissions (archived forms too), newest first, with their formData; narrow by a createdAt window [createdFrom, createdBefore). Fix createdBefore to walk a growing list without pages shifting. For a whole form at once, use the export. Needs read:submissions.",
    query: z.object(createdRangeQuery),
    errors: ['phi_key_unavailable'],
    operation: 'list-form-submissions',
    walk: true,
    version: formSubmissionsBodyVersion,
    variables: ({ params, query }) => ({ formId: params.id, ...query }),
  }),
  submissions.read('/submissions/{id}', {
    operation: 'get-submission',
    summary: 'Get a submission',
    description:
      "One submission by id with its formData, form id, source domain and createdAt. 404 not_found once erased or for another account's. Needs read:submissions.",
    errors: ['phi_key_unavailable'],
  }),
  submissions.row('POST /forms/{id}/submissions', {
    summary: 'Submit a form entry',
    description:
      "Records a submission as the widget would (webhooks, emails, PHI encryption run as for a visitor's). Send an Idempotency-Key to retry safely: a replay answers 200 with the first submission and Idempotent-Replayed: true. At most 50 formData fields and 51200 bytes. Needs write:submissions.",
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
