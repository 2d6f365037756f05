import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { Webhook } from 'standardwebhooks';
import type { BenchDataset } from '../dataset.js';
import { productionArgs, startChild, type Child } from '../driver.js';
import { startHttpsServer, type TestHttpsServer } from '../../test/support/https-server.js';

/**
 * What the webhook stages share (webhooks.ts, pipeline-cost.ts): the local HTTPS receiver that verifies each delivery's
 * signature, the ingest load (open loop at a rate, or a closed-loop backlog) and the compiled worker process.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const HOST = 'hooks.bench.example';

/** A path of the receiver and the secret its deliveries are signed with. */
export interface Endpoint {
  path: string;
  secret: string;
}

export interface Receiver {
  server: TestHttpsServer;
  /** Submission id → when its first validly signed delivery arrived (performance.now()). */
  firstValid: Map<number, number>;
  /** The webhook-ids of the validly signed deliveries (a delivery sent twice counts once). */
  validMessages: Set<string>;
  invalid: number;
  total: number;
}

export async function startReceiver(endpoints: Endpoint[]): Promise<Receiver> {
  const server = await startHttpsServer({ hostnames: [HOST] });
  const receiver: Receiver = { server, firstValid: new Map(), validMessages: new Set(), invalid: 0, total: 0 };
  for (const { path, secret } of endpoints) {
    const signer = new Webhook(secret);
    server.handle(path, (delivered) => {
      const at = performance.now();
      receiver.total++;
      try {
        const headers = Object.fromEntries(Object.entries(delivered.headers).map(([name, value]) => [name, String(value)]));
        const payload = signer.verify(delivered.body, headers) as { data?: { id?: unknown } };
        const id = Number(payload.data?.id);
        if (!receiver.firstValid.has(id)) receiver.firstValid.set(id, at);
        receiver.validMessages.add(headers['webhook-id'] ?? '');
      } catch {
        receiver.invalid++;
      }
      return { status: 204 };
    });
  }
  return receiver;
}

/**
 * The compiled worker (`npm run worker:prod`: dist/worker/main.js), as production runs it and as the bench runs the
 * gateway (with the gateway's NODE_ENV, see webhooks.ts); ready at its `worker started` line. Under tsx (`npm run worker`) each module is
 * transpiled as it is first loaded, with source maps: the first second's deliveries paid for it (p99 ~600 ms).
 */
export function startWorkerProcess(url: string, secretKey: string, dataDir: string, env: Record<string, string>): Promise<Child> {
  return startChild({
    name: 'worker',
    cwd: ROOT,
    args: productionArgs(ROOT, 'worker:prod'),
    env: { DATABASE_URL: url, SECRET_KEY: secretKey, DATA_DIR: dataDir, REDIS_URL: '', ...env },
    ready: (_child, output) =>
      new Promise((resolve) => {
        const check = setInterval(() => {
          if (output().includes('"worker started"')) {
            clearInterval(check);
            resolve(0);
          }
        }, 50);
      }),
  });
}

export interface Ingested {
  /** Submission id → when its 201 arrived (performance.now()). */
  acknowledged: Map<number, number>;
  /** Ingests not acknowledged, by answer status, or `error` (no answer): a 503 `overloaded` is the gateway shedding. */
  failedBy: Record<string, number>;
  firstAt: number;
  lastAt: number;
}

/** Name, Email (the form's email field: a confirmation goes to it) and Message, as the bench forms ask. */
const ingestBody = (n: number): string => JSON.stringify({ formData: { Name: `Hook ${n}`, Email: `hook${n}@bench.example`, Message: 'webhooks stage' } });

/** One POST /v1/forms/{id}/submissions with its own Idempotency-Key; the submission id of the 201, or null. */
async function ingestOne(agent: Agent, baseUrl: string, dataset: BenchDataset, n: number, into: Ingested): Promise<void> {
  try {
    const response = await request(`${baseUrl}/v1/forms/${dataset.formIds[n % dataset.formIds.length]}/submissions`, {
      dispatcher: agent,
      method: 'POST',
      headers: { authorization: `Bearer ${dataset.apiKey}`, 'content-type': 'application/json', 'idempotency-key': `wh-${process.pid}-${Date.now()}-${n}` },
      body: ingestBody(n),
    });
    const text = await response.body.text();
    const at = performance.now();
    if (response.statusCode !== 201) {
      into.failedBy[response.statusCode] = (into.failedBy[response.statusCode] ?? 0) + 1;
      return;
    }
    into.acknowledged.set(Number((JSON.parse(text) as { id: unknown }).id), at);
    into.lastAt = Math.max(into.lastAt, at);
  } catch {
    into.failedBy.error = (into.failedBy.error ?? 0) + 1;
  }
}

/** Open loop: request n leaves at start + n/rate whatever happened to the others. */
export async function ingestAtRate(baseUrl: string, dataset: BenchDataset, rate: number, seconds: number): Promise<Ingested> {
  const agent = new Agent({ connections: 256, keepAliveTimeout: 30_000 });
  const into: Ingested = { acknowledged: new Map(), failedBy: {}, firstAt: performance.now(), lastAt: 0 };
  const total = rate * seconds;
  const pending: Promise<void>[] = [];
  for (let n = 0; n < total; n++) {
    const due = into.firstAt + (n * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(ingestOne(agent, baseUrl, dataset, n, into));
  }
  await Promise.all(pending);
  await agent.close();
  return into;
}

/** Closed loop as fast as `connections` allow: the backlog for the drain measurement. */
export async function ingestBacklog(baseUrl: string, dataset: BenchDataset, count: number, connections = 32): Promise<Ingested> {
  const agent = new Agent({ connections, keepAliveTimeout: 30_000 });
  const into: Ingested = { acknowledged: new Map(), failedBy: {}, firstAt: performance.now(), lastAt: 0 };
  let next = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < count) await ingestOne(agent, baseUrl, dataset, next++, into);
    }),
  );
  await agent.close();
  return into;
}

/** Resolves once `done()` holds (checked every 100 ms), or `timeoutS` after it was called; whether it held. */
export async function waitUntil(done: () => boolean, timeoutS: number): Promise<boolean> {
  const deadline = performance.now() + timeoutS * 1000;
  while (performance.now() < deadline) {
    if (done()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return done();
}

/** How many ingests were not acknowledged, whatever the reason. */
export const notAcknowledged = (ingested: Ingested): number => Object.values(ingested.failedBy).reduce((sum, n) => sum + n, 0);

/** Resolves once every acknowledged submission has a valid delivery, or `timeoutS` after it was called. */
export async function settle(receiver: Receiver, ingested: Ingested, timeoutS: number): Promise<void> {
  await waitUntil(() => [...ingested.acknowledged.keys()].every((id) => receiver.firstValid.has(id)), timeoutS);
}
