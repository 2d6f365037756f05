import type { Balancer } from './balancer.js';
import type { Seeded } from './cluster.js';

/**
 * Steady traffic for the rolling-restart test: lanes alternating a read (GET /v1/forms) and an ingest with its own
 * Idempotency-Key, through the balancer (which retries refused connections only). Anything else that goes wrong,
 * a broken connection or an unexpected status, is a failed request.
 */

export interface MixedLoadResult {
  succeeded: number;
  failures: string[];
  byReplica: Record<string, number>;
}

export function runMixedLoad(options: { balancer: Balancer; seeded: Seeded; concurrency: number; keyPrefix: string }): {
  stop(): Promise<MixedLoadResult>;
} {
  const result: MixedLoadResult = { succeeded: 0, failures: [], byReplica: {} };
  const { seeded } = options;
  let running = true;
  let sequence = 0;

  const one = async (): Promise<void> => {
    const n = sequence++;
    const read = n % 2 === 0;
    const key = `${options.keyPrefix}-${n}`;
    try {
      const response = read
        ? await options.balancer.request('/v1/forms', { headers: { authorization: `Bearer ${seeded.loadKey}` } })
        : await options.balancer.request(`/v1/forms/${seeded.formId}/submissions`, {
            method: 'POST',
            headers: { authorization: `Bearer ${seeded.loadKey}`, 'content-type': 'application/json', 'idempotency-key': key },
            body: JSON.stringify({ formData: { key } }),
          });
      if (response.status === (read ? 200 : 201)) {
        result.succeeded++;
        result.byReplica[response.replica] = (result.byReplica[response.replica] ?? 0) + 1;
      } else {
        result.failures.push(`${read ? 'GET' : 'POST'} ${response.status} on ${response.replica}: ${JSON.stringify(response.body)}`);
      }
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
      result.failures.push(`${read ? 'GET' : 'POST'} ${error instanceof Error ? error.message : String(error)}${cause}`);
    }
  };
  const lanes = Array.from({ length: options.concurrency }, async () => {
    while (running) await one();
  });
  return {
    async stop() {
      running = false;
      await Promise.all(lanes);
      return result;
    },
  };
}
