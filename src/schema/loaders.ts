import DataLoader from 'dataloader';
import type { Database } from '../infra/db.js';
import type { Submission } from '../generated/prisma/client.js';
import { auditPhiReads, newestSubmissionsOfForms, type Reader, type SubmissionColumns } from '../domain/submissions/submissions.service.js';

export interface Loaders {
  /**
   * The newest `limit` submissions of each form, for all forms of a page in ONE statement (PHI reads audited);
   * their formData and sourceDomain only when `columns` asks (else null: a dashboard listing ids and dates would
   * decode 500 of them).
   */
  latestSubmissions(limit: number, columns: SubmissionColumns): DataLoader<number, Submission[]>;
}

/**
 * Built per request: a loader never outlives its request or mixes two viewers' data. `reader` is the request's
 * API-key viewer (PHI reads are audited in its name), or null.
 */
export function createLoaders(db: Database, reader: () => Reader | null): Loaders {
  const latest = new Map<number, DataLoader<number, Submission[]>>();
  return {
    latestSubmissions(limit, columns) {
      const key = limit * 4 + (columns.formData ? 2 : 0) + (columns.sourceDomain ? 1 : 0);
      let loader = latest.get(key);
      if (!loader) {
        loader = new DataLoader(async (formIds) => {
          const rows = await newestSubmissionsOfForms(db, formIds, limit, columns);
          // PHI reads are audited for the whole batch at once: one INSERT per request, never one per form.
          const viewer = reader();
          if (viewer) await auditPhiReads(db.prisma, viewer, rows);
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
