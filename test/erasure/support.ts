import type { TestDatabase } from '../support/database.js';

/**
 * Every row of every table the service writes (public schema) and of the job queue, as text: what a scrub test
 * searches for a value that must be gone. Tables are listed from the catalog, so a table added later is searched too.
 */
export async function everyStoredRow(db: TestDatabase): Promise<string> {
  return db.withSession(async (session) => {
    const tables = await session.query<{ name: string }>(
      `SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables WHERE schemaname IN ('public', 'pgboss') AND tablename <> '_prisma_migrations'`,
    );
    const parts: string[] = [];
    for (const { name } of tables) {
      const [row] = await session.query<{ t: string | null }>(`SELECT string_agg(x::text, '|') AS t FROM ${name} x`);
      parts.push(row?.t ?? '');
    }
    return parts.join('|');
  });
}
