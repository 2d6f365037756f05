import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rawStatement, sql } from '../../src/infra/sql.js';
import { createErasureRequest } from '../../src/domain/submissions/erasure-requests.service.js';
import { startJobQueue, type JobQueue } from '../../src/infra/jobs.js';
import { createTestDatabase, hasPostgres, type TestDatabase } from '../support/database.js';
import { testConfig } from '../support/app.js';
import { seedAccount } from '../support/seed.js';
import { waitFor } from '../webhooks/support.js';

/**
 * The erasure job survives `kill -9` of its worker process mid-run: the retried job resumes from the request's
 * committed cursor, so the final count and data are exact (nothing erased twice, nothing skipped).
 */

const TOTAL = 3000;
const MATCHING = 1000;

let db: TestDatabase;
let queue: JobQueue;
const secretKey = randomBytes(32);
const children: ChildProcess[] = [];

beforeAll(async () => {
  if (!hasPostgres) return;
  db = await createTestDatabase();
  // This process supervises the queue every second, so a dead worker's heartbeat lapse is noticed at once.
  queue = await startJobQueue({ db, databaseUrl: db.url, schedule: false, superviseIntervalSeconds: 1 });
});
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});
afterAll(async () => {
  await queue?.stop({ graceful: false });
  await db?.close();
});

/** `npm run worker` as a real process, erasing 10 submissions per batch so that a run lasts long enough to be killed. */
function spawnWorker(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/worker/main.ts'], {
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: db.url ?? '', SECRET_KEY: secretKey.toString('base64'), NODE_ENV: 'test', ERASURE_BATCH_SIZE: '10' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`worker did not start: ${output}`)), 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('worker started')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited with ${code}: ${output}`));
    });
  });
}

const progress = (id: number) => db.prisma.erasureRequest.findUniqueOrThrow({ where: { id } });

describe.runIf(hasPostgres)('an erasure request whose worker process is killed mid-run (PostgreSQL)', () => {
  it('resumes after kill -9 and ends with the exact count, rows, counters and one audit row each', async () => {
    const account = await seedAccount(db);
    const formId = Object.values(account.forms)[0]!.id;
    // Every third submission holds the address, in varying case and spacing.
    await db.sql(rawStatement(sql`
      INSERT INTO "Submission" ("accountId", "formId", "formData")
      SELECT ${account.id}, ${formId}, jsonb_build_object('Name', 'n' || g,
               'Email', CASE WHEN g % 3 = 0 THEN (CASE WHEN g % 2 = 0 THEN ' Ada@Example.com' ELSE 'ada@example.com' END) ELSE 'p' || g || '@example.com' END)
      FROM generate_series(1, ${TOTAL}) g`));
    await db.sql(rawStatement(sql`UPDATE "Form" SET "submissionCount" = ${TOTAL} WHERE "id" = ${formId}`));

    const config = testConfig({ SECRET_KEY: secretKey.toString('base64') });
    const request = await createErasureRequest({ db, queue, config }, { accountId: account.id, apiKeyId: account.apiKeys.full!.id }, 'ada@example.com');

    const first = await spawnWorker();
    await waitFor(async () => (await progress(request.id)).submissionsErased >= 50, 60_000, 'the first worker to erase some');
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    const atKill = await progress(request.id);
    expect(atKill.status).toBe('running');
    expect(atKill.submissionsErased).toBeLessThan(MATCHING);
    // What was committed is consistent: the erasures and the progress went together.
    const [left] = await db.sql(rawStatement(sql<{ n: number }>`SELECT count(*)::int AS n FROM "Submission" WHERE lower(btrim("formData"->>'Email')) = 'ada@example.com'`));
    expect(left?.n).toBe(MATCHING - atKill.submissionsErased);

    await spawnWorker();
    const done = await waitFor(async () => {
      const row = await progress(request.id);
      return row.status === 'done' ? row : null;
    }, 90_000, 'the erasure to finish after the restart');

    expect(done.submissionsErased).toBe(MATCHING);
    expect(done.completedAt).not.toBeNull();
    const [rows] = await db.sql(rawStatement(sql<{ total: number; matching: number }>`
      SELECT count(*)::int AS total, count(*) FILTER (WHERE lower(btrim("formData"->>'Email')) = 'ada@example.com')::int AS matching FROM "Submission"`));
    expect(rows).toStrictEqual({ total: TOTAL - MATCHING, matching: 0 });
    expect((await db.prisma.form.findUniqueOrThrow({ where: { id: formId } })).submissionCount).toBe(TOTAL - MATCHING);
    const [audit] = await db.sql(rawStatement(sql<{ n: number; distinctIds: number }>`
      SELECT count(*)::int AS n, count(DISTINCT "resourceId")::int AS "distinctIds" FROM "AuditEvent" WHERE "action" = 'submission.erased'`));
    expect(audit).toStrictEqual({ n: MATCHING, distinctIds: MATCHING });
  }, 180_000);
});
