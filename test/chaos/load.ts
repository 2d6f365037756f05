import type { Balancer, BalancedResponse } from './balancer.js';

/**
 * Ingest load as a careful client sends it: each submission has its own Idempotency-Key and is retried with that
 * key (on whichever replica) until it is acknowledged, 201 or 200 replay, or `giveUpAt`. Some keys are sent to
 * both replicas at the same instant. Every answer is recorded, so the report can say what the client saw.
 */

export interface Attempted {
  key: string;
  /** The submission id every acknowledgement of this key named (more than one would be a bug). */
  acknowledgedIds: Set<number>;
  statuses: number[];
  /** Sent to both replicas at once. */
  raced: boolean;
}

export interface LoadResult {
  attempted: Map<string, Attempted>;
  statusCounts: Record<string, number>;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function submissionIdOf(response: BalancedResponse): number | null {
  const id = (response.body as { id?: unknown } | null)?.id;
  return typeof id === 'number' ? id : null;
}

export interface LoadOptions {
  balancer: Balancer;
  apiKey: string;
  formId: number;
  /** Unique per run: keys and form values carry it. */
  runId: string;
  concurrency: number;
  /** New submissions are started until this time (epoch ms)… */
  stopAt: number;
  /** …and retried until this one. */
  giveUpAt: number;
  /** One submission in `raceEvery` is sent to both replicas at once. */
  raceEvery: number;
  /** New submissions per second over all lanes, at most: the run's size stays the same on a fast or a busy machine. */
  perSecond: number;
}

export async function runIngestLoad(options: LoadOptions): Promise<LoadResult> {
  const attempted = new Map<string, Attempted>();
  const statusCounts: Record<string, number> = {};
  const count = (label: string): void => {
    statusCounts[label] = (statusCounts[label] ?? 0) + 1;
  };
  let sequence = 0;

  /** One request; resolves with the status (0: no replica answered at all). */
  const send = async (entry: Attempted, replica?: string): Promise<number> => {
    try {
      const response = await options.balancer.request(
        `/v1/forms/${options.formId}/submissions`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json', 'idempotency-key': entry.key },
          body: JSON.stringify({ formData: { key: entry.key } }),
        },
        replica ? { replica } : {},
      );
      entry.statuses.push(response.status);
      count(String(response.status));
      const id = submissionIdOf(response);
      if ((response.status === 201 || response.status === 200) && id !== null) entry.acknowledgedIds.add(id);
      return response.status;
    } catch {
      count('no_replica');
      return 0;
    }
  };
  const acknowledged = (status: number): boolean => status === 201 || status === 200;
  // 409: the key's first request is still running (or died holding its claim: free again after 60 s); 5xx and
  // no replica: the cluster is in trouble for a moment. Both are worth asking again; any other 4xx is final.
  const retryable = (status: number): boolean => status === 409 || status === 0 || status >= 500;

  const submit = async (entry: Attempted): Promise<void> => {
    // A raced key is sent to both replicas at the same instant: one creates, the other answers 409 or replays,
    // and is asked again until it replays too, so that both sides' acknowledgements can be compared.
    const first = entry.raced ? await Promise.all(options.balancer.replicas.map((replica) => send(entry, replica.name))) : [await send(entry)];
    let pending = first.filter((status) => !acknowledged(status));
    while (pending.length > 0 && pending.every(retryable) && Date.now() < options.giveUpAt) {
      await sleep(pending.includes(409) ? 1000 : 200);
      const status = await send(entry);
      pending = acknowledged(status) ? pending.slice(1) : [status];
    }
  };

  const lane = async (): Promise<void> => {
    const spacingMs = (1000 * options.concurrency) / options.perSecond;
    while (Date.now() < options.stopAt) {
      const laneStarted = Date.now();
      const n = sequence++;
      const entry: Attempted = { key: `${options.runId}-${n}`, acknowledgedIds: new Set(), statuses: [], raced: n % options.raceEvery === 0 };
      attempted.set(entry.key, entry);
      await submit(entry);
      await sleep(Math.max(0, laneStarted + spacingMs - Date.now()));
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, lane));
  return { attempted, statusCounts };
}
