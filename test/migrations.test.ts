import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, readMigrations } from '../src/infra/migrations.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';

describe('migrations', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => db.close());

  it('records every migration folder in _prisma_migrations with its sha256 checksum', async () => {
    const rows = await db.withSession((s) =>
      s.query<{ migration_name: string; checksum: string; applied_steps_count: number }>(
        'SELECT migration_name, checksum, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name',
      ),
    );
    expect(rows).toEqual(readMigrations().map((m) => ({ migration_name: m.name, checksum: m.checksum, applied_steps_count: 1 })));
  });

  it('applying the migrations again is a no-op', async () => {
    expect(await migrate(db)).toEqual([]);
    const count = await db.withSession((s) => s.query<{ n: number }>('SELECT count(*)::int AS n FROM "_prisma_migrations"'));
    expect(count[0]?.n).toBe(readMigrations().length);
  });
});
