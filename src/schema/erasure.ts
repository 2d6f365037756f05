import { requireApiKeyViewer } from '../context.js';
import { deleteSubmission } from '../domain/submissions/erasure.service.js';
import { createErasureRequest, getErasureRequestOrThrow, type ErasureRequestView } from '../domain/submissions/erasure-requests.service.js';
import { builder } from './builder.js';
import { readerOf } from './submission.js';

/** Erasure (decisions §6.3): the fields behind DELETE /submissions/{id} and /erasure-requests. */

const ErasureStatusEnum = builder.enumType('ErasureStatus', { values: ['pending', 'running', 'done'] as const });

const ErasureRequestRef = builder.objectRef<ErasureRequestView>('ErasureRequest').implement({
  fields: (t) => ({
    id: t.exposeInt('id'),
    status: t.field({ type: ErasureStatusEnum, resolve: (request) => request.status }),
    submissionsErased: t.exposeInt('submissionsErased'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true }),
  }),
});

builder.queryFields((t) => ({
  erasureRequest: t.field({
    type: ErasureRequestRef,
    authScopes: { scope: 'write:submissions' },
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, args, context) => getErasureRequestOrThrow(context.deps, requireApiKeyViewer(context).accountId, args.id),
  }),
}));

builder.mutationFields((t) => ({
  deleteSubmission: t.boolean({
    description: 'Erases a submission: its row, counts and every stored copy of its formData; fires submission.deleted',
    authScopes: { scope: 'write:submissions' },
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_root, args, context) => {
      await deleteSubmission(context.deps.db, readerOf(context), args.id);
      return true;
    },
  }),
  createErasureRequest: t.field({
    type: ErasureRequestRef,
    description: 'Erases, in the background, every submission one of whose formData values is this email (trimmed, case-insensitive)',
    authScopes: { scope: 'write:submissions' },
    args: { email: t.arg.string({ required: true }) },
    resolve: (_root, args, context) => createErasureRequest(context.deps, readerOf(context), args.email),
  }),
}));
