import type { Submission } from '../generated/prisma/client.js';
import { requireApiKeyViewer } from '../context.js';
import {
  beginIngest,
  dailySubmissionCounts,
  getSubmissionOrThrow,
  type DailyCount,
  listFormSubmissions,
  readFormData,
  type Reader,
  storeIngest,
} from '../domain/submissions/submissions.service.js';
import type { RequestContext } from '../context.js';
import { v1Presenters } from '../execution/present.js';
import { builder } from './builder.js';
import { walkField, walkPageRef } from './pagination.js';

export function readerOf(context: RequestContext): Reader {
  const viewer = requireApiKeyViewer(context);
  return { accountId: viewer.accountId, apiKeyId: viewer.keyId };
}

export const SubmissionRef = builder.objectRef<Submission>('Submission').implement({
  fields: (t) => ({
    id: t.exposeInt('id'),
    formId: t.exposeInt('formId'),
    formData: t.field({ type: 'JSON', resolve: (submission, _args, context) => readFormData(context.deps.phi, submission) }),
    sourceDomain: t.exposeString('sourceDomain', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const SubmissionPage = walkPageRef('SubmissionPage', SubmissionRef);

const DailyCountRef = builder.objectRef<DailyCount>('DailyCount').implement({
  fields: (t) => ({
    date: t.exposeString('date', { description: 'UTC day, YYYY-MM-DD' }),
    count: t.exposeInt('count'),
  }),
});

const IngestResultRef = builder.objectRef<{ submission: Submission; replayed: boolean }>('IngestResult').implement({
  fields: (t) => ({
    submission: t.field({ type: SubmissionRef, resolve: (result) => result.submission }),
    replayed: t.exposeBoolean('replayed', { description: 'true when an Idempotency-Key replay returned the original submission' }),
  }),
});

builder.queryFields((t) => ({
  formSubmissions: walkField(t, {
    type: SubmissionPage,
    description: 'Submissions of a form (active or archived), newest first; optional createdAt range [createdFrom, createdBefore)',
    authScopes: { scope: 'read:submissions' },
    args: {
      formId: t.arg.int({ required: true }),
      createdFrom: t.arg({ type: 'DateTime', description: 'inclusive' }),
      createdBefore: t.arg({ type: 'DateTime', description: 'exclusive; fix it to walk a growing list' }),
    },
    resolve: (args, page, context) =>
      listFormSubmissions(context.deps.db, readerOf(context), args.formId, { ...page, createdFrom: args.createdFrom, createdBefore: args.createdBefore }),
  }),
  submissionDailyCounts: t.field({
    type: [DailyCountRef],
    description: 'Submissions per UTC day in [from, to), zeros included (at most 366 days), for dashboards',
    authScopes: { scope: 'read:submissions' },
    args: { formId: t.arg.int({ required: true }), from: t.arg({ type: 'DateTime', required: true }), to: t.arg({ type: 'DateTime', required: true }) },
    resolve: (_root, args, context) =>
      dailySubmissionCounts(context.deps.db, requireApiKeyViewer(context).accountId, args.formId, args.from, args.to),
  }),
  submission: t.field({
    type: SubmissionRef,
    authScopes: { scope: 'read:submissions' },
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, args, context) => getSubmissionOrThrow(context.deps.db, readerOf(context), args.id),
  }),
}));

builder.mutationFields((t) => ({
  ingestSubmission: t.field({
    type: IngestResultRef,
    description: 'Ingests an entry through the same pipeline as the embedded widget',
    authScopes: { scope: 'write:submissions' },
    args: {
      formId: t.arg.int({ required: true }),
      formData: t.arg({ type: 'JSON', required: false, description: 'an object of at most 50 fields and 51200 bytes' }),
      idempotencyKey: t.arg.string({ required: false }),
    },
    // Two steps with the event's data presented between them, here, once (the domain takes no presenter): the
    // submission as GET /v1/submissions/{id} shows it, stored with the submission by ONE statement.
    resolve: async (_root, args, context, info) => {
      const present = v1Presenters(info.schema, context).submission;
      const begun = await beginIngest(context.deps, requireApiKeyViewer(context).accountId, args.formId, args.formData ?? null, args.idempotencyKey ?? null);
      if (begun.replayed) return begun;
      return storeIngest(context.deps, begun, present(begun.eventSubmission));
    },
  }),
}));
