import { httpRequestDuration, httpRequests, rateLimitRefusals, UNMATCHED_ROUTE } from './infra/metrics.js';

/** The methods a label may carry; anything else (a made-up method) is one fixed value, so labels stay a closed set. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Counts one answered request. `logRoute` is the request log line's route, `METHOD /template` (set by whatever
 * matched the request: the route table, /graphql, the fixed paths), so the label is the template, never the path.
 */
export function recordRequest(method: string, logRoute: string | undefined, status: number, startedMs: number): void {
  const route = logRoute ? logRoute.slice(logRoute.indexOf(' ') + 1) : UNMATCHED_ROUTE;
  const labelMethod = METHODS.has(method) ? method : 'OTHER';
  httpRequests.inc({ route, method: labelMethod, status });
  httpRequestDuration.observe({ route, method: labelMethod }, (performance.now() - startedMs) / 1000);
  if (status === 429) rateLimitRefusals.inc();
}
