import { httpClientAborts, httpRequestDuration, httpRequests, rateLimitRefusals, UNMATCHED_ROUTE } from './infra/metrics.js';

/** The methods a label may carry; anything else (a made-up method) is one fixed value, so labels stay a closed set. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Counts one answered request. `logRoute` is the request log line's route, `METHOD /template` (set by whatever
 * matched the request: the route table, /graphql, the fixed paths), so the label is the template, never the path.
 */
const routeLabel = (logRoute: string | undefined): string => (logRoute ? logRoute.slice(logRoute.indexOf(' ') + 1) : UNMATCHED_ROUTE);

export function recordRequest(method: string, logRoute: string | undefined, status: number, startedMs: number): void {
  const route = routeLabel(logRoute);
  const labelMethod = METHODS.has(method) ? method : 'OTHER';
  httpRequests.inc({ route, method: labelMethod, status });
  httpRequestDuration.observe({ route, method: labelMethod }, (performance.now() - startedMs) / 1000);
  if (status === 429) rateLimitRefusals.inc();
}

/** A client that left first: `request` before its answer existed (also counted as status 499), `response` mid-answer. */
export function recordClientAbort(logRoute: string | undefined, phase: 'request' | 'response'): void {
  httpClientAborts.inc({ route: routeLabel(logRoute), phase });
}
