import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startJobQueue, type JobQueue } from '../../src/infra/jobs.js';
import { adminUrl, createTestDatabase, hasPostgres, type TestDatabase } from '../support/database.js';

/**
 * PostgreSQL ends sessions on its own terms (an operator's pg_terminate_backend, a failover, a restart): the job
 * queue's LISTEN connection must reconnect, not take the process down with an 'error' event nobody listens to.
 */
describe.runIf(hasPostgres)('the job queue when PostgreSQL terminates its LISTEN connection', () => {
  let db: TestDatabase;
  let queue: JobQueue;
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown): void => void uncaught.push(error);

  beforeAll(async () => {
    db = await createTestDatabase();
    queue = await startJobQueue({ db, databaseUrl: db.url });
    process.on('uncaughtException', onUncaught);
  });
  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    await queue.stop();
    await db.close();
  });

  it('keeps the process alive and listens again', async () => {
    const database = new URL(db.url!).pathname.slice(1);
    const admin = new pg.Client({ connectionString: adminUrl(process.env.DATABASE_URL!) });
    await admin.connect();
    try {
      const listening = `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND query ILIKE 'LISTEN%'`;
      await vi.waitFor(async () => expect((await admin.query(listening, [database])).rowCount).toBeGreaterThan(0), { timeout: 10_000 });
      await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND query ILIKE 'LISTEN%'`, [database]);
      await vi.waitFor(async () => expect((await admin.query(listening, [database])).rowCount).toBeGreaterThan(0), { timeout: 20_000, interval: 250 });
    } finally {
      await admin.end();
    }
    expect(uncaught).toStrictEqual([]);
  });
});
