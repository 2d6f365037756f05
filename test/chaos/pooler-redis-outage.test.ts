import pg from 'pg';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, hasPostgres, type TestDatabase } from '../support/database.js';
import { startHttpsServer, type TestHttpsServer } from '../support/https-server.js';
import { Cluster } from './cluster.js';
import { receiveWebhooks, SUBSCRIPTION_PATHS, type WebhookReceiver } from './receiver.js';
import { startPgBouncer, startRedisServer, type PgBouncer, type RedisServer } from './side-services.js';

/**
 * Issue 38: two gateways and a worker as real processes whose DATABASE_URL is Debian's PgBouncer 1.18 in transaction
 * mode (DATABASE_POOLER=transaction; LISTEN and migrations on DIRECT_DATABASE_URL), under a mixed load: lists,
 * ingest with Idempotency-Key, the GraphQL dashboard, webhook deliveries to a local HTTPS receiver. The Redis
 * server (this file's own) is killed a third of the way in and started again a third later.
 */

/** PgBouncer's server connections for the run's database (its default_pool_size). */
const POOL_SIZE = 8;
/** The worker's direct connections: pg-boss's LISTEN and the outbox relay's (operator guide, connection budget). */
const WORKER_DIRECT = 2;
const LOAD_MS = 9_000;
const REDIS_DOWN_AT = 3_000;
const REDIS_UP_AT = 6_000;
const LANES = 4;

const DASHBOARD_QUERY = 'query { forms(limit: 100) { data { id name submissionCount latestSubmissions(limit: 5) { id createdAt } } } }';

interface Answer {
  what: string;
  status: number;
  ms: number;
  /** Milliseconds since the load began, when the request was sent. */
  at: number;
  body: unknown;
}

interface ReadyProbe {
  gateway: string;
  at: number;
  status: number;
  body: unknown;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(hasPostgres)('two gateways and a worker through PgBouncer in transaction mode, Redis killed mid-load', () => {
  let db: TestDatabase;
  let bouncer: PgBouncer;
  let redis: RedisServer;
  let receiverServer: TestHttpsServer;
  let receiver: WebhookReceiver;
  let cluster: Cluster;
  const answers: Answer[] = [];
  const probes: ReadyProbe[] = [];
  let maxServerConnections = 0;
  let longestIdleInTransactionMs = 0;
  let pools: Record<string, string | number>[] = [];
  let idleInTransactionAfter = -1;
  let redisKeysAfter = 0;
  let undelivered: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    const url = db.url!;
    const database = new URL(url).pathname.slice(1);
    [bouncer, redis, receiverServer] = await Promise.all([startPgBouncer(url, { poolSize: POOL_SIZE }), startRedisServer(), startHttpsServer({ hostnames: ['receiver.test'] })]);
    cluster = new Cluster({
      databaseUrl: url,
      redisUrl: redis.url,
      receiver: receiverServer,
      gateways: 2,
      workers: 1,
      env: { DATABASE_URL: bouncer.url, DIRECT_DATABASE_URL: url, DATABASE_POOLER: 'transaction' },
    });
    // Every delivery answered 200 at once: retries are not the point here.
    receiver = receiveWebhooks(receiverServer, () => cluster.requireSeeded().subscriptions, { failEvery: 2 ** 32 });
    await cluster.start();
    const seeded = cluster.requireSeeded();

    // Server connections of the run's database, sampled throughout (this sampler's own excluded).
    const sampler = new pg.Client({ connectionString: url });
    await sampler.connect();
    let sampling = true;
    const sampleLoop = (async () => {
      while (sampling) {
        const { rows } = await sampler.query<{ n: number; idle_tx_ms: number | null }>(
          `SELECT count(*)::int AS n,
                  max(extract(epoch FROM now() - state_change) * 1000) FILTER (WHERE state LIKE 'idle in transaction%')::float AS idle_tx_ms
             FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend' AND pid <> pg_backend_pid()`,
          [database],
        );
        maxServerConnections = Math.max(maxServerConnections, rows[0]?.n ?? 0);
        await sleep(100);
      }
    })();

    const started = Date.now();
    const auth = { authorization: `Bearer ${seeded.loadKey}` };
    const requests: Record<string, (n: number) => [string, RequestInit]> = {
      list: () => ['/v1/forms', { headers: auth }],
      submissions: () => [`/v1/forms/${seeded.formId}/submissions?limit=20`, { headers: auth }],
      ingest: (n) => [
        `/v1/forms/${seeded.formId}/submissions`,
        { method: 'POST', headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': `pooler-${n}` }, body: JSON.stringify({ formData: { key: `pooler-${n}` } }) },
      ],
      dashboard: () => ['/graphql', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ query: DASHBOARD_QUERY }) }],
    };
    const kinds = Object.keys(requests);
    let sequence = 0;
    const lane = async (): Promise<void> => {
      while (Date.now() - started < LOAD_MS) {
        const n = sequence++;
        const what = kinds[n % kinds.length]!;
        const [path, init] = requests[what]!(n);
        const at = Date.now() - started;
        const response = await cluster.balancer.request(path, init);
        answers.push({ what, status: response.status, ms: Date.now() - started - at, at, body: response.body });
      }
    };
    const probing = (async () => {
      while (Date.now() - started < LOAD_MS + 4_000) {
        await Promise.all(
          cluster.gateways.map(async (gateway) => {
            const at = Date.now() - started;
            const response = await fetch(`${gateway.baseUrl}/readyz`);
            probes.push({ gateway: gateway.name, at, status: response.status, body: await response.json() });
          }),
        );
        await sleep(250);
      }
    })();
    const outage = (async () => {
      await sleep(REDIS_DOWN_AT);
      await redis.kill();
      await sleep(REDIS_UP_AT - REDIS_DOWN_AT);
      await redis.start();
    })();
    await Promise.all([...Array.from({ length: LANES }, lane), outage, probing]);

    // Every acknowledged submission reaches both subscriptions.
    const ingested = answers.filter((answer) => answer.what === 'ingest' && answer.status === 201).map((answer) => (answer.body as { id: number }).id);
    const deliveredTo = (path: string, id: number): boolean =>
      receiver.received.some((delivery) => delivery.path === path && delivery.submissionId === id && delivery.signatureValid && delivery.status === 200);
    const pending = (): string[] => ingested.flatMap((id) => SUBSCRIPTION_PATHS.filter((path) => !deliveredTo(path, id)).map((path) => `${path} ${id}`));
    const deadline = Date.now() + 30_000;
    while (pending().length > 0 && Date.now() < deadline) await sleep(200);
    undelivered = pending();

    pools = (await bouncer.pools()).filter((row) => row.database === database);
    sampling = false;
    await sampleLoop;
    const { rows } = await sampler.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND state LIKE 'idle in transaction%' AND now() - state_change > interval '1 second'`,
      [database],
    );
    idleInTransactionAfter = rows[0]?.n ?? -1;
    await sampler.end();
    const client = new Redis(redis.url, { lazyConnect: true });
    await client.connect();
    redisKeysAfter = (await client.keys('rl:*')).length;
    client.disconnect();
  }, 180_000);

  afterAll(async () => {
    await cluster?.stop();
    await Promise.all([bouncer?.stop(), redis?.stop(), receiverServer?.close()]);
    await db?.close();
  });

  it('served the mixed load with no 5xx, every kind of request, through the pooler', () => {
    const failed = answers.filter((answer) => answer.status >= 500);
    expect(failed.map((answer) => `${answer.what} ${answer.status} ${JSON.stringify(answer.body)}`)).toEqual([]);
    for (const what of ['list', 'submissions', 'ingest', 'dashboard']) {
      expect(answers.filter((answer) => answer.what === what && answer.status < 300).length, what).toBeGreaterThan(5);
    }
    expect(answers.every((answer) => answer.status === (answer.what === 'ingest' ? 201 : 200))).toBe(true);
  });

  it('delivered every submission to both subscriptions', () => {
    expect(undelivered).toEqual([]);
  });

  it('kept PostgreSQL connections within the documented budget: the pooler\'s pool plus the worker\'s direct listeners', () => {
    expect(pools.length).toBe(1);
    const server = ['sv_active', 'sv_idle', 'sv_used', 'sv_tested', 'sv_login'].reduce((sum, column) => sum + Number(pools[0]?.[column] ?? 0), 0);
    expect(server).toBeLessThanOrEqual(POOL_SIZE);
    expect(maxServerConnections).toBeGreaterThan(0);
    expect(maxServerConnections).toBeLessThanOrEqual(POOL_SIZE + WORKER_DIRECT);
  });

  it('left no transaction open: none idle in transaction for a second once the load was over, nor for long during it', () => {
    // During the load a relay or fan-out transaction may wait a moment for its process's CPU (two cores, CI).
    expect(longestIdleInTransactionMs).toBeLessThan(5_000);
    expect(idleInTransactionAfter).toBe(0);
  });

  it('answered every request within a second while Redis was down, and /readyz said degraded, then ready again', () => {
    const during = answers.filter((answer) => answer.at >= REDIS_DOWN_AT && answer.at < REDIS_UP_AT);
    expect(during.length).toBeGreaterThan(10);
    expect(Math.max(...during.map((answer) => answer.ms))).toBeLessThan(1_000);
    for (const gateway of cluster.gateways) {
      const own = probes.filter((probe) => probe.gateway === gateway.name);
      expect(own.every((probe) => probe.status === 200)).toBe(true);
      expect(own.some((probe) => probe.at > REDIS_DOWN_AT && JSON.stringify(probe.body) === JSON.stringify({ status: 'degraded', redis: 'unavailable' }))).toBe(true);
      expect(own.filter((probe) => probe.at < REDIS_DOWN_AT || probe.at > REDIS_UP_AT + 2_500).every((probe) => JSON.stringify(probe.body) === JSON.stringify({ status: 'ready' }))).toBe(true);
    }
  });

  it('went back to Redis without a restart, and logged the outage once each way as JSON', () => {
    expect(redisKeysAfter).toBeGreaterThan(0);
    for (const gateway of cluster.gateways) {
      const lines = gateway.output().split('\n').filter((line) => /redis/i.test(line));
      expect(lines.every((line) => line.startsWith('{')), lines.join('\n')).toBe(true);
      const messages = lines.map((line) => (JSON.parse(line) as { msg?: string }).msg);
      expect(messages.filter((msg) => msg?.startsWith('redis unavailable'))).toHaveLength(1);
      expect(messages.filter((msg) => msg?.startsWith('redis available again'))).toHaveLength(1);
    }
  });
});
