import DataLoader from 'dataloader';
import type { RequestContext } from '../context.js';
import type { Submission } from '../generated/prisma/client.js';
import { auditPhiReads, newestSubmissionsOfForms } from '../domain/submissions/submissions.service.js';

export interface Loaders {
  /**
   * The newest `limit` submissions of each form, for all forms of a page in ONE statement (PHI reads audited);
   * their formData only `withFormData` (else null: a dashboard listing ids and dates would decode 500 of them).
   */
  latestSubmissions(limit: number, withFormData: boolean): DataLoader<number, Submission[]>;
}

/** Built per request: a loader never outlives its request or mixes two viewers' data. */
export function createLoaders(context: RequestContext): Loaders {
  const latest = new Map<string, DataLoader<number, Submission[]>>();
  return {
    latestSubmissions(limit, withFormData) {
      const key = `${limit}:${withFormData}`;
      let loader = latest.get(key);
      if (!loader) {
        loader = new DataLoader(async (formIds) => {
          const rows = await newestSubmissionsOfForms(context.deps.db, formIds, limit, withFormData);
          // PHI reads are audited for the whole batch at once: one INSERT per request, never one per form.
          const viewer = context.viewer;
          if (viewer?.kind === 'apiKey') {
            await auditPhiReads(context.deps.db.prisma, { accountId: viewer.accountId, apiKeyId: viewer.keyId }, rows);
          }
          const byForm = new Map<number, Submission[]>(formIds.map((id) => [id, []]));
          for (const row of rows) byForm.get(row.formId)?.push(row);
          return formIds.map((id) => byForm.get(id) ?? []);
        });
        latest.set(key, loader);
      }
      return loader;
    },
  };
}
