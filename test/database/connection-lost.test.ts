import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { rawStatement, sql } from '../../src/infra/sql.js';
import { adminUrl, createTestDatabase, hasPostgres, type TestDatabase } from '../support/database.js';

/**
 * PostgreSQL ends sessions on its own terms (an operator's pg_terminate_backend, a failover, a restart). A statement
 * whose connection goes answers 503 service_unavailable, never a 500; a transaction whose connection goes between two
 * statements must not take the process down (a checked-out node-pg client emits 'error' with nobody listening: a
 * worker busy with a relay pass exited on it), and the pool serves on.
 */
describe.runIf(hasPostgres)('a PostgreSQL connection lost under a statement or a transaction', () => {
  let db: TestDatabase;
  let admin: pg.Client;
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown): void => void uncaught.push(error);

  beforeAll(async () => {
    db = await createTestDatabase();
    admin = new pg.Client({ connectionString: adminUrl(process.env.DATABASE_URL!) });
    await admin.connect();
    process.on('uncaughtException', onUncaught);
  });
  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    await admin.end();
    await db.close();
  });

  const terminate = (pid: number) => admin.query('SELECT pg_terminate_backend($1)', [pid]);
  const pidOf = async (on: Pick<TestDatabase, 'sql'>) => (await on.sql(rawStatement(sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`)))[0]!.pid;
  const expectUnavailable = (error: unknown) => {
    expect(error).toBeInstanceOf(AppError);
    expect([(error as AppError).code, (error as AppError).status, (error as AppError).headers]).toStrictEqual(['service_unavailable', 503, { 'Retry-After': '1' }]);
  };

  it('answers a statement whose backend is terminated under it with service_unavailable', async () => {
    const sleeping = db.sql(rawStatement(sql`SELECT pg_sleep(5)`)).then(
      () => null,
      (error: unknown) => error,
    );
    const database = new URL(db.url!).pathname.slice(1);
    let pid: number | undefined;
    for (let tries = 0; pid === undefined && tries < 100; tries++) {
      pid = (await admin.query(`SELECT pid FROM pg_stat_activity WHERE datname = $1 AND query = 'SELECT pg_sleep(5)'`, [database])).rows[0]?.pid;
      if (pid === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await terminate(pid!);
    expectUnavailable(await sleeping);
    expect(await pidOf(db)).not.toBe(pid);
  });

  /** The pid of the backend running `text` on this file's database, once it shows in pg_stat_activity. */
  const pidRunning = async (text: string): Promise<number> => {
    const database = new URL(db.url!).pathname.slice(1);
    for (let tries = 0; tries < 100; tries++) {
      const pid = (await admin.query(`SELECT pid FROM pg_stat_activity WHERE datname = $1 AND query = $2`, [database, text])).rows[0]?.pid as number | undefined;
      if (pid !== undefined) return pid;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`${text} never ran`);
  };

  it('answers a Prisma query whose backend is terminated under it with service_unavailable (sites, webhooks)', async () => {
    const sleeping = db.prisma.$queryRawUnsafe('SELECT pg_sleep(5)').then(
      () => null,
      (error: unknown) => error,
    );
    await terminate(await pidRunning('SELECT pg_sleep(5)'));
    expectUnavailable(await sleeping);
    expect(await db.prisma.site.count()).toBe(0);
  });

  it('keeps the process up when a transaction loses its connection between statements, and serves on', async () => {
    let pid = 0;
    const outcome = await db
      .transaction(async (tx) => {
        pid = await pidOf(tx);
        await terminate(pid);
        // Long enough for the socket's end to reach the client while no statement is under way.
        await new Promise((resolve) => setTimeout(resolve, 200));
        await tx.sql(rawStatement(sql`SELECT 1`));
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expectUnavailable(outcome);
    expect(uncaught).toStrictEqual([]);
    const after = await db.transaction(async (tx) => pidOf(tx));
    expect(after).not.toBe(pid);
  });
});
