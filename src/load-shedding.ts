import { httpRequestsShed } from './infra/metrics.js';

/** How long after the last refusal /readyz still reports overload (a balancer polling every second sees it). */
const OVERLOADED_FOR_MS = 1_000;

/**
 * Load shedding (issue #38): past `limit` requests being worked on at once (counted until each answer's head is
 * out, so open streams and exports do not count), a request is refused at once with 503 `overloaded` and
 * `Retry-After` instead of queueing behind the others: the admitted ones keep their latency, and the refused ones
 * learn it in microseconds rather than after a timeout. `null`: no limit.
 */
export class LoadShedder {
  private working = 0;
  private lastRefusedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly limit: number | null) {}

  /** True: admitted, and `release()` is owed once the answer's head is out. False: refuse it. */
  admit(): boolean {
    if (this.limit !== null && this.working >= this.limit) {
      this.lastRefusedAt = performance.now();
      httpRequestsShed.inc();
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
}
