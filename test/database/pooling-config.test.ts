import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { createTestDatabase, hasPostgres } from '../support/database.js';
import { openDatabase, type Database } from '../../src/infra/db.js';
import { killHard, startProcess } from '../chaos/processes.js';
import { rawStatement, sql, sqlBuilder } from '../../src/infra/sql.js';
import { QUEUE, startJobQueue } from '../../src/infra/jobs.js';
import { JobQueueDb } from '../../src/infra/job-queue-db.js';

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

  it("prepares none of the job queue's statements either; with the default, its fetches are named and served again", async () => {
    const template = await createTestDatabase();
    const named = async (pooler: 'none' | 'transaction'): Promise<{ prepared: number; fetched: number }> => {
      const db = await openDatabase({ databaseUrl: template.url, dataDir: '', databasePooler: pooler, databasePoolSize: 1 });
      const queue = await startJobQueue({ db, databaseUrl: template.url, databasePooler: pooler, poolSize: 1, listen: false, schedule: false });
      try {
        let fetched = 0;
        for (let round = 0; round < 2; round++) {
          await queue.boss.send(QUEUE.verificationLapse, { round });
          const jobs = await queue.boss.fetch(QUEUE.verificationLapse, { batchSize: 5 });
          fetched += jobs.length;
          await queue.boss.complete(QUEUE.verificationLapse, jobs.map((job) => job.id));
        }
        // pg-boss's pool holds one connection: its prepared statements are the ones JobQueueDb named.
        const { rows } = await queue.boss.getDb().executeSql(`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 'wg_jobs_%'`);
        return { prepared: (rows[0] as { n: number }).n, fetched };
      } finally {
        await queue.stop();
        await db.close();
      }
    };
    expect(await named('transaction')).toEqual({ prepared: 0, fetched: 2 });
    const direct = await named('none');
    expect(direct.fetched).toBe(2);
    expect(direct.prepared).toBeGreaterThan(0);
    await template.close();
  }, 30_000);

  it("runs a job-queue statement unnamed once a migration changed the columns it returns, instead of failing it", async () => {
    const template = await createTestDatabase();
    const url = template.url!;
    const jobDb = new JobQueueDb({ connectionString: url, directConnectionString: url, max: 1, application_name: 'wg-plan-changed', namedStatements: true });
    await jobDb.open();
    try {
      await jobDb.executeSql('CREATE TABLE plan_changed (id int)');
      await jobDb.executeSql('INSERT INTO plan_changed VALUES (1)');
      const text = 'SELECT * FROM plan_changed WHERE id = $1';
      expect((await jobDb.executeSql(text, [1])).rows).toEqual([{ id: 1 }]);
      // A newer release's pg-boss adds a column while this process holds the statement prepared.
      await jobDb.executeSql('ALTER TABLE plan_changed ADD COLUMN note text');
      expect((await jobDb.executeSql(text, [1])).rows).toEqual([{ id: 1, note: null }]);
      expect((await jobDb.executeSql(text, [1])).rows).toEqual([{ id: 1, note: null }]);
    } finally {
      await jobDb.close();
      await template.close();
    }
  });
});

describe.runIf(hasPostgres)('a gateway\'s main pool (holdPoolOpen, src/main.ts)', () => {
  /** Client backends whose application_name is `name` (the test's pools set it in their URL). */
  const backends = async (db: Pick<Database, 'sql'>, name: string): Promise<number> =>
    (await db.sql(rawStatement(sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = ${name}`)))[0]?.n ?? -1;

  it('is connected before openDatabase returns and keeps every connection past the 10 s idle close; the default pool connects on demand and closes idle ones', async () => {
    const template = await createTestDatabase();
    const named = (name: string): string => {
      const url = new URL(template.url!);
      url.searchParams.set('application_name', name);
      return url.toString();
    };
    const held = await openDatabase({ databaseUrl: named('pool-held'), dataDir: '', databasePoolSize: 3, holdPoolOpen: true });
    const onDemand = await openDatabase({ databaseUrl: named('pool-on-demand'), dataDir: '', databasePoolSize: 3 });
    try {
      expect(await backends(template, 'pool-held')).toBe(3);
      expect(await backends(template, 'pool-on-demand')).toBe(0);
      await onDemand.sql(rawStatement(sql`SELECT 1`));
      expect(await backends(template, 'pool-on-demand')).toBe(1);
      // pg-pool closes a connection idle for 10 s (idleTimeoutMillis) unless the pool holds `min` or fewer.
      await new Promise((resolve) => setTimeout(resolve, 10_500));
      expect(await backends(template, 'pool-held')).toBe(3);
      expect(await backends(template, 'pool-on-demand')).toBe(0);
    } finally {
      await Promise.all([held.close(), onDemand.close(), template.close()]);
    }
  }, 30_000);

  it('is what the gateway process opens before it listens: DATABASE_POOL_SIZE idle connections before any request', async () => {
    const template = await createTestDatabase();
    const gateway = await startProcess('gateway', 'pool-held-gateway', {
      DATABASE_URL: template.url!,
      DATABASE_POOL_SIZE: '3',
      SECRET_KEY: randomBytes(32).toString('base64'),
      DATA_DIR: '',
      MIGRATE_ON_START: 'false',
      WORKERS_IN_PROCESS: 'false',
      METRICS_TOKEN: 'pool-held-token',
    });
    try {
      const text = await (await fetch(`${gateway.baseUrl}/metrics`, { headers: { authorization: 'Bearer pool-held-token' } })).text();
      expect(text).toContain('db_pool_connections{state="idle"} 3\n');
      expect(text).toContain('db_pool_connections{state="active"} 0\n');
      // Read before the scrape's own outbox-lag statement queues for a connection (it read 1 here).
      expect(text).toContain('db_pool_connections{state="waiting"} 0\n');
    } finally {
      await killHard(gateway);
      await template.close();
    }
  }, 60_000);

  it('fails to open, holding nothing, when the database refuses a connection', async () => {
    const template = await createTestDatabase();
    const url = new URL(template.url!);
    url.pathname = '/wg_no_such_database';
    url.searchParams.set('application_name', 'pool-refused');
    await expect(openDatabase({ databaseUrl: url.toString(), dataDir: '', databasePoolSize: 3, holdPoolOpen: true })).rejects.toThrow(/does not exist/);
    expect(await backends(template, 'pool-refused')).toBe(0);
    await template.close();
  });
});
