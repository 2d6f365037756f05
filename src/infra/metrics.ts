import { createHash, timingSafeEqual } from 'node:crypto';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type pg from 'pg';
import { AppError } from '../errors.js';
import { errorKind, logger } from './log.js';

/**
 * The one Prometheus registry of a process (decisions §7.5), served by the gateway at `GET /metrics` and by a
 * worker on WORKER_METRICS_PORT. Every series of the service is declared here or registered on `registry`.
 *
 * Label values come from closed sets only (route templates, methods, statuses, outcomes, queue names, pool
 * states): never an id, a key, an email address or a URL, so the number of series does not grow with traffic.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });

/** What §7.5 names: exactly this, not prom-client's default (which adds `; charset=utf-8`). */
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4';

/** The route label of a request no route matched (any raw path would be a label per path). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The route label of a request refused with 503 `overloaded` before it was routed: a refusal must cost far less than
 * serving (load-shedding.ts), so its path is never matched against the routes.
 */
export const SHED_ROUTE = 'shed';

/**
 * The status label (and the request log line's status) of a request whose client went away before its answer
 * existed, as nginx logs it: not the service's failure, so never counted as a 5xx.
 */
export const CLIENT_CLOSED_STATUS = 499;

/** A series on `registry`: its name, what it counts (`help`), and its label names (closed sets only, see above). */
const counter = <L extends string = never>(name: string, help: string, labelNames: readonly L[] = []) => new Counter<L>({ name, help, labelNames, registers: [registry] });
const gauge = <L extends string = never>(name: string, help: string, labelNames: readonly L[] = []) => new Gauge<L>({ name, help, labelNames, registers: [registry] });
const histogram = <L extends string = never>(name: string, help: string, labelNames: readonly L[], buckets: number[]) =>
  new Histogram<L>({ name, help, labelNames, buckets, registers: [registry] });

export const httpRequests = counter('http_requests_total', 'HTTP requests answered, by route template, method and status (499: the client closed the connection first).', ['route', 'method', 'status']);

export const httpRequestDuration = histogram('http_request_duration_seconds', 'Time from a request arriving to its response head (streamed bodies: to the first byte), by route template and method.', ['route', 'method'], [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]);

export const httpClientAborts = counter('http_client_aborts_total', 'Requests whose client closed the connection first, by route template and phase: request (before the answer existed; counted with status 499) or response (mid-answer).', ['route', 'phase']);

export const httpStreamFailures = counter('http_stream_failures_total', 'Streamed answers (exports) cut by a failure of the service after their first byte, by route template: their status (200) was already sent, so http_requests_total cannot count them as errors.', ['route']);

export const httpRequestsShed = counter('http_requests_shed_total', 'Requests refused with 503 overloaded: MAX_CONCURRENT_REQUESTS were being worked on and MAX_QUEUED_REQUESTS waiting, or one waited 1 s in vain (also in http_requests_total, status 503).');

export const graphqlOperations = counter('graphql_operations_total', 'GraphQL operations executed on /graphql, by type (query, mutation, subscription) and outcome (ok, error).', ['type', 'outcome']);

export const rateLimitRefusals = counter('rate_limit_refusals_total', 'Requests refused with 429 rate_limited (the hourly budget or a per-field limit).');

export const webhookDeliveries = counter('webhook_deliveries_total', 'Webhook delivery attempts by result: succeeded, failed (no more tries), retry (another try scheduled).', ['result']);

export const webhookDeliveryLatency = histogram('webhook_delivery_latency_seconds', 'Time from an event being written to its first successful delivery (automatic deliveries; not redeliveries).', [], [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 3600, 21600]);

export const eventStreamsOpen = gauge('event_streams_open', 'Live event streams open on this replica (GET /v1/events/stream and GraphQL subscriptions together).');

export const eventStreamEventsSent = counter('event_stream_events_sent_total', 'Events sent on this replica\'s live event streams.');

/** Where the scrape-time series read from: set once per process by its entry point (or a test's app). */
export interface ScrapeSources {
  /** The age in seconds of the oldest event not yet fanned out, or 0 when none waits. */
  outboxLagSeconds(): Promise<number>;
  /** Jobs waiting per queue name. */
  queueDepths(): Promise<Record<string, number>>;
}

let sources: ScrapeSources | null = null;
const pools = new Map<string, pg.Pool>();

export function setScrapeSources(next: ScrapeSources): void {
  sources = next;
}

/** A PostgreSQL pool whose connections `db_pool_connections` reports (name: a fixed word, e.g. `main`). */
export function trackPool(name: string, pool: pg.Pool): void {
  pools.set(name, pool);
}

/** A failing scrape source leaves its series out of this scrape rather than failing the whole scrape. */
async function read<T>(what: string, fn: () => Promise<T>): Promise<T | null> {
  try {
    return await fn();
  } catch (error) {
    logger.warn({ series: what, error: errorKind(error) }, 'metrics: scrape source failed');
    return null;
  }
}

// Registered before the gauges that query the database: prom-client starts every collect in registration order, and
// a scrape's own outbox-lag statement queued for a connection showed as `waiting` 1 on an idle process.
new Gauge({
  name: 'db_pool_connections',
  help: 'PostgreSQL pool connections of this process by state: active (checked out), idle, waiting (callers queued for one).',
  labelNames: ['state'] as const,
  registers: [registry],
  collect() {
    this.reset();
    if (pools.size === 0) return;
    let total = 0;
    let idle = 0;
    let waiting = 0;
    for (const pool of pools.values()) {
      total += pool.totalCount;
      idle += pool.idleCount;
      waiting += pool.waitingCount;
    }
    this.set({ state: 'active' }, total - idle);
    this.set({ state: 'idle' }, idle);
    this.set({ state: 'waiting' }, waiting);
  },
});

new Gauge({
  name: 'outbox_lag_seconds',
  help: 'Age of the oldest event not yet fanned out to deliveries and emails (0: the outbox is empty).',
  registers: [registry],
  async collect() {
    this.reset();
    const lag = sources && (await read('outbox_lag_seconds', () => sources!.outboxLagSeconds()));
    if (lag !== null) this.set(lag);
  },
});

new Gauge({
  name: 'job_queue_depth',
  help: 'Jobs waiting in each job queue (pg-boss counts, refreshed by its monitor every ~30 s).',
  labelNames: ['queue'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    const depths = sources && (await read('job_queue_depth', () => sources!.queueDepths()));
    for (const [queue, depth] of Object.entries(depths ?? {})) this.set({ queue }, depth);
  },
});


const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

export interface MetricsAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const refusal = (error: AppError): MetricsAnswer => ({
  status: error.status,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: JSON.stringify(error.toBody()),
});

/**
 * The answer to `GET /metrics` for either process: 404 while METRICS_TOKEN is unset (the endpoint does not exist),
 * 401 without `Authorization: Bearer <METRICS_TOKEN>` (compared in constant time, through digests of equal length).
 */
export async function metricsAnswer(authorization: string | null, token: string | null): Promise<MetricsAnswer> {
  if (token === null) return refusal(new AppError('not_found'));
  const presented = authorization?.startsWith('Bearer ') ? authorization.slice('Bearer '.length) : '';
  if (!timingSafeEqual(digest(presented), digest(token))) return refusal(new AppError('invalid_api_key'));
  return { status: 200, headers: { 'content-type': METRICS_CONTENT_TYPE, 'cache-control': 'no-store' }, body: await registry.metrics() };
}
