import DataLoader from 'dataloader';
import type { Database } from '../infra/db.js';
import type { Submission } from '../generated/prisma/client.js';
import { auditPhiReads, newestSubmissionsOfForms, type Reader, type SubmissionColumns } from '../domain/submissions/submissions.service.js';

export interface Loaders {
  /**
   * One form's newest `limit` submissions: the list itself when a batch has already read them (a page prefetched
   * them, src/schema/latest-submissions.ts), else a loader's promise, batched with the other forms' into ONE
   * statement (PHI reads audited). Their formData and sourceDomain only when `columns` asks (else left out: a
   * dashboard listing ids and dates would decode 500 of them). A plain value spares each form of a page its promises
   * (loader, scope check, executor).
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
  const latest = new Map<number, { loader: DataLoader<number, Submission[]>; pages: DataLoader<readonly number[], void>; read: Map<number, Submission[]> }>();
  const latestEntry = (limit: number, columns: SubmissionColumns) => {
    const key = limit * 4 + (columns.formData ? 2 : 0) + (columns.sourceDomain ? 1 : 0);
    let entry = latest.get(key);
    if (!entry) {
      const read = new Map<number, Submission[]>();
      /** Reads these forms' newest submissions into `read`, once both statements succeeded. */
      const readForms = async (formIds: readonly number[]): Promise<void> => {
        const rows = await newestSubmissionsOfForms(db, formIds, limit, columns);
        // PHI reads are audited for the whole batch at once: one INSERT per request, never one per form.
        const viewer = reader();
        if (viewer) await auditPhiReads(db, viewer, rows);
        for (const id of formIds) read.set(id, []);
        for (const row of rows) read.get(row.formId)?.push(row);
      };
      const loader = new DataLoader<number, Submission[]>(async (formIds) => {
        await readForms(formIds);
        return formIds.map((id) => read.get(id) ?? []);
      });
      // Whole pages asked in the same tick go out as one statement, as the forms' own loads would: a promise per
      // page, not one per form. A page's promises wait out the statement, long enough under load for the scavenger
      // to copy and promote them: a heap snapshot held ~120 per in-flight dashboard request with one per form.
      const pages = new DataLoader<readonly number[], void>(
        async (batch) => {
          await readForms([...new Set(batch.flat())]);
          return batch.map(() => undefined);
        },
        { cache: false },
      );
      latest.set(key, (entry = { loader, pages, read }));
    }
    return entry;
  };
  return {
    async prefetchLatestSubmissions(limit, columns, formIds) {
      // A failure reads nothing into `read`: each form then asks its loader again and reports it, as without a prefetch.
      await latestEntry(limit, columns).pages.load(formIds).catch(() => undefined);
    },
    latestSubmissionsOf(limit, columns, formId) {
      const entry = latestEntry(limit, columns);
      return entry.read.get(formId) ?? entry.loader.load(formId);
    },
  };
}
