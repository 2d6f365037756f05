import { describe, expect, it } from 'vitest';
import { createTestApp } from '../support/app.js';
import { createTestDatabase, hasPostgres } from '../support/database.js';
import { formFixture, seedAccount, siteFixture } from '../support/seed.js';
import { driveCorpus } from '../rest/corpus.js';
import { rawStatement, sql } from '../../src/infra/sql.js';

/*
 * A rolling release (operator guide, "Rolling a release"): `npm run db:migrate` runs once, and the replicas of the
 * release before keep serving until each is replaced. Their statements are prepared by name on their connections; a
 * migration that adds a column (the expand step of any change) must not break one of them. A statement that returned
 * every column (`SELECT *`, `RETURNING *`) failed on each connection that had it prepared, with 0A000 `cached plan
 * must not change result type`, until the replica was replaced: every route is driven once to prepare its
 * statements on the pool's one connection, with the dashboard's GraphQL query, a column is added to every table, and
 * every route and the query run again.
 */

const DASHBOARD = `{
  forms(limit: 100) { data { id name type phi archived fields { id label } submissionCount createdAt updatedAt domain { id domain }
    latestSubmissions(limit: 5) { id formId formData sourceDomain createdAt } } }
}`;
describe.runIf(hasPostgres)('a replica of the release before, after a migration added columns', () => {
  it('answers every route as before: no 5xx, and the new columns in no body', async () => {
    // No answer cache: the second dashboard query runs its statements.
    const t = await createTestApp({ db: await createTestDatabase({ poolSize: 1 }), env: { GRAPHQL_ANSWER_CACHE_MB: '0' } });
    try {
      const key = (await seedAccount(t.db, { ref: 'dashboard', sites: [siteFixture({ forms: [formFixture({ submissions: [{ formData: { Name: 'Ada' } }] })] })] })).apiKeys.full!.key;
      const dashboard = async () => (await t.graphql(DASHBOARD, {}, key)).body;
      const dashboardBefore = await dashboard();
      expect(dashboardBefore.errors).toBeUndefined();
      expect(dashboardBefore.data.forms.data[0].latestSubmissions).toHaveLength(1);
      const before = await driveCorpus(t);
      expect(before.filter(({ response }) => response.status >= 500).map(({ step }) => step.name)).toEqual([]);
      const tables = await t.db.sql(rawStatement(sql<{ name: string }>`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'`));
      expect(tables.length).toBeGreaterThan(10);
      for (const { name } of tables) await t.db.sql(rawStatement(sql`ALTER TABLE ${sql.id(name)} ADD COLUMN "rollingProbe" integer DEFAULT 7`));
      const after = await driveCorpus(t);
      expect(after.filter(({ response }) => response.status >= 500).map(({ step, response }) => `${step.name}: ${response.text.slice(0, 120)}`)).toEqual([]);
      expect(after.filter(({ response }) => response.text.includes('rollingProbe')).map(({ step }) => step.name)).toEqual([]);
      expect(after.length).toBe(before.length);
      const dashboardAfter = await dashboard();
      expect(dashboardAfter.errors).toBeUndefined();
      expect(dashboardAfter.data).toEqual(dashboardBefore.data);
    } finally {
      await t.close();
    }
  }, 60_000);
});
