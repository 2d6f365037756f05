import { queryFromInfo } from '@pothos/plugin-prisma';
import { requireApiKeyViewer } from '../context.js';
import { FIELD_TYPES, FORM_TYPES, parseCreateFormInput, parseUpdateFormInput, type FieldElement } from '../services/form-input.js';
import { formTypeName } from '../services/form.mapper.js';
import { archiveForm, createForm, getFormOrThrow, listForms, updateForm, type FormQuery } from '../services/forms.service.js';
import { normalizePagination, type Page } from '../services/pagination.js';
import type { Form } from '../generated/prisma/client.js';
import { builder } from './builder.js';
import { DomainRef } from './domain.js';
import { pageArgs, pageRef, listComplexity } from './pagination.js';
import { readerOf, SubmissionRef } from './submission.js';
import { auditPhiReads } from '../services/submissions.service.js';

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

export const FormRef = builder.prismaObject('Form', {
  // Select mode: a query reads only the columns its fields need (a list never loads `fields` or `webhookUrl`).
  select: { id: true },
  fields: (t) => ({
    id: t.exposeInt('id'),
    name: t.exposeString('name'),
    type: t.string({ description: FORM_TYPES.join(' | '), select: { type: true }, resolve: (form) => formTypeName(form.type) }),
    domain: t.relation('site', { type: DomainRef, nullable: true }),
    submissionCount: t.exposeInt('submissionCount', { description: 'every submission of any status; kept exact at ingest' }),
    fields: t.field({ type: [FormFieldRef], select: { fields: true }, resolve: (form) => form.fields as FieldElement[] }),
    archived: t.boolean({ select: { archivedAt: true }, resolve: (form) => form.archivedAt !== null }),
    phi: t.exposeBoolean('phi'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    latestSubmissions: t.field({
      type: [SubmissionRef],
      description: 'The newest submissions of this form (batched across all forms of a page)',
      authScopes: { scope: 'read:submissions' },
      args: { limit: t.arg.int({ defaultValue: 5 }) },
      complexity: (args) => ({ field: 1, multiplier: args.limit ?? 5 }),
      select: { id: true },
      resolve: async (form, args, context) => {
        const submissions = await context.loaders.latestSubmissions(normalizePagination(1, args.limit).limit).load(form.id);
        await auditPhiReads(context.deps.db.prisma, readerOf(context), submissions);
        return submissions;
      },
    }),
  }),
});

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
  }),
});

const UpdateFormInput = builder.inputType('UpdateFormInput', {
  fields: (t) => ({
    name: t.string(),
    fields: t.field({ type: [FormFieldInput] }),
    webhookUrl: t.string({ description: 'write-only; null clears it' }),
    archived: t.boolean({ description: 'true archives, false restores' }),
  }),
});

/** Creating forms is rare and each one holds a plan slot: a burst is a runaway script, not a dashboard. */
export const CREATE_FORM_LIMIT = { max: 30, window: '1m' } as const;

/** GraphQL leaves absent input fields out; drop explicit nulls the v1 body rules do not allow. */
const withoutNulls = (input: object, keep: string[] = []): Record<string, unknown> =>
  Object.fromEntries(Object.entries(input).filter(([key, value]) => value !== null || keep.includes(key)));

builder.queryFields((t) => ({
  forms: t.field({
    type: FormPage,
    description: 'Active forms (or only archived ones), newest first',
    authScopes: { scope: 'read:forms' },
    complexity: listComplexity,
    args: { ...pageArgs(t.arg), domainId: t.arg.int(), archived: t.arg.boolean() },
    resolve: async (_root, args, context, info) => {
      const viewer = requireApiKeyViewer(context);
      const query = queryFromInfo({ context, info, typeName: 'Form', path: ['data'] }) as FormQuery;
      const page = normalizePagination(args.page, args.limit);
      return listForms(context.deps.db.prisma, viewer.accountId, { ...page, domainId: args.domainId, archived: args.archived }, query) as Promise<Page<Form>>;
    },
  }),
  form: t.prismaField({
    type: 'Form',
    authScopes: { scope: 'read:forms' },
    args: { id: t.arg.int({ required: true }) },
    resolve: (query, _root, args, context) => getFormOrThrow(context.deps.db.prisma, requireApiKeyViewer(context).accountId, args.id, {}, query),
  }),
}));

builder.mutationFields((t) => ({
  createForm: t.prismaField({
    type: 'Form',
    authScopes: { scope: 'write:forms' },
    args: { input: t.arg({ type: CreateFormInput, required: true }) },
    resolve: async (_query, root, args, context, info) => {
      await context.limitField({ parent: root, args, context, info }, CREATE_FORM_LIMIT);
      return createForm(context.deps.db.prisma, requireApiKeyViewer(context).accountId, parseCreateFormInput(withoutNulls(args.input, ['webhookUrl'])));
    },
  }),
  updateForm: t.prismaField({
    type: 'Form',
    authScopes: { scope: 'write:forms' },
    args: { id: t.arg.int({ required: true }), input: t.arg({ type: UpdateFormInput, required: true }) },
    resolve: (_query, _root, args, context) =>
      updateForm(context.deps.db.prisma, requireApiKeyViewer(context).accountId, args.id, parseUpdateFormInput(withoutNulls(args.input, ['webhookUrl']))),
  }),
  archiveForm: t.boolean({
    description: 'Archives the form (v1 DELETE); its submissions are preserved',
    authScopes: { scope: 'write:forms' },
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_root, args, context) => {
      await archiveForm(context.deps.db.prisma, requireApiKeyViewer(context).accountId, args.id);
      return true;
    },
  }),
}));
