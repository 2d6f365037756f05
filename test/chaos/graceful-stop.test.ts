import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, hasPostgres, type TestDatabase } from '../support/database.js';
import { startHttpsServer, type ScriptedResponse, type TestHttpsServer } from '../support/https-server.js';
import { hasErrorCode, isRefused } from './balancer.js';
import { Cluster } from './cluster.js';
import { runMixedLoad } from './mixed-load.js';
import { SUBSCRIPTION_PATHS } from './receiver.js';

/**
 * Issue 15 item 11, on real processes: SIGTERM turns /readyz 503 first, the listener stays open SHUTDOWN_DELAY_MS,
 * in-flight requests and jobs finish, the process exits 0; what is still running at SHUTDOWN_TIMEOUT_MS is cut
 * (exit 1) and a cut job is retried elsewhere; a rolling restart under load fails no request.
 *
 * A request is held in flight by a row lock this test takes on the form: ingest's one statement waits on it.
 */

const DELAY_MS = 1_000;
const TIMEOUT_MS = 3_000;

let db: TestDatabase;
let receiver: TestHttpsServer;
let cluster: Cluster;
let locker: pg.Client;

beforeAll(async () => {
  db = await createTestDatabase();
  receiver = await startHttpsServer({ hostnames: ['receiver.test'] });
  cluster = new Cluster({
    databaseUrl: db.url!,
    receiver,
    workers: 1,
    fastRecoverySeconds: 30,
    // The gateway tests' submissions have nobody to tell; the worker tests subscribe when they begin.
    subscribeAtStart: false,
    env: { SHUTDOWN_DELAY_MS: String(DELAY_MS), SHUTDOWN_TIMEOUT_MS: String(TIMEOUT_MS) },
  });
  await cluster.start();
  locker = new pg.Client({ connectionString: db.url! });
  await locker.connect();
}, 120_000);
afterAll(async () => {
  await locker?.end();
  await cluster?.stop();
  await receiver?.close();
  await db?.close();
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntil(probe: () => Promise<boolean> | boolean, timeoutMs: number, label: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}`);
    await sleep(25);
  }
}

/** Holds the form's row lock until the returned function is called; ingest of that form waits meanwhile. */
async function lockForm(): Promise<() => Promise<void>> {
  await locker.query('BEGIN');
  await locker.query('SELECT 1 FROM "Form" WHERE "id" = $1 FOR UPDATE', [cluster.requireSeeded().formId]);
  return async () => {
    await locker.query('COMMIT');
  };
}

const waitingOnLock = async (): Promise<boolean> => {
  const rows = await db.withSession((session) =>
    session.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`),
  );
  return (rows[0]?.n ?? 0) > 0;
};

function ingestOn(baseUrl: string, key: string): Promise<Response> {
  const seeded = cluster.requireSeeded();
  return fetch(`${baseUrl}/v1/forms/${seeded.formId}/submissions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${seeded.loadKey}`, 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify({ formData: { key } }),
  });
}

/**
 * /readyz, asking for the connection to be closed after the answer: 200, 503, 'refused', or 'reset'. A reset before
 * any answer is a probe racing the close, never an answer: a connection still in the listener's accept queue when
 * it closes is reset by the kernel, and so is an idle keep-alive socket the drain closes as the probe is sent on it.
 */
async function readiness(baseUrl: string): Promise<number | 'refused' | 'reset'> {
  let response: Response;
  try {
    response = await fetch(`${baseUrl}/readyz`, { headers: { connection: 'close' } });
  } catch (error) {
    if (isRefused(error)) return 'refused';
    if (hasErrorCode(error, ['ECONNRESET', 'UND_ERR_SOCKET'])) return 'reset';
    throw error;
  }
  // Once a status has arrived, a failure reading the body is an error of the test, not a race.
  await response.arrayBuffer();
  return response.status;
}

describe.runIf(hasPostgres)('SIGTERM to a gateway replica', () => {
  it('turns /readyz 503 first, stops accepting, lets an in-flight request finish, then exits 0', async () => {
    const gateway = cluster.gateways[0]!;
    const release = await lockForm();
    let released = false;
    let signalled = false;
    let restarted = false;
    try {
      const inFlight = ingestOn(gateway.baseUrl, 'graceful-in-flight');
      // Awaited below; if an expectation fails first, its failure is the one to report, not an unhandled rejection.
      inFlight.catch(() => undefined);
      await waitUntil(waitingOnLock, 10_000, 'the ingest to wait on the lock');

      const signalledAt = Date.now();
      gateway.child.kill('SIGTERM');
      signalled = true;
      // Probing starts once the process has taken the signal (its log says so), not before.
      await waitUntil(() => gateway.output().includes('"msg":"stopping"'), 5_000, 'the stopping line');
      const seen: (number | 'refused' | 'reset')[] = [];
      await waitUntil(async () => {
        seen.push(await readiness(gateway.baseUrl));
        return seen.at(-1) === 'refused';
      }, DELAY_MS + 5_000, 'the listener to close');
      const refusedAt = Date.now();
      // Every answer after the signal was 503 until connections were refused: readiness first, never 200 again.
      expect(seen[0]).toBe(503);
      expect([...new Set(seen)].filter((outcome) => outcome !== 503 && outcome !== 'reset')).toEqual(['refused']);
      expect(refusedAt - signalledAt).toBeGreaterThanOrEqual(DELAY_MS - 50);
      expect(gateway.running).toBe(true);

      released = true;
      await release();
      const response = await inFlight;
      expect(response.status).toBe(201);
      expect(response.headers.get('connection')).toBe('close');
      const { id } = (await response.json()) as { id: number };
      const exit = await gateway.exited;
      expect(exit.code).toBe(0);
      expect(exit.at - signalledAt).toBeLessThan(DELAY_MS + TIMEOUT_MS);
      expect(gateway.output()).toContain('"drained":true,"msg":"stopped"');

      await cluster.startGateway(0);
      restarted = true;
      const read = await fetch(`${cluster.gateways[0]!.baseUrl}/v1/submissions/${id}`, { headers: { authorization: `Bearer ${cluster.requireSeeded().loadKey}` } });
      expect(read.status).toBe(200);
    } finally {
      // A failure above must not leave the form locked and the replica down for the tests after this one.
      if (!released) await release();
      if (signalled && !restarted) {
        await gateway.exited;
        await cluster.startGateway(0);
      }
    }
  }, 60_000);

  it('cuts a request still running at SHUTDOWN_TIMEOUT_MS and exits 1 within the bound', async () => {
    const gateway = cluster.gateways[1]!;
    const release = await lockForm();
    try {
      const inFlight = ingestOn(gateway.baseUrl, 'graceful-cut').then(
        (response) => response.status,
        () => 'cut' as const,
      );
      await waitUntil(waitingOnLock, 10_000, 'the ingest to wait on the lock');
      const signalledAt = Date.now();
      gateway.child.kill('SIGTERM');
      const exit = await Promise.race([gateway.exited, sleep(DELAY_MS + TIMEOUT_MS + 4_000).then(() => null)]);
      expect(exit, 'the process outlived its drain bound').not.toBeNull();
      expect(exit?.code).toBe(1);
      expect(exit!.at - signalledAt).toBeGreaterThanOrEqual(DELAY_MS + TIMEOUT_MS - 100);
      expect(await inFlight).toBe('cut');
      expect(gateway.output()).toContain('"drained":false,"msg":"stopped"');
    } finally {
      await release();
    }
    await cluster.startGateway(1);
  }, 60_000);

  it('a rolling restart of one of two replicas under load fails no request', async () => {
    const balancer = cluster.balancer;
    const load = runMixedLoad({ balancer, seeded: cluster.requireSeeded(), concurrency: 6, keyPrefix: 'rolling' });
    await sleep(1_000);
    const gateway = cluster.gateways[0]!;
    gateway.child.kill('SIGTERM');
    const exit = await gateway.exited;
    await cluster.startGateway(0);
    await cluster.waitReady();
    await sleep(1_000);
    const result = await load.stop();
    expect(exit.code).toBe(0);
    expect(result.failures).toEqual([]);
    expect(result.succeeded).toBeGreaterThan(50);
    // Requests did go to the restarted replica's predecessor and successor alike.
    expect(result.byReplica['gateway-1']).toBeGreaterThan(0);
    expect(result.byReplica['gateway-2']).toBeGreaterThan(0);
  }, 90_000);
});

describe.runIf(hasPostgres)('SIGTERM to a worker', () => {
  /** The deliveries of one submission's `submission.created`, one per subscription. */
  const deliveriesOf = (submissionId: number): Promise<{ status: string; attempts: number }[]> =>
    db.withSession((session) =>
      session.query<{ status: string; attempts: number }>(
        `SELECT "status", "attempts" FROM "WebhookDelivery" WHERE "payload"->'data'->>'id' = $1 ORDER BY "id"`,
        [String(submissionId)],
      ),
    );

  /** Delivery jobs not settled yet (created, retry or active): what another worker would still run. */
  const openDeliveryJobs = async (): Promise<number> => {
    const rows = await db.withSession((session) =>
      session.query<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'webhook.deliver' AND state IN ('created', 'retry', 'active')`),
    );
    return rows[0]?.n ?? 0;
  };

  /** Nothing left of earlier tests' events: no outbox row waiting for the relay (relayed ones stay as history), no fan-out or delivery job to run. */
  const quiet = async (): Promise<boolean> => {
    const rows = await db.withSession((session) =>
      session.query<{ n: number }>(`SELECT ((SELECT count(*) FROM "OutboxEvent" WHERE "relayedAt" IS NULL) + (SELECT count(*) FROM pgboss.job
         WHERE name IN ('event.fanout', 'webhook.deliver') AND state IN ('created', 'retry', 'active')))::int AS n`),
    );
    return rows[0]?.n === 0;
  };

  /** Requests the receiver got for one submission's event, per subscription path. */
  const requestsFor = (submissionId: number, path: string) =>
    receiver.requests.filter((request) => request.pathname === path && (JSON.parse(request.body) as { data?: { id?: unknown } }).data?.id === submissionId);

  const waitForRequestsFor = (submissionId: number, perPath: number, timeoutMs: number): Promise<void> =>
    waitUntil(() => SUBSCRIPTION_PATHS.every((path) => requestsFor(submissionId, path).length >= perPath), timeoutMs, `${perPath} request(s) per subscription`);

  /** The first request on each subscription path waits `firstDelayMs`; later ones are answered at once. */
  async function answerFirstSlowly(firstDelayMs: number): Promise<void> {
    await waitUntil(quiet, 60_000, 'earlier events to be fanned out');
    receiver.reset();
    if (cluster.requireSeeded().subscriptions.size === 0) await cluster.subscribe();
    for (const path of SUBSCRIPTION_PATHS) {
      let first = true;
      receiver.handle(path, (): ScriptedResponse => {
        const delayMs = first ? firstDelayMs : 0;
        first = false;
        return { status: 200, delayMs };
      });
    }
  }

  async function ingestOne(key: string): Promise<number> {
    const response = await ingestOn(cluster.gateways[0]!.baseUrl, key);
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: number }).id;
  }

  it('lets the deliveries under way finish and complete their jobs, then exits 0', async () => {
    await answerFirstSlowly(1_500);
    const worker = cluster.workers[0]!;
    const submissionId = await ingestOne('worker-drain');
    await waitForRequestsFor(submissionId, 1, 20_000);
    const signalledAt = Date.now();
    worker.child.kill('SIGTERM');
    const exit = await worker.exited;
    expect(exit.code).toBe(0);
    // It waited for the receiver's answers (1.5 s), and no longer than its bound.
    expect(exit.at - signalledAt).toBeGreaterThanOrEqual(1_000);
    expect(exit.at - signalledAt).toBeLessThan(TIMEOUT_MS + 1_000);
    expect(await deliveriesOf(submissionId)).toEqual(SUBSCRIPTION_PATHS.map(() => ({ status: 'succeeded', attempts: 1 })));
    expect(await openDeliveryJobs()).toBe(0);
    for (const path of SUBSCRIPTION_PATHS) expect(requestsFor(submissionId, path)).toHaveLength(1);
  }, 120_000);

  it('fails a delivery still running at SHUTDOWN_TIMEOUT_MS back to the queue, exits 1; another worker sends it with the same webhook-id', async () => {
    await answerFirstSlowly(8_000);
    const worker = await cluster.startWorker(0);
    const submissionId = await ingestOne('worker-cut');
    await waitForRequestsFor(submissionId, 1, 20_000);
    const signalledAt = Date.now();
    worker.child.kill('SIGTERM');
    const exit = await Promise.race([worker.exited, sleep(TIMEOUT_MS + 4_000).then(() => null)]);
    expect(exit, 'the worker outlived its drain bound').not.toBeNull();
    expect(exit?.code).toBe(1);
    expect(exit!.at - signalledAt).toBeGreaterThanOrEqual(TIMEOUT_MS - 100);

    await cluster.startWorker(1);
    await waitForRequestsFor(submissionId, 2, 30_000);
    await waitUntil(async () => (await deliveriesOf(submissionId)).every((row) => row.status === 'succeeded'), 20_000, 'the deliveries to succeed');
    for (const path of SUBSCRIPTION_PATHS) {
      const ids = requestsFor(submissionId, path).map((request) => request.headers['webhook-id']);
      expect(ids).toHaveLength(2);
      expect(ids[1]).toBe(ids[0]);
    }
  }, 120_000);
});
