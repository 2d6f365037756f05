import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/infra/db.js';
import { QUEUE } from '../../src/infra/jobs.js';
import { startWorker, type RunningWorker } from '../../src/worker/start-worker.js';
import { startSqlCounter, type SqlCounter } from '../../bench/sql-counter.js';
import { kindOf } from '../../bench/stages/statement-kinds.js';
import { createTestDatabase, hasPostgres, type TestDatabase } from '../support/database.js';
import { startHttpsServer, type TestHttpsServer } from '../support/https-server.js';
import { createAccount, createForm, ingest, subscribe } from '../webhooks/fixtures.js';
import { recordingSender, testConfig, waitFor, waitForIdleQueue } from '../webhooks/support.js';

/**
 * Issue 38 item 6: the worker's statements per ingest on the product's set-up (two active subscriptions, the two
 * ingest emails), counted on the wire (bench/sql-counter.ts: every statement the worker's pools and pg-boss send,
 * BEGIN and COMMIT included). Each ingest goes alone, so nothing is shared with another: the most an ingest costs.
 * Statement counts, never times. PostgreSQL only (the proxy speaks its wire protocol).
 *
 * Left out: pg-boss's own timers (maintenance, schedules) and the polls of the other queues, which no ingest causes;
 * the relay's idle polling is turned off here and the queues poll once a minute, so what is counted is what the
 * ingest's NOTIFYs set off.
 */

/** One ingest, alone: what the worker did for it, by kind (bench/stages/statement-kinds.ts). */
type Kinds = Record<string, number>;

describe.runIf(hasPostgres)('worker statements per ingest (2 subscriptions, 2 emails)', () => {
  let db: TestDatabase;
  let workerDb: Database;
  let counter: SqlCounter;
  let receiver: TestHttpsServer;
  let worker: RunningWorker;
  const sender = recordingSender();

  beforeAll(async () => {
    db = await createTestDatabase();
    receiver = await startHttpsServer();
    receiver.handle('/a', { status: 204 });
    receiver.handle('/b', { status: 204 });
    const url = new URL(db.url!);
    counter = await startSqlCounter({ host: url.hostname, port: Number(url.port || 5432) });
    url.hostname = '127.0.0.1';
    url.port = String(counter.port);
    const config = testConfig({ databaseUrl: url.toString(), receiver });
    workerDb = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
    worker = await startWorker({ config, db: workerDb, emailSender: sender, pollingIntervalSeconds: 60, relay: { intervalMs: 600_000 } });
  });
  afterAll(async () => {
    await worker?.stop();
    await workerDb?.close();
    await counter?.close();
    await receiver?.close();
    await db?.close();
  });

  async function ingestAlone(form: Awaited<ReturnType<typeof createForm>>, n: number): Promise<{ kinds: Kinds; jobs: Record<string, number> }> {
    counter.reset();
    const submission = await ingest(db.prisma, form, { 'Full name': `Ada ${n}`, Email: `ada${n}@example.com` });
    await waitFor(async () => (await db.prisma.webhookDelivery.count({ where: { status: 'succeeded' } })) === 2 * (n + 1), 15_000, 'two deliveries');
    await waitFor(async () => sender.sent.filter((email) => email.messageId.includes(`submission-${submission.id}-`)).length === 2, 15_000, 'two emails');
    await waitForIdleQueue(db, QUEUE.webhookDelivery);
    await waitForIdleQueue(db, QUEUE.emailSend);
    const kinds: Kinds = {};
    for (const [text, count] of counter.texts(Infinity)) kinds[kindOf(text)] = (kinds[kindOf(text)] ?? 0) + count;
    // Read beside the proxy, so not counted: the jobs the ingest caused, by queue.
    const rows = await db.prisma.$queryRaw<{ name: string; jobs: number }[]>`
      SELECT name, count(*)::int AS jobs FROM pgboss.job
      WHERE (name = 'email.send' AND data->'items' @> ${JSON.stringify([{ submissionId: submission.id }])}::jsonb)
         OR (name = 'webhook.deliver' AND (data->>'deliveryId')::int IN (SELECT id FROM "WebhookDelivery" WHERE "payload"->'data'->>'id' = ${String(submission.id)}))
      GROUP BY name`;
    return { kinds, jobs: Object.fromEntries(rows.map((row) => [row.name, row.jobs])) };
  }

  it('costs a bounded number of statements per ingest, each kind at most what its batch needs', async () => {
    const account = await createAccount(db.prisma);
    const form = await createForm(db.prisma, account.id);
    await subscribe(db.prisma, account.id, 'https://receiver.test/a');
    await subscribe(db.prisma, account.id, 'https://receiver.test/b');
    // The first ingest after start-up is not counted: the relay's LISTEN may not be registered yet.
    await ingestAlone(form, 0);
    for (let n = 1; n < 4; n++) {
      const { kinds, jobs } = await ingestAlone(form, n);
      // A job per delivery, and ONE for both emails of the submission (of every submission of the relay's pass): each
      // job is an insert, a fetched row and a completed row.
      expect(jobs).toStrictEqual({ 'webhook.deliver': 2, 'email.send': 1 });
      const { 'queue: other (polls of other queues, maintenance)': _timers, other: _unrelated, ...counted } = kinds;
      const total = Object.values(counted).reduce((sum, count) => sum + count, 0);
      // The relay's pass: its transaction, the events taken with their targets, the deliveries, the two queues' jobs.
      expect(kinds['transaction control'], JSON.stringify(kinds)).toBe(2);
      expect(kinds['relay: take events']).toBe(1);
      expect(kinds['fan-out: targets, deliveries']).toBe(1);
      expect(kinds['queue: insert jobs']).toBe(2);
      // The deliveries and the emails: one fetch and one read each for both. The successes are written with the
      // completions, and the completions of both queues together (src/infra/job-completions.ts): one statement, or
      // more when an answer comes later than the gathering; never a statement of its own for a delivery's success.
      expect(kinds['queue webhook.deliver: fetch']).toBe(1);
      expect(kinds['queue email.send: fetch']).toBe(1);
      expect(kinds['delivery: read, record'], JSON.stringify(kinds)).toBe(1);
      expect(kinds['email: read']).toBe(1);
      expect(kinds['queue: complete jobs']).toBeGreaterThanOrEqual(1);
      expect(kinds['queue: complete jobs']).toBeLessThanOrEqual(3);
      expect(total, JSON.stringify(kinds)).toBeLessThanOrEqual(14);
    }
  });
});
