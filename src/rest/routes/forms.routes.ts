import { z } from 'zod';
import { createFormBodySchema, parseCreateFormInput, parseUpdateFormInput, updateFormBodySchema } from '../../domain/forms/form-input.js';
import type { Route } from '../route.js';
import { rowsOf } from '../rows.js';
import { idQueryParam } from './params.js';

const forms = rowsOf({ tag: 'Forms', auth: 'apiKey', scope: 'read:forms' });

export const formRoutes: Route[] = [
  forms.list('/forms', {
    summary: 'List active forms (or, with archived=true, archived ones), newest first',
    query: z.object({ domainId: idQueryParam.optional(), archived: z.enum(['true', 'false']).optional() }),
    operation: 'list-forms',
    variables: ({ query }) => ({ ...query, archived: query.archived === 'true' }),
  }),
  forms.read('/forms/{id}', { operation: 'get-form', summary: 'Read a form with its fields' }),
  forms.row('POST /forms', {
    scope: 'write:forms',
    summary: 'Create a form bound to a verified production domain',
    body: { schema: createFormBodySchema, parse: parseCreateFormInput },
    errors: ['domain_required', 'invalid_domain', 'plan_limit_reached'],
    operation: 'create-form',
    variables: ({ body }) => ({ input: body }),
    success: { status: 201, headers: ['Location'] },
    outcome: (data) => ({ headers: { Location: `/v1/forms/${data.createForm.id}` } }),
  }),
  forms.row('PATCH /forms/{id}', {
    scope: 'write:forms',
    summary: 'Change name, fields or webhookUrl, or archive/restore a form',
    body: { schema: updateFormBodySchema, parse: parseUpdateFormInput },
    errors: ['forbidden_field', 'plan_limit_reached'],
    operation: 'update-form',
    variables: ({ params, body }) => ({ id: params.id, input: body }),
    success: { status: 200 },
  }),
  forms.row('DELETE /forms/{id}', {
    scope: 'write:forms',
    summary: 'Archive a form; its submissions are preserved',
    operation: 'archive-form',
    variables: ({ params }) => ({ id: params.id }),
    success: { status: 204 },
  }),
];
