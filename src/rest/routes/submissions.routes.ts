import { z } from 'zod';
import { validationFailed } from '../../errors.js';
import { isPlainObject } from '../../domain/validation.js';
import { createdRangeQuery } from '../../domain/list-filters.js';
import type { Route } from '../route.js';
import { listOf, submissionSchema } from '../schemas.js';

const ingestBodySchema = z.object({ formData: z.record(z.string(), z.unknown()) }).strict();

export const submissionRoutes: Route[] = [
  {
    method: 'GET',
    path: '/forms/{id}/submissions',
    summary: 'List a form’s submissions, newest first; optional createdAt window [createdFrom, createdBefore)',
    tag: 'Submissions',
    auth: 'apiKey',
    scope: 'read:submissions',
    paginated: true,
    query: z.object(createdRangeQuery),
    operation: 'list-form-submissions',
    variables: ({ params, query }) => ({ formId: params.id, ...query }),
    respond: (data) => ({ status: 200, body: listOf(submissionSchema).parse(data.formSubmissions) }),
    success: { status: 200, schema: listOf(submissionSchema) },
  },
  {
    method: 'GET',
    path: '/submissions/{id}',
    summary: 'Read a submission',
    tag: 'Submissions',
    auth: 'apiKey',
    scope: 'read:submissions',
    operation: 'get-submission',
    variables: ({ params }) => ({ id: params.id }),
    respond: (data) => ({ status: 200, body: submissionSchema.parse(data.submission) }),
    success: { status: 200, schema: submissionSchema },
  },
  {
    method: 'POST',
    path: '/forms/{id}/submissions',
    summary: 'Ingest a submission through the widget pipeline (webhooks, emails, PHI handling); idempotent with Idempotency-Key',
    tag: 'Submissions',
    auth: 'apiKey',
    scope: 'write:submissions',
    requestHeaders: ['Idempotency-Key'],
    // Only the envelope is checked here: formData's own limits (50 keys, 51200 bytes) are the service's, shared with GraphQL.
    body: {
      schema: ingestBodySchema,
      parse: (value) => {
        if (!isPlainObject(value)) throw validationFailed([{ field: '(body)', message: 'must be a JSON object' }]);
        const unknownKeys = Object.keys(value).filter((key) => key !== 'formData');
        if (unknownKeys.length) throw validationFailed(unknownKeys.map((field) => ({ field, message: 'unknown field' })));
        if (!('formData' in value)) throw validationFailed([{ field: 'formData', message: 'required' }]);
        return value;
      },
    },
    operation: 'ingest-submission',
    variables: ({ params, body, headers }) => ({
      formId: params.id,
      formData: (body as { formData: unknown }).formData,
      idempotencyKey: headers.get('idempotency-key'),
    }),
    respond: (data) => {
      const result = data.ingestSubmission as { submission: unknown; replayed: boolean };
      const body = submissionSchema.parse(result.submission);
      return result.replayed ? { status: 200, body, headers: { 'Idempotent-Replayed': 'true' } } : { status: 201, body };
    },
    success: { status: 201, schema: submissionSchema, headers: ['Idempotent-Replayed'] },
  },
];
