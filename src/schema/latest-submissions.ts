import { getArgumentValues, isObjectType, type FieldNode, type GraphQLResolveInfo } from 'graphql';
import type { RequestContext } from '../context.js';
import { normalizePagination } from '../domain/pagination.js';
import type { SubmissionColumns } from '../domain/submissions/submissions.service.js';
import type { Scope } from '../scopes.js';
import { fieldsAt, selectsPath } from './selection.js';

/** Form.latestSubmissions' scope: declared on the field, and checked before a page prefetches for it. */
export const LATEST_SUBMISSIONS_SCOPE: Scope = 'read:submissions';

export interface LatestRead {
  limit: number;
  columns: SubmissionColumns;
}

/** Per field node list (one document) and raw `limit`: the same read for every form of a page, built once. */
const reads = new WeakMap<readonly FieldNode[], Map<number | null | undefined, LatestRead>>();

/** What Form.latestSubmissions reads for these field nodes and `limit` (throws invalid_pagination as a page would). */
export function latestRead(info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>, limit: number | null | undefined): LatestRead {
  let byLimit = reads.get(info.fieldNodes);
  if (!byLimit) reads.set(info.fieldNodes, (byLimit = new Map()));
  let read = byLimit.get(limit);
  if (!read) {
    read = { limit: normalizePagination(1, limit).limit, columns: { formData: selectsPath(info, ['formData']), sourceDomain: selectsPath(info, ['sourceDomain']) } };
    byLimit.set(limit, read);
  }
  return read;
}

/**
 * Reads the newest submissions of a page's forms before the page is returned, through the same loader (so the same
 * one statement), so that every form's latestSubmissions then resolves to a plain list instead of a promise that the
 * scope check and the executor each wrap again. On the dashboard (bench/stages/dashboard.ts: 100 forms), with the
 * rows used as read (newestSubmissionsOfForms), execution allocated 823 → 740 KB and ~1.75 → ~1.6 ms CPU per request.
 * Only when the outcome is the same as without it: the viewer holds the field's scope (nothing is read, or audited,
 * for a field that will be refused), no directive may skip the field, and every alias reads the same. Anything else
 * is left to the per-form loads (test/forms/latest-submissions.test.ts compares both, byte for byte).
 */
export async function prefetchLatestSubmissions(formIds: readonly number[], context: RequestContext, info: GraphQLResolveInfo, path: readonly string[]): Promise<void> {
  const viewer = context.viewer;
  if (formIds.length === 0 || viewer?.kind !== 'apiKey' || !viewer.scopes.has(LATEST_SUBMISSIONS_SCOPE)) return;
  const { fields, conditional } = fieldsAt(info.fieldNodes, info.fragments, path);
  const form = info.schema.getType('Form');
  const definition = isObjectType(form) ? form.getFields().latestSubmissions : undefined;
  if (conditional || !definition) return;
  let shared: LatestRead | undefined;
  // Per response path, as the executor resolves it: the read over all of its merged nodes.
  for (const fieldNodes of fields.values()) {
    let read: LatestRead;
    try {
      const args = getArgumentValues(definition, fieldNodes[0]!, info.variableValues) as { limit?: number | null };
      read = latestRead({ fieldNodes, fragments: info.fragments }, args.limit);
    } catch {
      return; // an invalid limit: each form reports it, as without a prefetch
    }
    if (shared && (shared.limit !== read.limit || shared.columns.formData !== read.columns.formData || shared.columns.sourceDomain !== read.columns.sourceDomain)) return;
    shared = read;
  }
  if (!shared) return;
  await context.loaders.prefetchLatestSubmissions(shared.limit, shared.columns, formIds);
}
