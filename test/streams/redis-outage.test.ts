import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Cluster } from '../chaos/cluster.js';
import { startRedisServer, type RedisServer } from '../chaos/side-services.js';
import { createTestDatabase, hasPostgres, type TestDatabase } from '../support/database.js';
import { startHttpsServer, type TestHttpsServer } from '../support/https-server.js';
import { SseClient } from './sse-client.js';

/**
 * Event streams while Redis is away (operator guide, "Redis outages"): two gateway processes on this file's own Redis
 * server, which the test kills and starts again. Meanwhile the stream slots are taken in process: a stream still opens
 * and delivers, the cap of 5 per key holds per process (so each replica allows 5), nothing answers 5xx; once Redis is
 * back, the streams opened meanwhile keep delivering and the cap is shared by the replicas again.
 */

let db: TestDatabase;
let redis: RedisServer;
let receiver: TestHttpsServer;
let cluster: Cluster;
const clients: SseClient[] = [];
/** Every answer's status, streams and ingests alike: none may be a 5xx. */
const statuses: number[] = [];

describe.runIf(hasPostgres)('event streams while Redis is down, and after it returns', () => {
  beforeAll(async () => {
    db = await createTestDatabase();
    [redis, receiver] = await Promise.all([startRedisServer(), startHttpsServer({ hostnames: ['receiver.test'] })]);
    cluster = new Cluster(
      { databaseUrl: db.url!, redisUrl: redis.url, receiver, workers: 0, subscribeAtStart: false, env: { SHUTDOWN_DELAY_MS: '0', STREAM_KEEP_ALIVE_MS: '1000' } },
      { probeMs: 100 },
    );
    await cluster.start();
  }, 120_000);
  afterAll(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await cluster?.stop();
    await redis?.stop();
    await receiver?.close();
    await db?.close();
  });
  afterEach(() => {
    expect(statuses.filter((status) => status >= 500)).toStrictEqual([]);
  });

  const base = (index: number): string => cluster.gateways[index]!.baseUrl;
  const key = (): string => cluster.requireSeeded().loadKey;
  async function stream(index: number): Promise<SseClient> {
    const client = await SseClient.open(`${base(index)}/v1/events/stream`, { key: key() });
    statuses.push(client.response.status);
    if (client.response.ok) clients.push(client);
    else await client.response.arrayBuffer();
    return client;
  }
  async function ingest(index: number, value: string): Promise<void> {
    const response = await fetch(`${base(index)}/v1/forms/${cluster.requireSeeded().formId}/submissions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key()}`, 'content-type': 'application/json' },
      body: JSON.stringify({ formData: { key: value } }),
    });
    statuses.push(response.status);
    expect(response.status).toBe(201);
    await response.arrayBuffer();
  }
  const submissionKeys = (client: SseClient): unknown[] => client.events.map((event) => (event.body.data as { formData: Record<string, unknown> }).formData.key);
  const closeAll = (): Promise<void[]> => Promise.all(clients.splice(0).map((client) => client.close()));
  /** Both gateways answer /readyz with `wanted` (degraded: Redis unavailable). */
  async function readiness(wanted: 'degraded' | 'ready'): Promise<void> {
    await vi.waitFor(
      async () => {
        for (const index of [0, 1]) expect(((await (await fetch(`${base(index)}/readyz`)).json()) as { status: string }).status).toBe(wanted);
      },
      { timeout: 15_000, interval: 100 },
    );
  }

  let keptOpen: SseClient;

  it('with Redis down, a stream opens and delivers, and the cap of 5 holds per process', async () => {
    await redis.kill();
    const onB = await stream(1);
    expect(onB.response.status).toBe(200);
    await ingest(0, 'while-down');
    await onB.waitForEvents(1);
    expect(submissionKeys(onB)).toStrictEqual(['while-down']);
    keptOpen = onB;
    clients.splice(clients.indexOf(onB), 1);

    // Counted per process meanwhile: B holds one more slot of the key, A none, so A allows 5 and B 4.
    const onA = await Promise.all([stream(0), stream(0), stream(0), stream(0), stream(0)]);
    expect(onA.map((client) => client.response.status)).toStrictEqual([200, 200, 200, 200, 200]);
    const moreOnB = await Promise.all([stream(1), stream(1), stream(1), stream(1)]);
    expect(moreOnB.map((client) => client.response.status)).toStrictEqual([200, 200, 200, 200]);
    for (const index of [0, 1]) {
      const sixth = await stream(index);
      expect(sixth.response.status).toBe(429);
    }
    await ingest(1, 'across');
    await Promise.all([...onA, ...moreOnB].map((client) => client.waitForEvents(1)));
    for (const client of [...onA, ...moreOnB]) expect(submissionKeys(client)).toStrictEqual(['across']);
    // The fallback was taken (not Redis answering late): each gateway logged the switch once.
    for (const gateway of cluster.gateways) expect(gateway.output()).toContain('redis unavailable: rate limits and stream slots counted per process');
    await readiness('degraded');
    // Slots taken in process are given back there: closing them frees the cap of the process.
    await closeAll();
    await vi.waitFor(async () => expect((await stream(0)).response.status).toBe(200), { timeout: 5_000, interval: 100 });
    await closeAll();
  });

  it('when Redis returns, a stream opened meanwhile keeps delivering and the cap is shared by the replicas again', async () => {
    await redis.start();
    await readiness('ready');
    await ingest(0, 'after');
    await keptOpen.waitForEvents(3);
    expect(submissionKeys(keptOpen)).toStrictEqual(['while-down', 'across', 'after']);
    await keptOpen.close();

    const opened = await Promise.all([stream(0), stream(0), stream(0), stream(1), stream(1)]);
    expect(opened.map((client) => client.response.status)).toStrictEqual([200, 200, 200, 200, 200]);
    for (const index of [0, 1]) expect((await stream(index)).response.status).toBe(429);
    await ingest(1, 'shared');
    await Promise.all(opened.map((client) => client.waitForEvents(1)));
    for (const client of opened) expect(submissionKeys(client)).toStrictEqual(['shared']);
    for (const gateway of cluster.gateways) expect(gateway.output()).toContain('redis available again: rate limits and stream slots shared');
    await closeAll();
  });
});
