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

/** The longest a request waits for a place before it is refused after all: a burst's wait, not an overload's. */
export const QUEUE_WAIT_MS = 1_000;

/**
 * Load shedding (issue #38): up to `limit` requests are worked on at once (counted until each answer's head is out,
 * so open streams and exports do not count), up to `queueLimit` more wait for a place in arrival order (at most
 * QUEUE_WAIT_MS), and past that a request is refused at once with 503 `overloaded` and `Retry-After` instead of
 * queueing behind the others: the admitted ones keep their latency, and the refused ones learn it in microseconds
 * rather than after a timeout. The queue is for a burst (a client's 40 requests at once on an idle replica, served
 * without a refusal), not for an overload: once a request was refused (the queue was full), nothing more waits until
 * a second without refusals, so a lasting overload is refused at the limit and adds no waiting to the admitted (at 3 x
 * saturation, a queue of 32 kept full took their p99 from 1.3-1.7 x to 2.4-2.5 x saturation's, bench stage
 * overload). `limit` null: no limit.
 *
 * Two doors, one count: the HTTP server asks `refusesAtDoor` before it builds anything for a request (a refusal there
 * costs the parse and one canned write, so that refusing 2 × the capacity leaves the capacity to the admitted
 * requests), and the app admits what gets through (and refuses itself what arrives some other way, or slips past the
 * first door while the last free places fill).
 */
export class LoadShedder {
  private working = 0;
  private readonly waiting: ((admitted: boolean) => void)[] = [];
  private lastRefusedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly limit: number | null,
    private readonly queueLimit = 0,
  ) {}

  /** True when a request would be refused now; counts the refusal (the caller answers it). */
  refusesAtDoor(url: string): boolean {
    if (this.limit === null || this.working < this.limit || this.queueOpen || isUnshed(url)) return false;
    this.refused();
    return true;
  }

  /**
   * True: admitted at once; a promise: it waits in the queue, then true (admitted) or false (refuse it); false: refuse
   * it. Once admitted, `release()` is owed when the answer's head is out.
   */
  admit(): boolean | Promise<boolean> {
    if (this.limit === null || this.working < this.limit) {
      this.working += 1;
      return true;
    }
    if (!this.queueOpen) {
      this.refused();
      return false;
    }
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(hand), 1);
        this.refused();
        resolve(false);
      }, QUEUE_WAIT_MS);
      const hand = (admitted: boolean): void => {
        clearTimeout(timer);
        resolve(admitted);
      };
      this.waiting.push(hand);
    });
  }

  /** Room in the queue, and no overload going on. */
  private get queueOpen(): boolean {
    return this.waiting.length < this.queueLimit && !this.overloaded;
  }

  /** A place freed: it goes to the request that has waited longest, if any. */
  release(): void {
    const next = this.waiting.shift();
    if (next) next(true);
    else this.working -= 1;
  }

  /** Requests were refused within the last second: /readyz says so, so that a balancer moves traffic elsewhere. */
  get overloaded(): boolean {
    return performance.now() - this.lastRefusedAt < OVERLOADED_FOR_MS;
  }

  private refused(): void {
    const now = performance.now();
    // One line when an overload begins (not one per refusal: that would be thousands a second); the counter has the rest.
    if (now - this.lastRefusedAt >= OVERLOADED_FOR_MS) logger.warn({ limit: this.limit, queue: this.queueLimit }, 'overloaded: refusing requests past MAX_CONCURRENT_REQUESTS and MAX_QUEUED_REQUESTS');
    this.lastRefusedAt = now;
    httpRequestsShed.inc();
  }
}
