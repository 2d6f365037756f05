import { z } from 'zod';
import { createFormBodySchema, parseCreateFormInput, parseUpdateFormInput, updateFormBodySchema } from '../../domain/forms/form-input.js';
import type { Route } from '../route.js';
import { formListItemSchema, formSchema, listOf, withoutNullProperties } from '../schemas.js';
import { idQueryParam } from './params.js';

/** The form under `key` of an operation's data, as v1 shows it (optional field-element properties only when set). */
const formFromData = (data: Record<string, unknown>, key: string) => {
  const form = data[key] as { fields?: unknown[] };
  return formSchema.parse({ ...form, fields: form.fields?.map(withoutNullProperties) });
};

export const formRoutes: Route[] = [
  {
    method: 'GET',
    path: '/forms',
    summary: 'List active forms (or, with archived=true, archived ones), newest first',
    tag: 'Forms',
    auth: 'apiKey',
    scope: 'read:forms',
    paginated: true,
    query: z.object({ domainId: idQueryParam.optional(), archived: z.enum(['true', 'false']).optional() }),
    operation: 'list-forms',
    variables: ({ query }) => ({ ...query, archived: query.archived === 'true' }),
    respond: (data) => ({ status: 200, body: listOf(formListItemSchema).parse(data.forms) }),
    success: { status: 200, schema: listOf(formListItemSchema) },
  },
  {
    method: 'GET',
    path: '/forms/{id}',
    summary: 'Read a form with its fields',
    tag: 'Forms',
    auth: 'apiKey',
    scope: 'read:forms',
    operation: 'get-form',
    variables: ({ params }) => ({ id: params.id }),
    respond: (data) => ({ status: 200, body: formFromData(data, 'form') }),
    success: { status: 200, schema: formSchema },
  },
  {
    method: 'POST',
    path: '/forms',
    summary: 'Create a form bound to a verified production domain',
    tag: 'Forms',
    auth: 'apiKey',
    scope: 'write:forms',
    body: { schema: createFormBodySchema, parse: parseCreateFormInput },
    operation: 'create-form',
    variables: ({ body }) => ({ input: body }),
    respond: (data) => {
      const form = formFromData(data, 'createForm');
      return { status: 201, body: form, headers: { Location: `/v1/forms/${form.id}` } };
    },
    success: { status: 201, schema: formSchema, headers: ['Location'] },
  },
  {
    method: 'PATCH',
    path: '/forms/{id}',
    summary: 'Change name, fields or webhookUrl, or archive/restore a form',
    tag: 'Forms',
    auth: 'apiKey',
    scope: 'write:forms',
    body: { schema: updateFormBodySchema, parse: parseUpdateFormInput },
    operation: 'update-form',
    variables: ({ params, body }) => ({ id: params.id, input: body }),
    respond: (data) => ({ status: 200, body: formFromData(data, 'updateForm') }),
    success: { status: 200, schema: formSchema },
  },
  {
    method: 'DELETE',
    path: '/forms/{id}',
    summary: 'Archive a form; its submissions are preserved',
    tag: 'Forms',
    auth: 'apiKey',
    scope: 'write:forms',
    operation: 'archive-form',
    variables: ({ params }) => ({ id: params.id }),
    respond: () => ({ status: 204 }),
    success: { status: 204 },
  },
];
