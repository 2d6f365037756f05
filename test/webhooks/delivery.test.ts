import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.js';
import { PhiCipher } from '../../src/infra/phi-crypto.js';
import { startWorker, type RunningWorker } from '../../src/worker/start-worker.js';
import { createWebhookDeliveryHandler } from '../../src/worker/jobs/webhook-delivery.job.js';
import { createOutboundFetcher, type OutboundFetcher, type OutboundResult } from '../../src/infra/outbound-fetch.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { startHttpsServer, type TestHttpsServer } from '../support/https-server.js';
import { createAccount, createForm, ingest, subscribe } from './fixtures.js';
import { QUEUE } from '../../src/infra/jobs.js';
import type { Alongside } from '../../src/infra/job-completions.js';
import { randomUUID } from 'node:crypto';
import { webhookDeliveries, webhookDeliveryLatency } from '../../src/infra/metrics.js';
import { fastRetries, recordingSender, testConfig, waitFor, waitForIdleQueue } from './support.js';

let db: TestDatabase;
let receiver: TestHttpsServer;
let config: Config;
let worker: RunningWorker;
const sender = recordingSender();

beforeAll(async () => {
  db = await createTestDatabase();
  receiver = await startHttpsServer();
  config = testConfig({ databaseUrl: db.url, receiver });
  worker = await startWorker({ config, db, retryPolicy: fastRetries(), emailSender: sender, pollingIntervalSeconds: 0.5 });
});
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await db?.close();
});
beforeEach(async () => {
  receiver.reset();
  sender.sent.length = 0;
  await db.truncate();
});

/** This process's webhook series (the worker runs in it): attempts by result, and first-delivery latencies observed. */
async function deliveryMetrics(): Promise<{ succeeded: number; retry: number; failed: number; latency: number }> {
  const counts = Object.fromEntries((await webhookDeliveries.get()).values.map(({ labels, value }) => [String(labels.result), value]));
  const latency = (await webhookDeliveryLatency.get()).values.find((v) => v.metricName === 'webhook_delivery_latency_seconds_count')?.value ?? 0;
  return { succeeded: counts.succeeded ?? 0, retry: counts.retry ?? 0, failed: counts.failed ?? 0, latency };
}

/**
 * Handlers run by hand resolve with the successes their worker writes with their jobs' completions: written here the
 * same way, with completions of jobs that do not exist (they complete nothing).
 */
async function settleByHand(results: (Alongside | void)[]): Promise<void> {
  for (const alongside of results) if (alongside) worker.queue.completions.add({ name: QUEUE.webhookDelivery, id: randomUUID(), retryCount: 0 }, alongside);
  await worker.queue.completions.flush();
}

const deliveryOf = (subscriptionId: number | null) =>
  waitFor(async () => {
    const row = await db.prisma.webhookDelivery.findFirst({ where: { subscriptionId } });
    return row && row.status !== 'pending' ? row : null;
  }, 15_000, 'a settled delivery');

describe('webhook deliveries', () => {
  it('posts the event signed with the subscription secret, which the receiver verifies', async () => {
    // A receiver that takes its time: the recorded latency must cover it.
    receiver.handle('/hook', { status: 204, delayMs: 80 });
    const account = await createAccount(db.prisma);
    const form = await createForm(db.prisma, account.id);
    const sub = await subscribe(db.prisma, account.id, 'https://receiver.test/hook');
    const submission = await ingest(db.prisma, form, { 'Full name': 'Ada', Email: 'ada@example.com' });

    const [request] = await receiver.waitForRequests(1);
    expect(request?.method).toBe('POST');
    expect(request?.headers['content-type']).toBe('application/json');
    const headers = {
      'webhook-id': String(request?.headers['webhook-id']),
      'webhook-timestamp': String(request?.headers['webhook-timestamp']),
      'webhook-signature': String(request?.headers['webhook-signature']),
    };
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    const verified = new Webhook(sub.secret).verify(request?.body ?? '', headers) as Record<string, unknown>;
    expect(Object.keys(verified).sort()).toStrictEqual(['createdAt', 'data', 'id', 'type']);
    expect(verified.type).toBe('submission.created');
    expect(verified.id).toMatch(/^evt_/);
    expect(verified.data).toStrictEqual({ ...submission });
    expect(() => new Webhook(account.webhookSigningSecret).verify(request?.body ?? '', headers)).toThrow();

    const delivery = await deliveryOf(sub.id);
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 1, lastStatusCode: 204, nextAttemptAt: null, messageId: headers['webhook-id'] });
    expect(delivery.deliveredAt).toBeInstanceOf(Date);
    expect(delivery.lastLatencyMs).toBeGreaterThanOrEqual(80);
    expect(delivery.lastLatencyMs).toBeLessThan(15_000);
  });

  it("signs a form webhookUrl delivery with the account's signing secret", async () => {
    receiver.handle('/form-hook', { status: 200 });
    const account = await createAccount(db.prisma);
    const form = await createForm(db.prisma, account.id, { webhookUrl: 'https://hooks.example.test/form-hook' });
    await ingest(db.prisma, form, { 'Full name': 'Ada' });
    const [request] = await receiver.waitForRequests(1);
    expect(request?.host).toBe('hooks.example.test');
    const payload = new Webhook(account.webhookSigningSecret).verify(request?.body ?? '', request?.headers as Record<string, string>);
    expect(payload).toMatchObject({ type: 'submission.created' });
    const delivery = await deliveryOf(null);
    expect(delivery.status).toBe('succeeded');
  });

  it('retries a 500 with the same webhook-id and body, each try signed, then succeeds', async () => {
    let calls = 0;
    receiver.handle('/flaky', () => (++calls === 1 ? { status: 500, body: 'boom' } : { status: 200 }));
    const account = await createAccount(db.prisma);
    const form = await createForm(db.prisma, account.id);
    const sub = await subscribe(db.prisma, account.id, 'https://receiver.test/flaky');
    const before = await deliveryMetrics();
    await ingest(db.prisma, form, { 'Full name': 'Ada' });

    const [first, second] = await receiver.waitForRequests(2, 15_000);
    expect(second?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    expect(second?.body).toBe(first?.body);
    for (const request of [first, second]) {
      expect(() => new Webhook(sub.secret).verify(request?.body ?? '', request?.headers as Record<string, string>)).not.toThrow();
    }
    const delivery = await deliveryOf(sub.id);
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 2, lastStatusCode: 200 });
    await waitForIdleQueue(db, QUEUE.webhookDelivery);
    expect(receiver.requests).toHaveLength(2);
    const after = await deliveryMetrics();
    expect({ succeeded: after.succeeded - before.succeeded, retry: after.retry - before.retry, failed: after.failed - before.failed, latency: after.latency - before.latency }).toStrictEqual({
      succeeded: 1,
      retry: 1,
      failed: 0,
      latency: 1,
    });
  });

  it('deactivates the subscription on 410 and does not retry', async () => {
    receiver.handle('/gone', { status: 410 });
    const account = await createAccount(db.prisma);
    const form = await createForm(db.prisma, account.id);
    const sub = await subscribe(db.prisma, account.id, 'https://receiver.test/gone');
    await ingest(db.prisma, form, { 'Full name': 'Ada' });
    const delivery = await deliveryOf(sub.id);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1, lastStatusCode: 410, nextAttemptAt: null });
    expect((await db.prisma.webhookSubscription.findUniqueOrThrow({ where: { id: sub.id } })).active).toBe(false);
    await waitForIdleQueue(db, QUEUE.webhookDelivery);
    expect(receiver.requests).toHaveLength(1);
    // A deactivated subscription gets no new deliveries.
    await ingest(db.prisma, form, { 'Full name': 'Bob' });
    expect(await db.prisma.webhookDelivery.count()).toBe(1);
  });

  it('marks the delivery failed after 8 tries', async () => {
    receiver.handle('/down', { status: 503 });
    const account = await createAccount(db.prisma);
    const form = await createForm(db.prisma, account.id);
    const sub = await subscribe(db.prisma, account.id, 'https://receiver.test/down');
    const before = await deliveryMetrics();
    await ingest(db.prisma, form, { 'Full name': 'Ada' });
    const delivery = await waitFor(async () => {
      const row = await db.prisma.webhookDelivery.findFirst({ where: { subscriptionId: sub.id } });
      return row?.status === 'failed' ? row : null;
    }, 25_000);
    expect(delivery).toMatchObject({ attempts: 8, lastStatusCode: 503, lastError: 'http_503', nextAttemptAt: null, deliveredAt: null });
    expect(receiver.requests).toHaveLength(8);
    expect(new Set(receiver.requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
    await waitForIdleQueue(db, QUEUE.webhookDelivery);
    const after = await deliveryMetrics();
    expect({ retry: after.retry - before.retry, failed: after.failed - before.failed, latency: after.latency - before.latency }).toStrictEqual({ retry: 7, failed: 1, latency: 0 });
  });

  it('fails a delivery to a refused address at once, with blocked_address and no retry (it is permanent)', async () => {
    const account = await createAccount(db.prisma);
    const form = await createForm(db.prisma, account.id);
    // A hostname that resolves to loopback (no test pin for it) and a literal private address stored before the
    // door checked URLs: both are refused when the delivery is made.
    const byName = await subscribe(db.prisma, account.id, 'https://localhost/hook');
    const literal = await subscribe(db.prisma, account.id, 'https://10.0.0.1/hook');
    await ingest(db.prisma, form, { 'Full name': 'Ada' });
    for (const sub of [byName, literal]) {
      const delivery = await deliveryOf(sub.id);
      expect(delivery).toMatchObject({ status: 'failed', attempts: 1, lastStatusCode: null, lastError: 'blocked_address', nextAttemptAt: null });
    }
    // No retry job is left behind for either.
    expect((await worker.queue.boss.findJobs('webhook.deliver')).filter((job) => job.state === 'created' || job.state === 'retry')).toStrictEqual([]);
    expect(receiver.requests).toHaveLength(0);
  });

  it('reads the deliveries begun together (one fetch) in one statement, each sent and settled on its own', async () => {
    receiver.handle('/together', { status: 204 });
    receiver.handle('/gone', { status: 410 });
    const account = await createAccount(db.prisma);
    const form = await createForm(db.prisma, account.id, { webhookUrl: 'https://hooks.example.test/together' });
    const gone = await subscribe(db.prisma, account.id, 'https://receiver.test/gone');
    // Rows without jobs, so the running worker leaves them to the handler run here by hand.
    const row = (i: number, subscriptionId: number | null) => ({
      accountId: account.id,
      formId: form.id,
      subscriptionId,
      messageId: `msg_together_${i}`,
      eventId: `evt_together_${i}`,
      eventType: 'submission.created',
      payload: { id: `evt_together_${i}`, type: 'submission.created', createdAt: new Date().toISOString(), data: { i } },
    });
    const rows = await Promise.all([0, 1, 2, 3].map((i) => db.prisma.webhookDelivery.create({ data: row(i, i === 3 ? gone.id : null) })));
    const handler = createWebhookDeliveryHandler({ prisma: db.prisma, db, queue: worker.queue, fetcher: createOutboundFetcher(config) });
    db.resetQueryCount();
    await settleByHand(await Promise.all(rows.map((delivery) => handler({ deliveryId: delivery.id }))));
    expect(db.queries.filter((q) => q.includes('FROM "WebhookDelivery" d'))).toHaveLength(1);
    const settled = await db.prisma.webhookDelivery.findMany({ where: { id: { in: rows.map((r) => r.id) } }, orderBy: { messageId: 'asc' } });
    expect(settled.map((d) => [d.status, d.lastStatusCode])).toStrictEqual([
      ['succeeded', 204],
      ['succeeded', 204],
      ['succeeded', 204],
      ['failed', 410],
    ]);
    expect(receiver.requests.map((r) => r.headers['webhook-id']).sort()).toStrictEqual(rows.map((r) => r.messageId).sort());
    // Read as it is now: a job run again after its attempt was recorded sends nothing.
    await handler({ deliveryId: rows[0]!.id });
    expect(receiver.requests).toHaveLength(4);
  });

  it('records the successes ending together in one statement with their jobs\' completions, each under its own guard', async () => {
    const account = await createAccount(db.prisma);
    const form = await createForm(db.prisma, account.id, { webhookUrl: 'https://hooks.example.test/same-turn' });
    const rows = await Promise.all(
      [0, 1, 2].map((i) =>
        db.prisma.webhookDelivery.create({
          data: {
            accountId: account.id,
            formId: form.id,
            messageId: `msg_same_turn_${i}`,
            eventId: `evt_same_turn_${i}`,
            eventType: 'submission.created',
            payload: { id: `evt_same_turn_${i}`, type: 'submission.created', createdAt: new Date().toISOString(), data: { i } },
          },
        }),
      ),
    );
    // A receiver answering every request at once, as responses read in one poll are.
    const at = new Date('2026-11-27T04:05:06.789Z');
    const answers: ((result: OutboundResult) => void)[] = [];
    const fetcher: OutboundFetcher = { fetch: () => new Promise((resolve) => answers.push(resolve)) };
    const handler = createWebhookDeliveryHandler({ prisma: db.prisma, db, queue: worker.queue, fetcher, clock: () => at });
    const running = Promise.all(rows.map((delivery) => handler({ deliveryId: delivery.id })));
    await waitFor(async () => (answers.length === 3 ? true : null), 5_000, 'three requests');
    // Another attempt of the third was recorded meanwhile: its guard (attempts still 0) no longer matches.
    await db.prisma.webhookDelivery.update({ where: { id: rows[2]!.id }, data: { attempts: 1 } });
    db.resetQueryCount();
    const before = await deliveryMetrics();
    for (const answer of answers) answer({ ok: true, status: 202, headers: {}, body: '', latencyMs: 7 });
    const successes = await running;
    // Nothing is written by the handler itself: its worker writes the successes with the completions, and counts
    // them once written (the stale third wrote nothing, so it counts nothing).
    expect(db.queries.filter((q) => q.includes('UPDATE "WebhookDelivery"'))).toHaveLength(0);
    expect((await deliveryMetrics()).succeeded).toBe(before.succeeded);
    await settleByHand(successes);
    expect((await deliveryMetrics()).succeeded).toBe(before.succeeded + 2);
    const writes = db.queries.filter((q) => q.includes('UPDATE "WebhookDelivery"'));
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatch(/UPDATE "pgboss"\."job_common" SET completed_on/);
    const settled = await db.prisma.webhookDelivery.findMany({ where: { id: { in: rows.map((r) => r.id) } }, orderBy: { messageId: 'asc' } });
    expect(settled.map((d) => [d.status, d.attempts, d.lastStatusCode, d.lastLatencyMs, d.lastAttemptAt?.toISOString(), d.deliveredAt?.toISOString()])).toStrictEqual([
      ['succeeded', 1, 202, 7, at.toISOString(), at.toISOString()],
      ['succeeded', 1, 202, 7, at.toISOString(), at.toISOString()],
      ['pending', 1, null, null, undefined, undefined],
    ]);
    expect(settled[0]?.attemptLog).toStrictEqual([{ at: at.toISOString(), statusCode: 202, error: null, durationMs: 7 }]);
  });

  it('sends PHI submissions with ids only, in the webhook body and in both emails', async () => {
    receiver.handle('/phi', { status: 200 });
    const cipher = new PhiCipher(config.secretKey);
    const account = await createAccount(db.prisma);
    const form = await createForm(db.prisma, account.id, { phi: true, webhookUrl: 'https://hooks.example.test/phi', name: 'Oncology intake' });
    await subscribe(db.prisma, account.id, 'https://receiver.test/phi');
    const values = { 'Full name': 'Grace Hopper', Email: 'grace@example.com', Symptoms: 'persistent cough' };
    const submission = await ingest(db.prisma, form, values, { cipher });

    const requests = await receiver.waitForRequests(2);
    for (const request of requests) {
      const body = JSON.parse(request.body) as { data: unknown };
      expect(body.data).toStrictEqual({ id: submission.id, formId: form.id, createdAt: submission.createdAt });
      for (const value of ['Grace', 'grace@example.com', 'cough', 'Symptoms', 'Full name']) expect(request.body).not.toContain(value);
    }
    const emails = await waitFor(async () => (sender.sent.length >= 2 ? sender.sent : null));
    expect(emails.map((e) => e.to).sort()).toStrictEqual(['grace@example.com', 'owner@acme.example']);
    for (const email of emails) {
      const rendered = `${email.subject}\n${email.text}\n${email.html}`;
      for (const value of ['Grace Hopper', 'cough', 'Symptoms', 'Full name', 'Oncology']) expect(rendered).not.toContain(value);
      expect(rendered).toContain(`#${submission.id}`);
    }
    const stored = await db.prisma.webhookDelivery.findMany();
    expect(JSON.stringify(stored)).not.toContain('Grace');
  });
});
