import { z } from 'zod';
import { createFormBodySchema, parseCreateFormInput, parseUpdateFormInput, updateFormBodySchema } from '../../domain/forms/form-input.js';
import type { Route } from '../route.js';
import { rowsOf } from '../rows.js';
import { accountFormsBodyVersion, formBodyVersion } from './form-versions.js';
import { idQueryParam } from './params.js';

const forms = rowsOf({ tag: 'Forms', auth: 'apiKey' });

export const formRoutes: Route[] = [
  forms.list('/forms', {
    summary: 'List forms',
    description:
      "The account's active forms (with archived=true, only archived ones), newest first, each with its submissionCount and domain; filter by domainId. Use it to find a form's id before reading, changing or ingesting into it. Needs read:forms.",
    query: z.object({ domainId: idQueryParam.optional(), archived: z.enum(['true', 'false']).optional() }),
    operation: 'list-forms',
    version: accountFormsBodyVersion,
    variables: ({ query }) => ({ ...query, archived: query.archived === 'true' }),
  }),
  forms.read('/forms/{id}', {
    operation: 'get-form',
    version: formBodyVersion,
    summary: 'Get a form',
    description:
      "One form by id with its field definitions (id, type, label, required, options), domain and submissionCount. 404 not_found for an archived form or another account's. Needs read:forms.",
  }),
  forms.row('POST /forms', {
    summary: 'Create a form',
    description:
      "Creates a form from a name and its fields on a verified production domain (domainId; optional when the account has exactly one). 201 with the form and a Location header. Refused with 402 plan_limit_reached when the site's plan cap is reached, 400 domain_required or invalid_domain when no usable domain is named. Needs write:forms.",
    body: { schema: createFormBodySchema, parse: parseCreateFormInput },
    errors: ['domain_required', 'invalid_domain', 'plan_limit_reached'],
    operation: 'create-form',
    success: { status: 201, headers: ['Location'] },
    outcome: (data) => ({ headers: { Location: `/v1/forms/${data.createForm.id}` } }),
  }),
  forms.row('PATCH /forms/{id}', {
    summary: 'Update a form',
    description:
      "Changes a form's name, fields or write-only webhookUrl (null clears it), or archives (archived: true) or restores (archived: false) it; answers the updated form. Other members are 400 forbidden_field. Needs write:forms.",
    body: { schema: updateFormBodySchema, parse: parseUpdateFormInput },
    errors: ['forbidden_field', 'plan_limit_reached'],
    operation: 'update-form',
  }),
  forms.row('DELETE /forms/{id}', {
    summary: 'Archive a form',
    description:
      'Archives a form (204): it leaves the forms list and GET answers 404, its submissions stay readable and exportable, and ingest answers 409 form_archived. Restore it with PATCH {archived: false}. Needs write:forms.',
    operation: 'archive-form',
  }),
];
