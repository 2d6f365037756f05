import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { registry } from '../../src/infra/metrics.js';
import { SCOPES } from '../../src/scopes.js';
import { QUEUE } from '../../src/infra/jobs.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { accountFixture, seedAccount } from '../support/seed.js';

const TOKEN = randomBytes(24).toString('base64url');

/** The §7.5 series: every one is declared (HELP/TYPE) on every scrape, with or without samples yet. */
const SERIES = [
  'http_requests_total',
  'http_request_duration_seconds',
  'graphql_operations_total',
  'rate_limit_refusals_total',
  'webhook_deliveries_total',
  'webhook_delivery_latency_seconds',
  'outbox_lag_seconds',
  'job_queue_depth',
  'db_pool_connections',
  // Node's process defaults
  'process_cpu_user_seconds_total',
  'process_resident_memory_bytes',
  'nodejs_eventloop_lag_seconds',
  'nodejs_heap_size_used_bytes',
];

let t: TestApp;
let key: string;
let limitedKey: string;

/** GET /metrics straight through the app (the request helper reads bodies as JSON). */
const getMetrics = (headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }): Promise<Response> =>
  t.app.fetch(new Request('http://gateway.test/metrics', { headers }));

async function scrape(): Promise<string> {
  const response = await getMetrics();
  expect(response.status).toBe(200);
  return response.text();
}

/** The sample lines of a scrape (`name{labels} value`), without comments. */
const samples = (text: string): string[] => text.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
const sample = (text: string, name: string, labels: string): number => {
  const line = samples(text).find((candidate) => candidate.startsWith(`${name}{${labels}}`) || (labels === '' && candidate.startsWith(`${name} `)));
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
};

beforeAll(async () => {
  t = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
  const account = await seedAccount(
    t.db,
    accountFixture({ apiKeys: [{ ref: 'full', scopes: [...SCOPES] }, { ref: 'limited', scopes: [...SCOPES], rateLimitPerHour: 1 }] }),
  );
  key = account.apiKeys.full!.key;
  limitedKey = account.apiKeys.limited!.key;
  // Before the first scrape: pg-boss's first count of a queue is fresh, later ones come from its monitor's cache.
  for (let i = 0; i < 2; i += 1) await t.queue.boss.send(QUEUE.erasureRun, { requestId: 0 });
});

afterAll(async () => {
  await t?.close();
});

describe('GET /metrics', () => {
  it('answers Prometheus text 0.0.4 with every §7.5 series to the bearer of METRICS_TOKEN', async () => {
    const response = await getMetrics();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4');
    const text = await response.text();
    for (const name of SERIES) expect(text).toMatch(new RegExp(`^# TYPE ${name} `, 'm'));
  });

  it('answers 401 invalid_api_key without the token, with another token, or with an API key', async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Bearer ${key}`, TOKEN]) {
      const response = await t.request('GET', '/metrics', { headers: authorization === undefined ? {} : { authorization } });
      expect(response.status).toBe(401);
      expect(response.body).toStrictEqual({ error: 'Unauthorized', code: 'invalid_api_key' });
    }
  });

  it('does not exist (404 not_found) while METRICS_TOKEN is unset', async () => {
    const app = createApp({ ...t.deps, config: { ...t.deps.config, metricsToken: null } });
    const response = await app.fetch(new Request('http://gateway.test/metrics', { headers: { authorization: `Bearer ${TOKEN}` } }));
    expect(response.status).toBe(404);
    expect(await response.json()).toStrictEqual({ error: 'Not found', code: 'not_found' });
  });

  it('counts no request while METRICS_TOKEN is unset: a gateway that serves no series pays nothing for them', async () => {
    const requestsCounted = async (): Promise<number> =>
      (await registry.metrics())
        .split('\n')
        .filter((line) => line.startsWith('http_requests_total{'))
        .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
    const app = createApp({ ...t.deps, config: { ...t.deps.config, metricsToken: null } });
    const before = await requestsCounted();
    for (let i = 0; i < 3; i += 1) expect((await app.fetch(new Request('http://gateway.test/v1/forms', { headers: { authorization: `Bearer ${key}` } }))).status).toBe(200);
    expect(await requestsCounted()).toBe(before);
    // The same requests through the gateway that serves them are counted.
    for (let i = 0; i < 3; i += 1) expect((await t.request('GET', '/v1/forms', { key })).status).toBe(200);
    expect(await requestsCounted()).toBe(before + 3);
  });

  it('is never rate-limited: a key whose budget is spent changes nothing for it', async () => {
    await t.request('GET', '/v1/forms', { key: limitedKey });
    expect((await t.request('GET', '/v1/forms', { key: limitedKey })).status).toBe(429);
    for (let i = 0; i < 5; i += 1) await scrape();
  });
});

describe('request series', () => {
  it('label a request with its route template, method and status, and time it', async () => {
    const before = await scrape();
    const labels = 'route="/v1/forms/{id}",method="GET",status="404"';
    await t.request('GET', '/v1/forms/987654321', { key });
    const after = await scrape();
    expect(sample(after, 'http_requests_total', labels) - sample(before, 'http_requests_total', labels)).toBe(1);
    const timed = (text: string): number => sample(text, 'http_request_duration_seconds_count', 'route="/v1/forms/{id}",method="GET"');
    expect(timed(after) - timed(before)).toBe(1);
  });

  it('count 429 refusals in rate_limit_refusals_total', async () => {
    const before = sample(await scrape(), 'rate_limit_refusals_total', '');
    expect((await t.request('GET', '/v1/forms', { key: limitedKey })).status).toBe(429);
    expect(sample(await scrape(), 'rate_limit_refusals_total', '') - before).toBe(1);
  });

  it('count /graphql operations by type and outcome', async () => {
    const before = await scrape();
    await t.graphql('{ forms { pagination { total } } }', {}, key);
    await t.graphql('{ form(id: 999999) { id } }', {}, key);
    await t.graphql('{ noSuchField }', {}, key);
    const after = await scrape();
    const delta = (labels: string): number => sample(after, 'graphql_operations_total', labels) - sample(before, 'graphql_operations_total', labels);
    expect(delta('type="query",outcome="ok"')).toBe(1);
    expect(delta('type="query",outcome="error"')).toBe(2);
  });

  it('keep a fixed number of series whatever ids, paths and methods 1,000 requests carry', async () => {
    const noise = (): string => randomUUID().replaceAll('-', '');
    const requests = (n: number): Promise<unknown>[] =>
      Array.from({ length: n }, (_, i) => {
        const id = String(1_000_000 + Math.floor(Math.random() * 1e9));
        switch (i % 5) {
          case 0:
            return t.request('GET', `/v1/forms/${id}`, { key });
          case 1:
            return t.request('GET', `/v1/forms/${id}/submissions?page=1&limit=5`, { key });
          case 2:
            return t.request('GET', `/${noise()}/${noise()}@example.com`, { key: `svc_live_${noise()}` });
          case 3:
            return t.request('GET', `/docs/${noise()}`);
          default:
            return t.request('PATCH', `/v1/forms/${id}`, { key, body: { name: noise() } });
        }
      });
    await Promise.all(requests(10));
    const before = await scrape();
    for (let round = 0; round < 20; round += 1) await Promise.all(requests(50));
    const after = await scrape();
    expect(samples(after).length).toBe(samples(before).length);
    // No label value is a path, an id, a key or an address: only templates and fixed words.
    const values = [...after.matchAll(/="([^"]*)"/g)].map((match) => match[1]!);
    for (const value of values) expect(value).not.toMatch(/[0-9]{7,}|@|svc_live_|[0-9a-f]{32}/);
  });
});

describe('scrape-time series', () => {
  it('report the age of the oldest event not yet fanned out as outbox_lag_seconds', async () => {
    const account = await t.db.prisma.account.findFirstOrThrow({ select: { id: true } });
    const form = await t.db.prisma.form.findFirstOrThrow({ select: { id: true } });
    const createdAt = new Date(Date.now() - 120_000);
    const event = await t.db.prisma.outboxEvent.create({
      data: { accountId: account.id, formId: form.id, eventId: `evt_${randomUUID()}`, type: 'submission.created', payload: {}, createdAt },
    });
    try {
      const lag = sample(await scrape(), 'outbox_lag_seconds', '');
      expect(lag).toBeGreaterThanOrEqual(119);
      expect(lag).toBeLessThan(180);
    } finally {
      await t.db.prisma.outboxEvent.delete({ where: { id: event.id } });
    }
    expect(sample(await scrape(), 'outbox_lag_seconds', '')).toBe(0);
  });

  it('report the jobs waiting in each queue as job_queue_depth', async () => {
    const text = await scrape();
    expect(sample(text, 'job_queue_depth', `queue="${QUEUE.erasureRun}"`)).toBe(2);
    for (const queue of Object.values(QUEUE)) expect(text).toContain(`job_queue_depth{queue="${queue}"}`);
  });

  it.runIf(Boolean(process.env.DATABASE_URL))('report the PostgreSQL pool connections by state', async () => {
    const text = await scrape();
    expect(sample(text, 'db_pool_connections', 'state="idle"') + sample(text, 'db_pool_connections', 'state="active"')).toBeGreaterThan(0);
    expect(text).toContain('db_pool_connections{state="waiting"}');
  });
});
