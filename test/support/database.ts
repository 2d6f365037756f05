import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../../src/infra/db.js';


/** The maintenance database of the server DATABASE_URL points at. */
export function adminUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  return url.toString();
}

export interface TestDatabase extends Database {
  /** The URL of this file's own database (PostgreSQL only), e.g. for a child process. */
  url: string | null;
  /** SQL statements Prisma sent since the last `resetQueryCount()`. */
  queries: string[];
  resetQueryCount(): void;
  /** Empties every table (ids restart), for a clean slate between tests. */
  truncate(): Promise<void>;
}

async function cloneTemplate(databaseUrl: string): Promise<string> {
  const template = inject('pgTemplate');
  const name = `wg_test_${template.replace('wg_template_', '')}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl(databaseUrl) });
  await admin.connect();
  try {
    // Two files cloning at the same instant can see "source database is being accessed": retry briefly.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
        break;
      } catch (error) {
        if (attempt >= 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
      }
    }
  } finally {
    await admin.end();
  }
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function dropDatabase(databaseUrl: string, url: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl(databaseUrl) });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`);
  await admin.end();
}

/**
 * A clean, migrated database for one test file: a clone of the template on PostgreSQL (DATABASE_URL),
 * otherwise an in-memory PGlite loaded from the migrated dump made in global setup.
 */
/** `poolSize`: the main pool's connections on PostgreSQL (a test that needs every statement on one connection: 1). */
export async function createTestDatabase(options: { poolSize?: number } = {}): Promise<TestDatabase> {
  const queries: string[] = [];
  const onQuery = (sql: string): void => {
    queries.push(sql);
  };
  const serverUrl = process.env.DATABASE_URL;
  let db: Database;
  let url: string | null = null;
  if (serverUrl) {
    url = await cloneTemplate(serverUrl);
    db = await openDatabase({ databaseUrl: url, dataDir: '', onQuery, ...(options.poolSize && { databasePoolSize: options.poolSize }) });
  } else {
    const dump = readFileSync(inject('pgliteTemplate'));
    const pglite = await PGlite.create({ loadDataDir: new Blob([dump]) });
    db = await openDatabase({ databaseUrl: null, dataDir: '', pglite, onQuery });
  }
  return {
    ...db,
    url,
    queries,
    resetQueryCount: () => {
      queries.length = 0;
    },
    truncate: () =>
      db.withSession(async (session) => {
        const tables = await session.query<{ tablename: string }>(
          `SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'`,
        );
        if (tables.length === 0) return;
        // A worker still running between tests (its relay, a delivery) takes the same tables one by one; PostgreSQL
        // breaks such a deadlock by failing one side, and when that is the TRUNCATE it is simply run again.
        for (let attempt = 1; ; attempt++) {
          try {
            await session.exec(`TRUNCATE ${tables.map((t) => `"${t.tablename}"`).join(', ')} RESTART IDENTITY CASCADE`);
            return;
          } catch (error) {
            if ((error as { code?: unknown }).code !== '40P01' || attempt === 5) throw error;
          }
        }
      }),
    close: async () => {
      await db.close();
      if (serverUrl && url) await dropDatabase(serverUrl, url);
    },
  };
}

/** Tests that need a real PostgreSQL server: `describe.runIf(hasPostgres)`; reported as skipped otherwise. */
export const hasPostgres = Boolean(process.env.DATABASE_URL);
export const hasRedis = Boolean(process.env.REDIS_URL);
