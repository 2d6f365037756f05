import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.js';
import { QUEUE } from '../../src/infra/jobs.js';
import { startWorker, type RunningWorker } from '../../src/worker/start-worker.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { startHttpsServer, type TestHttpsServer } from '../support/https-server.js';
import { createAccount, createForm, ingest, subscribe } from './fixtures.js';
import { fastRetries, recordingSender, testConfig, waitFor, waitForIdleQueue } from './support.js';

/**
 * One receiver that does not answer must not hold back another: the worker runs at most `perGroup` deliveries to
 * one endpoint at once, however many slots are free, and the other endpoints' deliveries go out meanwhile.
 */

const LIMITS = { concurrency: 8, perGroup: 2 };

let db: TestDatabase;
let receiver: TestHttpsServer;
let config: Config;
let worker: RunningWorker;

beforeAll(async () => {
  db = await createTestDatabase();
  receiver = await startHttpsServer();
  config = testConfig({ databaseUrl: db.url, receiver, env: { DELIVERY_CONCURRENCY: String(LIMITS.concurrency), DELIVERY_PER_ENDPOINT: String(LIMITS.perGroup) } });
  worker = await startWorker({ config, db, retryPolicy: fastRetries(), emailSender: recordingSender(), pollingIntervalSeconds: 0.5, deliveryTimeoutMs: 60_000 });
});
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await db?.close();
});

describe('a slow receiver', () => {
  it('holds at most its per-endpoint share of the slots; the other receivers are delivered meanwhile', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let slowInFlight = 0;
    let slowMostAtOnce = 0;
    receiver.handle('/slow', async () => {
      slowInFlight++;
      slowMostAtOnce = Math.max(slowMostAtOnce, slowInFlight);
      await released;
      slowInFlight--;
      return { status: 204 };
    });
    receiver.handle('/fast', { status: 204 });
    const account = await createAccount(db.prisma);
    const form = await createForm(db.prisma, account.id);
    const slow = await subscribe(db.prisma, account.id, 'https://receiver.test/slow');

    // A backlog for the slow receiver alone: it takes its share of the slots and keeps it.
    for (let i = 0; i < 10; i++) await ingest(db.prisma, form, { n: i });
    await waitFor(async () => slowInFlight === LIMITS.perGroup, 15_000, 'the slow receiver holding its share');

    // Then events that go to both: the fast receiver gets each of them while the slow one still hangs.
    const fast = await subscribe(db.prisma, account.id, 'https://receiver.test/fast');
    for (let i = 10; i < 15; i++) await ingest(db.prisma, form, { n: i });
    // The receiver records a request before the worker has its answer and writes `succeeded`: wait for the rows.
    const fastSucceeded = () => db.prisma.webhookDelivery.count({ where: { subscriptionId: fast.id, status: 'succeeded' } });
    await waitFor(async () => (await fastSucceeded()) === 5, 15_000, 'the fast deliveries');
    expect(receiver.requests.filter((request) => request.pathname === '/fast')).toHaveLength(5);
    expect(slowInFlight).toBe(LIMITS.perGroup);
    expect(await db.prisma.webhookDelivery.count({ where: { subscriptionId: slow.id, status: 'pending' } })).toBe(15);

    // Released, the slow receiver gets the rest, never more than its share at once.
    release();
    await waitFor(async () => (await db.prisma.webhookDelivery.count({ where: { subscriptionId: slow.id, status: 'succeeded' } })) === 15, 30_000, 'every slow delivery');
    await waitForIdleQueue(db, QUEUE.webhookDelivery);
    expect(slowMostAtOnce).toBe(LIMITS.perGroup);
    const slowRequests = receiver.requests.filter((request) => request.pathname === '/slow');
    expect(new Set(slowRequests.map((request) => request.headers['webhook-id'])).size).toBe(15);
  });
});
