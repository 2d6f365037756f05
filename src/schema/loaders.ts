import DataLoader from 'dataloader';
import type { Database } from '../infra/db.js';
import type { Submission } from '../generated/prisma/client.js';
import { auditPhiReads, newestSubmissionsOfForms, type Reader, type SubmissionColumns } from '../domain/submissions/submissions.service.js';

export interface Loaders {
  /**
   * The newest `limit` submissions of each form, for all forms of a page in ONE statement (PHI reads audited);
   * their formData and sourceDomain only when `columns` asks (else left out: a dashboard listing ids and dates would
   * decode 500 of them).
   */
  latestSubmissions(limit: number, columns: SubmissionColumns): DataLoader<number, Submission[]>;
  /**
   * One form's newest submissions: the list itself when a batch has already read them (a page prefetched them,
   * src/schema/latest-submissions.ts), else the loader's promise. A plain value spares each form of a page its
   * promises (loader, scope check, executor).
   */
  latestSubmissionsOf(limit: number, columns: SubmissionColumns, formId: number): Submission[] | Promise<Submission[]>;
  /** Reads the newest submissions of these forms ahead, so that `latestSubmissionsOf` answers them with plain lists. */
  prefetchLatestSubmissions(limit: number, columns: SubmissionColumns, formIds: readonly number[]): Promise<void>;
}

/**
 * Built per request: a loader never outlives its request or mixes two viewers' data. `reader` is the request's
 * API-key viewer (PHI reads are audited in its name), or null.
 */
export function createLoaders(db: Database, reader: () => Reader | null): Loaders {
  const latest = new Map<number, { loader: DataLoader<number, Submission[]>; read: Map<number, Submission[]> }>();
  const latestEntry = (limit: number, columns: SubmissionColumns) => {
    const key = limit * 4 + (columns.formData ? 2 : 0) + (columns.sourceDomain ? 1 : 0);
    let entry = latest.get(key);
    if (!entry) {
      const read = new Map<number, Submission[]>();
      const loader = new DataLoader<number, Submission[]>(async (formIds) => {
        const rows = await newestSubmissionsOfForms(db, formIds, limit, columns);
        // PHI reads are audited for the whole batch at once: one INSERT per request, never one per form.
        const viewer = reader();
        if (viewer) await auditPhiReads(db, viewer, rows);
        for (const id of formIds) read.set(id, []);
        for (const row of rows) read.get(row.formId)?.push(row);
        return formIds.map((id) => read.get(id) ?? []);
      });
      latest.set(key, (entry = { loader, read }));
    }
    return entry;
  };
  return {
    latestSubmissions: (limit, columns) => latestEntry(limit, columns).loader,
    async prefetchLatestSubmissions(limit, columns, formIds) {
      // Through the loader, so that it batches exactly as the forms' own loads would (two pages: one statement). A
      // failure is not cached (DataLoader clears failed keys): each form then asks again and reports it, as before.
      await latestEntry(limit, columns).loader.loadMany(formIds);
    },
    latestSubmissionsOf(limit, columns, formId) {
      const entry = latestEntry(limit, columns);
      return entry.read.get(formId) ?? entry.loader.load(formId);
    },
  };
}
