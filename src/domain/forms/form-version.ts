import type { SqlExecutor } from '../../infra/db-driver.js';
import { preparedQuery, sql, sqlBuilder } from '../../infra/sql.js';

/*
 * Form.version counts the writes to a form and to its submissions: every write that changes what a forms or
 * submissions body shows adds one, in the writing statement or transaction itself. Forms are never deleted
 * (archiving is a write), so the sum over an account's forms grows with every such change and never returns to
 * an earlier value, whatever order concurrent writes commit in: a conditional GET compares it instead of
 * building the body (src/rest/conditional.ts).
 *
 * Whoever writes a form row or adds or removes a submission spreads this into that write (Form rows are written
 * through src/infra/sql.ts only): `updateTable('Form').set({ ..., ...FORM_VERSION_BUMP })`, or in a `sql`
 * template `"version" = ${FORM_VERSION_BUMP.version}`.
 */
export const FORM_VERSION_BUMP = { version: sql<number>`"version" + 1` };

// Compiled once: a conditional GET answered 304 costs little more than these.
const accountVersion = preparedQuery((_shape: null, values: { accountId: number }) =>
  sqlBuilder
    .selectFrom('Form')
    .select([sql<string>`coalesce(sum("version"), 0)::text`.as('version'), sql<boolean>`coalesce(bool_or("phi"), false)`.as('phi')])
    .where('accountId', '=', values.accountId),
);
const oneFormVersion = preparedQuery((_shape: null, values: { accountId: number; formId: number }) =>
  sqlBuilder
    .selectFrom('Form')
    .select(['version', 'phi', sql<boolean>`"archivedAt" IS NOT NULL`.as('archived')])
    .where('id', '=', values.formId)
    .where('accountId', '=', values.accountId),
);

/**
 * The version of everything an account's forms and submissions bodies show (all its forms, archived ones too), and
 * whether any of its forms is PHI, in one statement: the forms list's ETag is the version, and a cached GraphQL answer
 * over forms and submissions (src/execution/answer-cache.ts) is served only under the version it was built at, and
 * never for an account with a PHI form (each read of a PHI submission is audited, so it must run).
 */
export async function accountFormsVersion(db: SqlExecutor, accountId: number): Promise<{ version: string; phi: boolean }> {
  const [row] = await db.sql(accountVersion(null, { accountId }));
  return { version: row?.version ?? '0', phi: row?.phi === true };
}

export interface FormVersion {
  version: number;
  phi: boolean;
  archived: boolean;
}

/** One form's version, or null for an absent form or another account's. */
export async function formVersion(db: SqlExecutor, accountId: number, formId: number): Promise<FormVersion | null> {
  const [row] = await db.sql(oneFormVersion(null, { accountId, formId }));
  return row ?? null;
}
