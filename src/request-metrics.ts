import { httpClientAborts, httpRequestDuration, httpRequests, httpStreamFailures, rateLimitRefusals, SHED_ROUTE, UNMATCHED_ROUTE } from './infra/metrics.js';

/** The methods a label may carry; anything else (a made-up method) is one fixed value, so labels stay a closed set. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * `logRoute` is the request log line's route, `METHOD /template` (set by whatever matched the request: the route
 * table, /graphql, the fixed paths), so the label is the template, never the path.
 */
const routeLabel = (logRoute: string | undefined): string => (logRoute ? logRoute.slice(logRoute.indexOf(' ') + 1) : UNMATCHED_ROUTE);

export interface RequestMetrics {
  /** Counts one answered request. */
  request(method: string, logRoute: string | undefined, status: number, startedMs: number): void;
  /** Counts one request refused with 503 `overloaded` before it was routed (route label `shed`). */
  shed(method: string, startedMs: number): void;
  /** A client that left first: `request` before its answer existed (also counted as status 499), `response` mid-answer. */
  clientAbort(logRoute: string | undefined, phase: 'request' | 'response'): void;
  /** A streamed answer the service cut after its first byte because producing it failed. */
  streamFailure(logRoute: string | undefined): void;
}

function count(route: string, method: string, status: number, startedMs: number): void {
  const labelMethod = METHODS.has(method) ? method : 'OTHER';
  httpRequests.inc({ route, method: labelMethod, status });
  httpRequestDuration.observe({ route, method: labelMethod }, (performance.now() - startedMs) / 1000);
}

const recording: RequestMetrics = {
  request(method, logRoute, status, startedMs) {
    count(routeLabel(logRoute), method, status, startedMs);
    if (status === 429) rateLimitRefusals.inc();
  },
  shed(method, startedMs) {
    count(SHED_ROUTE, method, 503, startedMs);
  },
  clientAbort(logRoute, phase) {
    httpClientAborts.inc({ route: routeLabel(logRoute), phase });
  },
  streamFailure(logRoute) {
    httpStreamFailures.inc({ route: routeLabel(logRoute) });
  },
};

const off: RequestMetrics = { request: () => undefined, shed: () => undefined, clientAbort: () => undefined, streamFailure: () => undefined };

/**
 * The per-request series are recorded only by a gateway that serves them (`METRICS_TOKEN` set): one that exposes no
 * /metrics does not pay for counting (and `npm run bench` measures the cost with and without, stage `metrics`).
 */
export const requestMetrics = (served: boolean): RequestMetrics => (served ? recording : off);
