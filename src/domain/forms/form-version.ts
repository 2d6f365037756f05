import type { Database } from '../../infra/db.js';
import { Prisma } from '../../generated/prisma/client.js';

/*
 * Form.version counts the writes to a form and to its submissions: every write that changes what a forms or
 * submissions body shows adds one, in the writing statement or transaction itself. Forms are never deleted
 * (archiving is a write), so the sum over an account's forms grows with every such change and never returns to
 * an earlier value, whatever order concurrent writes commit in: a conditional GET compares it instead of
 * building the body (src/rest/conditional.ts).
 *
 * Whoever writes a form row or adds or removes a submission spreads one of these into that write.
 */

/** For Prisma updates of a form: `data: { ..., ...bumpFormVersion }`. */
export const bumpFormVersion = { version: { increment: 1 } } as const;

/** For hand-written updates of a form: `UPDATE "Form" SET ..., ${FORM_VERSION_BUMP} WHERE ...`. */
export const FORM_VERSION_BUMP = Prisma.sql`"version" = "version" + 1`;

/** The version of everything an account's forms list shows (all its forms, archived ones too). */
export async function accountFormsVersion(db: Database, accountId: number): Promise<string> {
  const [row] = await db.sql<{ version: string }>(Prisma.sql`SELECT coalesce(sum("version"), 0)::text AS "version" FROM "Form" WHERE "accountId" = ${accountId}`);
  return row?.version ?? '0';
}

export interface FormVersion {
  version: number;
  phi: boolean;
  archived: boolean;
}

/** One form's version, or null for an absent form or another account's. */
export async function formVersion(db: Database, accountId: number, formId: number): Promise<FormVersion | null> {
  const [row] = await db.sql<{ version: number; phi: boolean; archived: boolean }>(Prisma.sql`
    SELECT "version", "phi", "archivedAt" IS NOT NULL AS "archived" FROM "Form" WHERE "id" = ${formId} AND "accountId" = ${accountId}`);
  return row ?? null;
}
