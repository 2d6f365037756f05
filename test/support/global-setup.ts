import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/infra/db.js';
import { migrate } from '../../src/infra/migrations.js';
import { randomBytes } from 'node:crypto';
import { adminUrl } from './database.js';

/**
 * Migrates once per run: a PostgreSQL template database when DATABASE_URL is set, otherwise a dump of a
 * migrated PGlite that every test file loads into its own in-memory database.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    // Per-run names: two runs on one server (two developers, or CI beside a bench) never drop each other's databases.
    const run = randomBytes(4).toString('hex');
    const template = `wg_template_${run}`;
    project.provide('pgTemplate', template);
    const admin = new pg.Client({ connectionString: adminUrl(databaseUrl) });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${template}`);
    const url = new URL(databaseUrl);
    url.pathname = `/${template}`;
    const db = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
    await migrate(db);
    await db.close();
    return async () => {
      const leftovers = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1 OR datname = $2`, [`wg_test_${run}_%`, template]);
      for (const row of leftovers.rows) await admin.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
      await admin.end();
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'wg-template-'));
  const pglite = new PGlite();
  const db = await openDatabase({ databaseUrl: null, dataDir: '', pglite });
  await migrate(db);
  const dump = await pglite.dumpDataDir('none');
  const file = join(dir, 'template.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await db.close();
  project.provide('pgliteTemplate', file);
  return async () => rmSync(dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    /** PostgreSQL: the migrated template database of this run. */
    pgTemplate: string;
  }
}
