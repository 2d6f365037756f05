import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database, SqlSession } from './db.js';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../prisma/migrations', import.meta.url));

/** Any fixed number: every replica must contend for the same advisory lock. */
const MIGRATION_LOCK_ID = 72_707_001;

/** The table Prisma Migrate keeps, so that `prisma migrate deploy` elsewhere sees these as applied. */
const HISTORY_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'migration.sql')))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

/**
 * A migration edited after it was applied would leave this database different from one migrated afresh, silently
 * (Prisma Migrate refuses the same way): start-up stops and names the migration.
 */
function assertUnchanged(migrations: Migration[], applied: { migration_name: string; checksum: string }[]): void {
  const files = new Map(migrations.map((migration) => [migration.name, migration.checksum]));
  const changed = applied.filter((row) => files.has(row.migration_name) && files.get(row.migration_name) !== row.checksum).map((row) => row.migration_name);
  if (changed.length) {
    throw new Error(
      `The migration${changed.length > 1 ? 's' : ''} ${changed.join(', ')} changed after being applied (its migration.sql no longer matches the ` +
        'checksum recorded in _prisma_migrations). Restore the applied file and put the change in a new migration (npm run db:new-migration).',
    );
  }
}

async function applyPending(session: SqlSession, migrations: Migration[]): Promise<string[]> {
  await session.exec(HISTORY_TABLE);
  const rows = await session.query<{ migration_name: string; checksum: string }>(
    'SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
  );
  assertUnchanged(migrations, rows);
  const done = new Set(rows.map((row) => row.migration_name));
  const applied: string[] = [];
  for (const migration of migrations) {
    if (done.has(migration.name)) continue;
    // The SQL and its history row commit together: a failed migration leaves no trace to retry over.
    await session.exec('BEGIN');
    try {
      await session.exec(migration.sql);
      await session.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
         VALUES ($1, $2, $3, now(), now(), 1)`,
        [randomUUID(), migration.checksum, migration.name],
      );
      await session.exec('COMMIT');
    } catch (error) {
      await session.exec('ROLLBACK');
      throw new Error(`Migration ${migration.name} failed: ${(error as Error).message}`);
    }
    applied.push(migration.name);
  }
  return applied;
}

/** Applies pending migrations; on PostgreSQL under an advisory lock so that replicas starting together take turns. */
export async function migrate(db: Database, migrations = readMigrations()): Promise<string[]> {
  return db.withSession(async (session) => {
    if (db.kind === 'pglite') return applyPending(session, migrations);
    await session.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    try {
      return await applyPending(session, migrations);
    } finally {
      await session.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
    }
  });
}
