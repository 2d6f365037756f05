import DataLoader from 'dataloader';
import type { RequestContext } from '../context.js';
import { Prisma, type Submission } from '../generated/prisma/client.js';
import { auditPhiReads } from '../domain/submissions/submissions.service.js';

/** Which costly columns a read of submissions carries; the others come back null. */
export interface SubmissionColumns {
  formData: boolean;
  sourceDomain: boolean;
}

export interface Loaders {
  /**
   * The newest `limit` submissions of each form, for all forms of a page in ONE statement (PHI reads audited);
   * their formData and sourceDomain only when `columns` asks (else null: a dashboard listing ids and dates would
   * decode 500 of them).
   */
  latestSubmissions(limit: number, columns: SubmissionColumns): DataLoader<number, Submission[]>;
}

const FORM_DATA = Prisma.raw('s."formData", s."formDataCiphertext"');
const NO_FORM_DATA = Prisma.raw('NULL::jsonb AS "formData", NULL::bytea AS "formDataCiphertext"');
const SOURCE_DOMAIN = Prisma.raw('s."sourceDomain"');
const NO_SOURCE_DOMAIN = Prisma.raw('NULL::text AS "sourceDomain"');

/** Built per request: a loader never outlives its request or mixes two viewers' data. */
export function createLoaders(context: RequestContext): Loaders {
  const latest = new Map<number, DataLoader<number, Submission[]>>();
  return {
    latestSubmissions(limit, columns) {
      const key = limit * 4 + (columns.formData ? 2 : 0) + (columns.sourceDomain ? 1 : 0);
      let loader = latest.get(key);
      if (!loader) {
        loader = new DataLoader(async (formIds) => {
          // A lateral join walks the (formId, createdAt desc, id desc) index once per form: cost follows the
          // page, not the table.
          const rows = await context.deps.db.sql<Submission>(Prisma.sql`
            SELECT s."id", s."accountId", s."formId", ${columns.formData ? FORM_DATA : NO_FORM_DATA}, s."formDataKeyId",
                   ${columns.sourceDomain ? SOURCE_DOMAIN : NO_SOURCE_DOMAIN}, s."createdAt"
            FROM unnest(${[...formIds]}::int[]) AS f("id")
            CROSS JOIN LATERAL (
              SELECT * FROM "Submission" WHERE "formId" = f."id" ORDER BY "createdAt" DESC, "id" DESC LIMIT ${limit}
            ) AS s`);
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
