/**
 * A small load balancer in front of the gateway replicas, as the test's client: round-robin over the replicas it
 * believes ready, a /readyz probe every `probeMs` (a replica answering 503 or not answering gets no new requests),
 * and a retry on another replica when a connection is refused (nothing was sent, so any request may be retried).
 * `retryAnyNetworkError` also retries a request whose connection broke mid-way: only safe for requests that are
 * idempotent (GETs, POSTs carrying an Idempotency-Key), which is what the chaos run sends.
 */

export interface Replica {
  name: string;
  /** Replaced when a replica restarts on a new port; empty while it is down. */
  baseUrl: string;
  ready: boolean;
}

export interface BalancedResponse {
  status: number;
  headers: Headers;
  body: unknown;
  replica: string;
  /** Attempts that failed before this answer (refusals, broken connections). */
  retries: number;
}

export class NoReplicaError extends Error {}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** One of `codes` anywhere in the cause chain of fetch's "fetch failed". */
export function hasErrorCode(error: unknown, codes: readonly string[]): boolean {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (codes.includes((current as { code?: unknown }).code as string)) return true;
    if (current instanceof AggregateError && current.errors.some((inner) => hasErrorCode(inner, codes))) return true;
  }
  return false;
}

/** ECONNREFUSED anywhere in the cause chain of fetch's "fetch failed". */
export const isRefused = (error: unknown): boolean => hasErrorCode(error, ['ECONNREFUSED']);

export class Balancer {
  private next = 0;
  private probing: NodeJS.Timeout | undefined;
  /** Network errors that were not refusals, seen on any attempt. */
  brokenConnections = 0;
  refusals = 0;

  constructor(
    readonly replicas: Replica[],
    private readonly options: { retryAnyNetworkError?: boolean; maxAttempts?: number; probeMs?: number } = {},
  ) {}

  /** Polls /readyz of every replica until `stop()`. */
  startProbing(): void {
    const probeMs = this.options.probeMs ?? 100;
    const probe = async (): Promise<void> => {
      await Promise.all(
        this.replicas.map(async (replica) => {
          if (!replica.baseUrl) return;
          try {
            const response = await fetch(`${replica.baseUrl}/readyz`, { signal: AbortSignal.timeout(1000) });
            await response.arrayBuffer();
            replica.ready = response.status === 200;
          } catch {
            replica.ready = false;
          }
        }),
      );
      if (this.probing) this.probing = setTimeout(() => void probe(), probeMs);
    };
    this.probing = setTimeout(() => void probe(), 0);
  }

  stop(): void {
    clearTimeout(this.probing);
    this.probing = undefined;
  }

  private pick(exclude: string | null): Replica | null {
    const candidates = this.replicas.filter((replica) => replica.ready && replica.baseUrl && replica.name !== exclude);
    const pool = candidates.length ? candidates : this.replicas.filter((replica) => replica.ready && replica.baseUrl);
    if (!pool.length) return null;
    this.next = (this.next + 1) % pool.length;
    return pool[this.next] ?? null;
  }

  /** Sends to one replica chosen by the balancer, retrying on another one as described above. */
  async request(path: string, init: RequestInit = {}, options: { replica?: string } = {}): Promise<BalancedResponse> {
    const maxAttempts = this.options.maxAttempts ?? 100;
    let lastFailed: string | null = null;
    let retries = 0;
    for (let attempt = 0; attempt < maxAttempts; attempt++) {
      const pinned = attempt === 0 && options.replica ? this.replicas.find((r) => r.name === options.replica && r.baseUrl) : undefined;
      const replica: Replica | null = pinned ?? this.pick(lastFailed);
      if (!replica) {
        await sleep(50);
        continue;
      }
      try {
        const response = await fetch(`${replica.baseUrl}${path}`, { ...init, signal: AbortSignal.timeout(30_000) });
        const text = await response.text();
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : null;
        } catch {
          // Not JSON: kept as text for the report.
        }
        return { status: response.status, headers: response.headers, body, replica: replica.name, retries };
      } catch (error) {
        const refused = isRefused(error);
        if (refused) this.refusals++;
        else this.brokenConnections++;
        if (!refused && !this.options.retryAnyNetworkError) throw error;
        // The replica is gone for now; the probe brings it back once it answers /readyz again.
        replica.ready = false;
        lastFailed = replica.name;
        retries++;
        await sleep(Math.min(200, 10 * 2 ** Math.min(attempt, 5)));
      }
    }
    throw new NoReplicaError(`no replica answered ${path} after ${maxAttempts} attempts`);
  }
}
