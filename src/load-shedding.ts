import { AppError } from './errors.js';
import { logger } from './infra/log.js';
import { httpRequestsShed } from './infra/metrics.js';

/** How long after the last refusal /readyz still reports overload (a balancer polling every second sees it). */
const OVERLOADED_FOR_MS = 1_000;

/** Retry-After 1: a shed request finds room a second later unless the overload lasts (then a balancer moves it). */
export const OVERLOADED = new AppError('overloaded', { retryAfter: 1 }, { headers: { 'Retry-After': '1' } });

/** Never shed: an orchestrator's probes and the scraper must see an overloaded replica as it is. */
const UNSHED = new Set(['/healthz', '/readyz', '/metrics']);

/** The path of a request target or absolute URL without parsing it whole: this runs per request. */
export function isUnshed(url: string): boolean {
  const scheme = url.indexOf('//');
  const start = url.startsWith('/') ? 0 : url.indexOf('/', scheme + 2);
  const end = url.indexOf('?', start);
  return start !== -1 && UNSHED.has(end === -1 ? url.slice(start) : url.slice(start, end));
}

/**
 * Load shedding (issue #38): past `limit` requests being worked on at once (counted until each answer's head is
 * out, so open streams and exports do not count), a request is refused at once with 503 `overloaded` and
 * `Retry-After` instead of queueing behind the others: the admitted ones keep their latency, and the refused ones
 * learn it in microseconds rather than after a timeout. `null`: no limit.
 *
 * Two doors, one count: the HTTP server asks `full` before it builds anything for a request (a refusal there costs
 * the parse and one canned write, so that refusing 2 × the capacity leaves the capacity to the admitted requests),
 * and the app admits what gets through (and refuses itself what arrives some other way, or slips past the first
 * door while the last free places fill).
 */
export class LoadShedder {
  private working = 0;
  private lastRefusedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly limit: number | null) {}

  /** True when a request would be refused now; counts the refusal (the caller answers it). */
  refusesAtDoor(url: string): boolean {
    if (this.limit === null || this.working < this.limit || isUnshed(url)) return false;
    this.refused();
    return true;
  }

  /** True: admitted, and `release()` is owed once the answer's head is out. False: refuse it. */
  admit(): boolean {
    if (this.limit !== null && this.working >= this.limit) {
      this.refused();
      return false;
    }
    this.working += 1;
    return true;
  }

  release(): void {
    this.working -= 1;
  }

  /** Requests were refused within the last second: /readyz says so, so that a balancer moves traffic elsewhere. */
  get overloaded(): boolean {
    return performance.now() - this.lastRefusedAt < OVERLOADED_FOR_MS;
  }

  private refused(): void {
    const now = performance.now();
    // One line when an overload begins (not one per refusal: that would be thousands a second); the counter has the rest.
    if (now - this.lastRefusedAt >= OVERLOADED_FOR_MS) logger.warn({ limit: this.limit }, 'overloaded: refusing requests past MAX_CONCURRENT_REQUESTS');
    this.lastRefusedAt = now;
    httpRequestsShed.inc();
  }
}
