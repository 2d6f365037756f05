import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS_DIR, readMigrations } from '../src/infra/migrations.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';

describe('migrations', () => {
  let db: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    db = await createTestDatabase();
    dir = mkdtempSync(join(tmpdir(), 'wg-migrations-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await db.close();
  });

  it('records every migration folder in _prisma_migrations with the sha256 of its file as it is on disk', async () => {
    const rows = await db.withSession((s) =>
      s.query<{ migration_name: string; checksum: string; applied_steps_count: number }>(
        'SELECT migration_name, checksum, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name',
      ),
    );
    // Hashed here from the files themselves, not taken from the runner's own reading of them.
    const expected = readMigrations().map((m) => ({
      migration_name: m.name,
      checksum: createHash('sha256').update(readFileSync(join(MIGRATIONS_DIR, m.name, 'migration.sql'))).digest('hex'),
      applied_steps_count: 1,
    }));
    expect(expected.length).toBeGreaterThan(0);
    expect(rows).toStrictEqual(expected);
  });

  it('applying the migrations again is a no-op', async () => {
    expect(await migrate(db)).toEqual([]);
    const count = await db.withSession((s) => s.query<{ n: number }>('SELECT count(*)::int AS n FROM "_prisma_migrations"'));
    expect(count[0]?.n).toBe(readMigrations().length);
  });

  it('stops with a clear message when an applied migration file was changed afterwards, applying nothing', async () => {
    cpSync(MIGRATIONS_DIR, dir, { recursive: true });
    const [first] = readMigrations(dir);
    const file = join(dir, first!.name, 'migration.sql');
    writeFileSync(file, `${readFileSync(file, 'utf8')}\n-- edited after it was applied\n`);
    const before = await db.withSession((s) => s.query<{ n: number }>('SELECT count(*)::int AS n FROM "_prisma_migrations"'));
    await expect(migrate(db, readMigrations(dir))).rejects.toThrow(`The migration ${first!.name} changed after being applied`);
    const after = await db.withSession((s) => s.query<{ n: number }>('SELECT count(*)::int AS n FROM "_prisma_migrations"'));
    expect(after).toStrictEqual(before);
  });
});
