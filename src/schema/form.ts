import type { GraphQLResolveInfo } from 'graphql';
import { FIELD_TYPES, FORM_TYPES, parseCreateFormInput, parseUpdateFormInput, type FieldElement } from '../domain/forms/form-input.js';
import { formTypeName, type FormWithSite } from '../domain/forms/form.mapper.js';
import { requireApiKeyViewer, type RequestContext } from '../context.js';
import { validationFailed } from '../errors.js';
import {
  archiveForm,
  createForm,
  FORM_COLUMNS,
  formChange,
  getFormWithSiteOrThrow,
  listForms,
  newForm,
  recordFormEvent,
  updateForm,
  type FormColumn,
  type FormWrite,
} from '../domain/forms/forms.service.js';
import type { SqlTransaction } from '../infra/db-driver.js';
import { v1Presenters } from '../execution/present.js';
import { limitField } from '../gate/field-rate-limit.js';
import { builder } from './builder.js';
import { DomainRef } from './domain.js';
import { LATEST_SUBMISSIONS_SCOPE, latestRead, prefetchLatestSubmissions } from './latest-submissions.js';
import { pageField, pageRef } from './pagination.js';
import { fieldNamesAt } from './selection.js';
import { SubmissionRef } from './submission.js';

const FormFieldRef = builder.objectRef<FieldElement>('FormField').implement({
  fields: (t) => ({
    id: t.exposeString('id'),
    type: t.exposeString('type', { description: FIELD_TYPES.join(' | ') }),
    label: t.exposeString('label'),
    required: t.exposeBoolean('required', { nullable: true }),
    options: t.exposeStringList('options', { nullable: true }),
    placeholder: t.exposeString('placeholder', { nullable: true }),
  }),
});

/**
 * A plain object over a form row with its site: every read of a form (one statement for a whole list)
 * already carries what its fields show, so no field needs a per-object selection of its own.
 */
export const FormRef = builder.objectRef<FormWithSite>('Form').implement({
  fields: (t) => ({
    id: t.exposeInt('id'),
    name: t.exposeString('name'),
    type: t.string({ description: FORM_TYPES.join(' | '), resolve: (form) => formTypeName(form.type) }),
    // Read as it is (site-domain.ts): no resolver per row.
    domain: t.expose('domain', { type: DomainRef, nullable: true }),
    submissionCount: t.exposeInt('submissionCount', { description: 'every submission of any status; kept exact at ingest' }),
    fields: t.field({ type: [FormFieldRef], resolve: (form) => form.fields as FieldElement[] }),
    archived: t.boolean({ resolve: (form) => form.archivedAt !== null }),
    phi: t.exposeBoolean('phi'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    latestSubmissions: t.field({
      type: [SubmissionRef],
      description: 'The newest submissions of this form (batched across all forms of a page)',
      authScopes: { scope: LATEST_SUBMISSIONS_SCOPE },
      args: { limit: t.arg.int({ defaultValue: 5 }) },
      complexity: (args) => ({ field: 1, multiplier: args.limit ?? 5 }),
      resolve: (form, args, context, info) => {
        const { limit, columns } = latestRead(info, args.limit);
        return context.loaders.latestSubmissionsOf(limit, columns, form.id);
      },
    }),
  }),
});

/**
 * What each Form field reads of a form's row (`id` always comes): a page reads only the columns of the fields its
 * query selects (listForms). A field missing here makes a page read every column (test/forms/form-columns.test.ts
 * keeps the two in step).
 */
export const FORM_FIELD_COLUMNS: Readonly<Record<string, readonly FormColumn[]>> = {
  __typename: [],
  id: [],
  name: ['name'],
  type: ['type'],
  domain: ['siteId', 'hostname'],
  submissionCount: ['submissionCount'],
  fields: ['fields'],
  archived: ['archivedAt'],
  phi: ['phi'],
  createdAt: ['createdAt'],
  updatedAt: ['updatedAt'],
  latestSubmissions: [],
};

/** The columns a page of forms reads for the fields selected on its items. */
function formColumns(fields: ReadonlySet<string>): readonly FormColumn[] {
  const columns = new Set<FormColumn>();
  for (const field of fields) {
    const read = FORM_FIELD_COLUMNS[field];
    if (!read) return FORM_COLUMNS;
    for (const column of read) columns.add(column);
  }
  return [...columns];
}

const FormPage = pageRef('FormPage', FormRef);

const FormFieldInput = builder.inputType('FormFieldInput', {
  fields: (t) => ({
    id: t.string(),
    type: t.string({ required: true }),
    label: t.string({ required: true }),
    required: t.boolean(),
    options: t.stringList(),
    placeholder: t.string(),
  }),
});

const CreateFormInput = builder.inputType('CreateFormInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    fields: t.field({ type: [FormFieldInput], required: true }),
    type: t.string({ description: FORM_TYPES.join(' | ') }),
    domainId: t.int(),
    webhookUrl: t.string({ description: 'write-only: absolute https URL receiving this form’s submission.created events' }),
    phi: t.boolean({ description: 'formData of its submissions is stored encrypted, read with an audit row, and left out of emails and webhook payloads (default false)' }),
  }),
});

const UpdateFormInput = builder.inputType('UpdateFormInput', {
  fields: (t) => ({
    name: t.string(),
    fields: t.field({ type: [FormFieldInput] }),
    webhookUrl: t.string({ description: 'write-only; null clears it' }),
    archived: t.boolean({ description: 'true archives, false restores' }),
    phi: t.boolean({ description: 'applies to submissions stored from now on; earlier ones stay as they were' }),
  }),
});

/** Creating forms is rare and each one holds a plan slot: a burst is a runaway script, not a dashboard. */
export const CREATE_FORM_LIMIT = { max: 30, window: '1m' } as const;

/**
 * `phi` is GraphQL's own (v1 bodies never carry it): taken out before the v1 body rules, passed on beside them.
 * Only when given: an input key, even undefined, counts as a change (updateForm's archive-only check).
 */
function splitPhi<T extends { phi?: boolean | null }>(input: T): { rest: Omit<T, 'phi'>; phi: { phi?: boolean } } {
  const { phi, ...rest } = input;
  return { rest, phi: phi === null || phi === undefined ? {} : { phi } };
}

/**
 * A form write and the `form.*` events it records, in ONE transaction: the domain writes and names each event with
 * the form it shows; each is presented here, once, as `GET /v1/forms/{id}` shows the form (src/execution/present.ts),
 * and recorded in the same transaction, in the domain's order. The domain takes no presenter (issue 32).
 */
function writeForm(context: RequestContext, info: GraphQLResolveInfo, write: (tx: SqlTransaction) => Promise<FormWrite>): Promise<FormWrite> {
  const present = v1Presenters(info.schema, context).form;
  return context.deps.db.transaction(async (tx) => {
    const written = await write(tx);
    for (const event of written.events) await recordFormEvent(tx, event, await present(event.form));
    return written;
  });
}

/** GraphQL leaves absent input fields out; drop explicit nulls the v1 body rules do not allow. */
const withoutNulls = (input: object, keep: string[] = []): Record<string, unknown> =>
  Object.fromEntries(Object.entries(input).filter(([key, value]) => value !== null || keep.includes(key)));

builder.queryFields((t) => ({
  forms: pageField(t, {
    type: FormPage,
    description: 'Active forms (or only archived ones), newest first',
    authScopes: { scope: 'read:forms' },
    args: { domainId: t.arg.int(), archived: t.arg.boolean() },
    resolve: async (args, page, context, info) => {
      // As GET /v1/forms?domainId=0 answers (contract §5 `domainId` filter), not an empty page.
      if (args.domainId != null && args.domainId < 1) throw validationFailed([{ field: 'domainId', message: 'must be a positive integer' }]);
      const forms = await listForms(context.deps.db, requireApiKeyViewer(context).accountId, {
        ...page,
        domainId: args.domainId,
        archived: args.archived,
        columns: formColumns(fieldNamesAt(info, ['data'])),
      });
      await prefetchLatestSubmissions(forms.data.map((form) => form.id), context, info, ['data', 'latestSubmissions']);
      return forms;
    },
  }),
  form: t.field({
    type: FormRef,
    authScopes: { scope: 'read:forms' },
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, args, context) => getFormWithSiteOrThrow(context.deps.db, requireApiKeyViewer(context).accountId, args.id),
  }),
}));

builder.mutationFields((t) => ({
  createForm: t.field({
    type: FormRef,
    authScopes: { scope: 'write:forms' },
    args: { input: t.arg({ type: CreateFormInput, required: true }) },
    resolve: async (root, args, context, info) => {
      await limitField(context, { parent: root, args, info }, CREATE_FORM_LIMIT);
      const { rest, phi } = splitPhi(args.input);
      const input = { ...parseCreateFormInput(withoutNulls(rest, ['webhookUrl'])), ...phi };
      const form = await newForm(context.deps.db, requireApiKeyViewer(context).accountId, input);
      return (await writeForm(context, info, (tx) => createForm(tx, form))).form;
    },
  }),
  updateForm: t.field({
    type: FormRef,
    authScopes: { scope: 'write:forms' },
    args: { id: t.arg.int({ required: true }), input: t.arg({ type: UpdateFormInput, required: true }) },
    resolve: async (_root, args, context, info) => {
      const { rest, phi } = splitPhi(args.input);
      const input = { ...parseUpdateFormInput(withoutNulls(rest, ['webhookUrl'])), ...phi };
      const accountId = requireApiKeyViewer(context).accountId;
      const change = formChange(input);
      return (await writeForm(context, info, (tx) => updateForm(tx, accountId, args.id, change))).form;
    },
  }),
  archiveForm: t.boolean({
    description: 'Archives the form (v1 DELETE); its submissions are preserved',
    authScopes: { scope: 'write:forms' },
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_root, args, context, info) => {
      const accountId = requireApiKeyViewer(context).accountId;
      await writeForm(context, info, (tx) => archiveForm(tx, accountId, args.id));
      return true;
    },
  }),
}));
