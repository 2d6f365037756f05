import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { createTestDatabase, hasPostgres } from '../support/database.js';
import { openDatabase } from '../../src/infra/db.js';
import { rawStatement, sql, sqlBuilder } from '../../src/infra/sql.js';

const base = { SECRET_KEY: randomBytes(32).toString('base64'), DATABASE_URL: 'postgresql://127.0.0.1/x' };

describe('pooling settings (operator guide, "Connection pooling")', () => {
  it('default to a direct connection: the direct URL is DATABASE_URL, statements are named, pools 10 / 4 / 2', () => {
    expect(loadConfig(base)).toMatchObject({
      directDatabaseUrl: base.DATABASE_URL,
      databasePooler: 'none',
      databasePoolSize: 10,
      jobQueuePoolSize: 4,
      pipelinePoolSize: 2,
    });
  });

  it('read a pooler in transaction mode, its direct URL and the pool sizes', () => {
    const env = { ...base, DIRECT_DATABASE_URL: 'postgresql://127.0.0.1:5432/x', DATABASE_POOLER: 'transaction', DATABASE_POOL_SIZE: '6', JOB_QUEUE_POOL_SIZE: '2', PIPELINE_POOL_SIZE: '1' };
    expect(loadConfig(env)).toMatchObject({ directDatabaseUrl: 'postgresql://127.0.0.1:5432/x', databasePooler: 'transaction', databasePoolSize: 6, jobQueuePoolSize: 2, pipelinePoolSize: 1 });
  });

  it('refuse what they cannot use', () => {
    expect(() => loadConfig({ ...base, DATABASE_POOLER: 'session' })).toThrow(new ConfigError('DATABASE_POOLER must be none or transaction, got "session"'));
    expect(() => loadConfig({ ...base, DIRECT_DATABASE_URL: 'mysql://x' })).toThrow(ConfigError);
    expect(() => loadConfig({ SECRET_KEY: base.SECRET_KEY, DATA_DIR: '/tmp/wg-unused', DIRECT_DATABASE_URL: 'postgresql://127.0.0.1/x' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, DATABASE_POOL_SIZE: '0' })).toThrow(ConfigError);
  });
});

describe.runIf(hasPostgres)('DATABASE_POOLER=transaction on PostgreSQL', () => {
  it('prepares no statement under a name; with the default, the hot statements are named', async () => {
    const template = await createTestDatabase();
    const named = async (pooler: 'none' | 'transaction'): Promise<number> => {
      const db = await openDatabase({ databaseUrl: template.url, dataDir: '', databasePooler: pooler, databasePoolSize: 1 });
      try {
        await db.transaction(async (tx) => {
          await tx.executeSql('SELECT 1');
        });
        await db.sql(sqlBuilder.selectFrom('Account').select('id').limit(1));
        // One connection in the pool: its prepared statements are the ones the driver named.
        const rows = await db.sql(rawStatement(sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_prepared_statements`));
        return rows[0]?.n ?? -1;
      } finally {
        await db.close();
      }
    };
    expect(await named('transaction')).toBe(0);
    expect(await named('none')).toBeGreaterThan(0);
    await template.close();
  });
});
