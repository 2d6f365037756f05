import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startHttpsServer } from '../support/https-server.js';
import { Cluster } from './cluster.js';
import { runIngestLoad, type LoadResult } from './load.js';
import { receiveWebhooks, SUBSCRIPTION_PATHS, type WebhookReceiver } from './receiver.js';

/**
 * The chaos run shared by test/chaos/chaos.test.ts and `npm run chaos`: two gateways and two workers on one
 * PostgreSQL database and one Redis; ingest load over both gateways; kill -9 of one gateway and one worker in the
 * middle of it, each restarted at once; then every acknowledged submission is read back through the API and
 * every submission's `submission.created` is awaited at the receiver; then a key with a small hourly budget is
 * spent over both gateways.
 */

export interface ChaosOptions {
  databaseUrl: string;
  redisUrl: string;
  /** How long new submissions are started. */
  loadMs: number;
  concurrency?: number;
  /** New submissions per second, at most (default 12). */
  perSecond?: number;
  /** The bound on waiting for the last deliveries after the load. */
  deliveryWaitMs?: number;
  /** See ClusterOptions.fastRecoverySeconds; 0 keeps production's job expiry (allow minutes for deliveries). */
  fastRecoverySeconds?: number;
  log?: (line: string) => void;
}

export interface ChaosReport {
  /** Keys acknowledged (201, or 200 replay) at least once. */
  acknowledged: number;
  /** Acknowledged but not readable through the API. */
  lost: number;
  /** Keys stored more than once, plus acknowledgements of one key naming different submissions. */
  duplicated: number;
  /** Stored submissions × subscriptions without a 2xx-answered, validly signed delivery. */
  undelivered: number;
  /** Keys the client gave up on (never acknowledged: their request died with the gateway, or stayed 409). */
  unacknowledged: number;
  /** Unacknowledged keys that were stored nonetheless (allowed: a later retry would replay them). */
  storedUnacknowledged: number;
  stored: number;
  racedKeys: number;
  statusCounts: Record<string, number>;
  refusals: number;
  brokenConnections: number;
  deliveries: {
    received: number;
    invalidSignatures: number;
    /** (event, subscription) pairs that saw more than one distinct webhook-id. */
    webhookIdConflicts: number;
    /** webhook-ids received more than once (retries after a 503, or after a worker died holding them). */
    retriedWebhookIds: number;
  };
  budget: { limit: number; sent: number; served: number; refused: number; other: number };
  /** Where undelivered events stand (outbox, job states, delivery states), read from the database at the end. */
  pipeline: Record<string, number>;
  /** The last lines each process wrote, kept only when something is undelivered (for the failure message). */
  processTails?: Record<string, string>;
  kills: { what: string; at: number; restartedAt: number }[];
  durationMs: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

interface Listed {
  id: number;
  formData: { key?: unknown };
}

/** Every submission of the form, read page by page through GET /v1/forms/{id}/submissions. */
async function readAllSubmissions(cluster: Cluster): Promise<Listed[]> {
  const seeded = cluster.requireSeeded();
  const all: Listed[] = [];
  for (let page = 1; page <= 1000; page++) {
    const response = await cluster.balancer.request(`/v1/forms/${seeded.formId}/submissions?limit=100&page=${page}`, {
      headers: { authorization: `Bearer ${seeded.loadKey}` },
    });
    if (response.status !== 200) throw new Error(`listing submissions answered ${response.status}: ${JSON.stringify(response.body)}`);
    const body = response.body as { data: Listed[]; pagination: { pages: number } };
    all.push(...body.data);
    if (page >= body.pagination.pages) break;
  }
  return all;
}

function undeliveredPairs(stored: Listed[], receiver: WebhookReceiver): number {
  const delivered = new Set(receiver.received.filter((d) => d.signatureValid && d.status === 200 && d.eventType === 'submission.created').map((d) => `${d.path} ${d.submissionId}`));
  let missing = 0;
  for (const submission of stored) for (const path of SUBSCRIPTION_PATHS) if (!delivered.has(`${path} ${submission.id}`)) missing++;
  return missing;
}

/** Spends the budget key over both gateways at once: 3× its budget, half on each. */
async function spendBudget(cluster: Cluster): Promise<ChaosReport['budget']> {
  const seeded = cluster.requireSeeded();
  const sent = seeded.budgetPerHour * 3;
  const statuses = await Promise.all(
    Array.from({ length: sent }, async (_, i) => {
      const replica = cluster.replicas[i % cluster.replicas.length]?.name;
      const response = await cluster.balancer.request('/v1/forms', { headers: { authorization: `Bearer ${seeded.budgetKey}` } }, replica ? { replica } : {});
      return response.status;
    }),
  );
  return {
    limit: seeded.budgetPerHour,
    sent,
    served: statuses.filter((s) => s !== 429).length,
    refused: statuses.filter((s) => s === 429).length,
    other: statuses.filter((s) => s !== 429 && s !== 200).length,
  };
}

function countDuplicates(load: LoadResult, stored: Listed[]): number {
  const byKey = new Map<string, number>();
  for (const submission of stored) {
    const key = String(submission.formData.key);
    byKey.set(key, (byKey.get(key) ?? 0) + 1);
  }
  let duplicated = [...byKey.values()].filter((n) => n > 1).length;
  duplicated += [...load.attempted.values()].filter((entry) => entry.acknowledgedIds.size > 1).length;
  return duplicated;
}

function webhookStats(receiver: WebhookReceiver): ChaosReport['deliveries'] {
  const idsPerPair = new Map<string, Set<string>>();
  const timesPerId = new Map<string, number>();
  for (const delivery of receiver.received) {
    const pair = `${delivery.path} ${delivery.eventId}`;
    const ids = idsPerPair.get(pair) ?? new Set<string>();
    ids.add(delivery.webhookId);
    idsPerPair.set(pair, ids);
    timesPerId.set(`${delivery.path} ${delivery.webhookId}`, (timesPerId.get(`${delivery.path} ${delivery.webhookId}`) ?? 0) + 1);
  }
  return {
    received: receiver.received.length,
    invalidSignatures: receiver.received.filter((d) => !d.signatureValid).length,
    webhookIdConflicts: [...idsPerPair.values()].filter((ids) => ids.size > 1).length,
    retriedWebhookIds: [...timesPerId.values()].filter((n) => n > 1).length,
  };
}

/** `sessions`: also what every database session of the run is doing (to tell a stuck worker from a slow one). */
async function pipelineState(databaseUrl: string, sessions: boolean): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ what: string; n: number }>(`
      SELECT 'outbox' AS what, count(*)::int AS n FROM "OutboxEvent" WHERE "relayedAt" IS NULL
      UNION ALL SELECT 'delivery.' || status, count(*)::int FROM "WebhookDelivery" GROUP BY status
      UNION ALL SELECT 'job.' || name || '.' || state, count(*)::int FROM pgboss.job WHERE name NOT LIKE '%.dead' GROUP BY name, state
      UNION ALL SELECT 'session.' || coalesce(state, '?') || '.' || coalesce(wait_event_type, '-') || '.' || left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 80), count(*)::int
        FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() GROUP BY 1`);
    return Object.fromEntries(rows.filter((row) => sessions || !row.what.startsWith('session.')).map((row) => [row.what, row.n]));
  } finally {
    await client.end();
  }
}

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const log = options.log ?? (() => undefined);
  const started = Date.now();
  const server = await startHttpsServer({ hostnames: ['receiver.test'] });
  const cluster = new Cluster(
    { databaseUrl: options.databaseUrl, redisUrl: options.redisUrl, receiver: server, fastRecoverySeconds: options.fastRecoverySeconds ?? 15 },
    { retryAnyNetworkError: true, maxAttempts: 200 },
  );
  const receiver = receiveWebhooks(server, () => cluster.requireSeeded().subscriptions);
  const kills: ChaosReport['kills'] = [];
  try {
    await cluster.start();
    log(`cluster up after ${Date.now() - started} ms: ${cluster.replicas.map((r) => r.baseUrl).join(", ")}, receiver on ${server.port}`);
    const seeded = cluster.requireSeeded();
    const loadStarted = Date.now();
    const stopAt = loadStarted + options.loadMs;
    const load = runIngestLoad({
      balancer: cluster.balancer,
      apiKey: seeded.loadKey,
      formId: seeded.formId,
      runId: `chaos-${randomBytes(4).toString('hex')}`,
      concurrency: options.concurrency ?? 4,
      stopAt,
      // A key whose first request died between its claim and its insert stays 409 for 60 s: not worth waiting for.
      giveUpAt: stopAt + 5_000,
      raceEvery: 10,
      perSecond: options.perSecond ?? 12,
    });

    const chaos = (async () => {
      await sleep(options.loadMs * 0.25);
      const gatewayKilledAt = Date.now();
      await cluster.killGateway(0);
      log(`kill -9 gateway-1 at +${gatewayKilledAt - loadStarted} ms`);
      const gatewayBack = cluster.startGateway(0).then(() => Date.now());
      // The worker is killed while the receiver is answering a delivery (bounded wait), so that one is in flight.
      await sleep(options.loadMs * 0.15);
      for (let i = 0; i < 40 && receiver.inFlight === 0; i++) await sleep(50);
      const workerKilledAt = Date.now();
      await cluster.killWorker(0);
      log(`kill -9 worker-1 at +${workerKilledAt - loadStarted} ms (receiver answering ${receiver.inFlight})`);
      const workerBack = cluster.startWorker(0).then(() => Date.now());
      kills.push({ what: 'gateway-1', at: gatewayKilledAt - loadStarted, restartedAt: (await gatewayBack) - loadStarted });
      kills.push({ what: 'worker-1', at: workerKilledAt - loadStarted, restartedAt: (await workerBack) - loadStarted });
      log(`restarted: ${JSON.stringify(kills)}`);
    })();
    const [loadResult] = await Promise.all([load, chaos]);
    log(`load done after ${Date.now() - loadStarted} ms: ${loadResult.attempted.size} keys, ${JSON.stringify(loadResult.statusCounts)}`);
    await cluster.waitReady();

    const budget = await spendBudget(cluster);
    log(`budget: ${JSON.stringify(budget)}`);

    const acknowledgedKeys = [...loadResult.attempted.values()].filter((entry) => entry.acknowledgedIds.size > 0);
    let stored = await readAllSubmissions(cluster);
    const deliveryDeadline = Date.now() + (options.deliveryWaitMs ?? 30_000);
    while (undeliveredPairs(stored, receiver) > 0 && Date.now() < deliveryDeadline) await sleep(250);
    log(`deliveries settled ${Date.now() - loadStarted} ms after the load started (${receiver.received.length} received)`);
    // Read again at the end: nothing may have appeared or vanished meanwhile.
    stored = await readAllSubmissions(cluster);
    const storedIds = new Set(stored.map((submission) => submission.id));
    const storedKeys = new Set(stored.map((submission) => String(submission.formData.key)));
    const lost = acknowledgedKeys.filter((entry) => [...entry.acknowledgedIds].some((id) => !storedIds.has(id))).length;
    const unacknowledged = [...loadResult.attempted.values()].filter((entry) => entry.acknowledgedIds.size === 0);

    return {
      acknowledged: acknowledgedKeys.length,
      lost,
      duplicated: countDuplicates(loadResult, stored) + (stored.length - storedIds.size),
      undelivered: undeliveredPairs(stored, receiver),
      unacknowledged: unacknowledged.length,
      storedUnacknowledged: unacknowledged.filter((entry) => storedKeys.has(entry.key)).length,
      stored: stored.length,
      racedKeys: [...loadResult.attempted.values()].filter((entry) => entry.raced).length,
      statusCounts: loadResult.statusCounts,
      refusals: cluster.balancer.refusals,
      brokenConnections: cluster.balancer.brokenConnections,
      deliveries: webhookStats(receiver),
      budget,
      kills,
      pipeline: await pipelineState(options.databaseUrl, undeliveredPairs(stored, receiver) > 0),
      ...(undeliveredPairs(stored, receiver) > 0 ? { processTails: cluster.tails() } : {}),
      durationMs: Date.now() - started,
    };
  } finally {
    await cluster.stop();
    await server.close();
  }
}

/** The problems a report shows; empty when the run held every promise. */
export function chaosProblems(report: ChaosReport): string[] {
  const problems: string[] = [];
  if (report.acknowledged === 0) problems.push('nothing was acknowledged');
  if (report.lost > 0) problems.push(`${report.lost} acknowledged submissions lost`);
  if (report.duplicated > 0) problems.push(`${report.duplicated} duplicated`);
  if (report.undelivered > 0) problems.push(`${report.undelivered} deliveries missing`);
  if (report.deliveries.invalidSignatures > 0) problems.push(`${report.deliveries.invalidSignatures} invalid signatures`);
  if (report.deliveries.webhookIdConflicts > 0) problems.push(`${report.deliveries.webhookIdConflicts} events with several webhook-ids`);
  if (report.budget.served > report.budget.limit) problems.push(`budget exceeded: ${report.budget.served} served of ${report.budget.limit}`);
  return problems;
}
