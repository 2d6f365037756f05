import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { BENCH_DB, dropDatabase, recreateDatabase, seedBase } from '../dataset.js';
import { round } from '../report.js';
import { startSqlCounter } from '../sql-counter.js';
import { generateWebhookSecret } from '../../src/infra/secrets.js';
import { cpuMs, measureBackendCpu } from './backend-cpu.js';
import type { StageContext } from './stage.js';
import { kindOf } from './statement-kinds.js';
import { HOST, ingestAtRate, notAcknowledged, startReceiver, startWorkerProcess, waitUntil } from './webhook-load.js';

/**
 * The worker's database cost per ingest (issue 38 item 6), on the set-up a product account has: each form's
 * submissions go to two active webhook subscriptions (a local HTTPS receiver, each signature verified) and send the
 * two emails of an ingest (the confirmation to the submitter's Email field, the notification to the account's owner),
 * and no form has a webhookUrl. The worker (`npm run worker:prod`) runs on its own, idle, while a gateway ingests
 * at a fixed rate (open loop) and the worker keeps up: the relay, the fan-out, two deliveries and two emails per
 * ingest, as production does them. Every statement of the worker goes through a counting proxy (sql-counter.ts):
 * statements per ingest, by what they are for, and the CPU of the PostgreSQL backends serving those connections alone
 * (backend-cpu.ts; the gateway's are left out). pg_stat_statements would give PostgreSQL's own time, but needs
 * `shared_preload_libraries`, a restart the shared server cannot take. Idle polling (the relay's every second, the
 * queues' every 2 s) runs meanwhile and is counted: it is part of what a worker costs.
 */

/** WEBHOOKS_COST_RATE / WEBHOOKS_COST_SECONDS: the ingest rate and how long it lasts. */
const RATE = Number(process.env.WEBHOOKS_COST_RATE ?? 100);
const SECONDS = Number(process.env.WEBHOOKS_COST_SECONDS ?? 20);
const SUBSCRIPTIONS = 2;
const EMAILS = 2;
const SETTLE_S = 60;

export interface PipelineCostFigures {
  rate: number;
  acknowledged: number;
  ingestFailed: number;
  deliveries: number;
  expectedDeliveries: number;
  emails: number;
  expectedEmails: number;
  invalidSignatures: number;
  /** Every statement the worker sent (BEGIN and COMMIT included), per acknowledged ingest. */
  statementsPerIngest: number | null;
  /** The same, by what they are for (kindOf below), per ingest, with their wall time per ingest (sql-counter.ts). */
  statementsByKind: Record<string, { perIngest: number; msPerIngest: number }>;
  /** CPU (user + system) of the PostgreSQL backends serving the worker's connections, per ingest. */
  postgresCpuMsPerIngest: number | null;
  /** CPU of the worker's process, per ingest. */
  workerCpuMsPerIngest: number | null;
  /** The worker's statements while the run lasted, the longest in all first, per ingest (the first 160 characters). */
  topStatements: { perIngest: number; msPerIngest: number; text: string }[];
}

/** The figures as the report's tables (arrays of flat rows). */
export function pipelineCostTables(cost: PipelineCostFigures): Record<string, Record<string, unknown>[]> {
  const { statementsByKind, topStatements, ...totals } = cost;
  return {
    pipelineCost: [totals],
    pipelineStatementsByKind: Object.entries(statementsByKind).map(([kind, figures]) => ({ kind, ...figures })),
    pipelineTopStatements: topStatements.map(({ text, ...figures }) => ({ ...figures, text: text.replace(/\|/g, '¦') })),
  };
}

async function setUp(url: string, accountId: number): Promise<{ path: string; secret: string }[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('UPDATE "Form" SET "webhookUrl" = NULL');
    const endpoints = Array.from({ length: SUBSCRIPTIONS }, (_, i) => ({ path: `/subscriptions/${i + 1}`, secret: generateWebhookSecret() }));
    for (const { path, secret } of endpoints) {
      await client.query(
        `INSERT INTO "WebhookSubscription" ("accountId", url, event, secret, "createdAt", "updatedAt")
         VALUES ($1, $2, 'submission.created', $3, now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC')`,
        [accountId, `https://${HOST}${path}`, secret],
      );
    }
    return endpoints;
  } finally {
    await client.end();
  }
}

const filesIn = (dir: string): number => {
  try {
    return readdirSync(dir).length;
  } catch {
    return 0;
  }
};

export async function pipelineCostRun(context: StageContext): Promise<PipelineCostFigures> {
  const name = `${BENCH_DB}_pipeline`;
  const url = await recreateDatabase(context.serverUrl, name);
  const dataset = await seedBase(url, Buffer.from(context.secretKey, 'base64'));
  const receiver = await startReceiver(await setUp(url, dataset.accountId));
  const server = new URL(url);
  const counter = await startSqlCounter({ host: server.hostname, port: Number(server.port || 5432) });
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(counter.port);
  const outbound = { NODE_ENV: 'development', OUTBOUND_TEST_RESOLVE: receiver.server.resolveFor(HOST), OUTBOUND_TEST_CA: receiver.server.caFile };
  const dataDir = join(context.scratch, 'pipeline-cost');
  const gateway = await context.startGateway(url, join(context.scratch, 'pipeline-cost-gateway'), { ...outbound, WORKERS_IN_PROCESS: 'false' });
  const worker = await startWorkerProcess(proxied.toString(), context.secretKey, dataDir, outbound);
  try {
    // Start-up (queues, schedules, the first empty passes) is not an ingest's.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    counter.reset();
    const postgresCpu = await measureBackendCpu(url, 200, () => counter.upstreamPorts());
    const workerCpuBefore = cpuMs(worker.pid);
    const ingested = await ingestAtRate(`http://127.0.0.1:${gateway.port}`, dataset, RATE, SECONDS);
    const acknowledged = ingested.acknowledged.size;
    const outbox = join(dataDir, 'outbox');
    await waitUntil(() => receiver.validMessages.size >= SUBSCRIPTIONS * acknowledged && filesIn(outbox) >= EMAILS * acknowledged, SETTLE_S);
    // The last jobs' completions are written just after their work.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const postgresMs = await postgresCpu.stop();
    const workerCpuAfter = cpuMs(worker.pid);
    const statements = counter.count();
    // Whole texts: what a statement is for may show only past its first 160 characters.
    const texts = counter.texts(Infinity);
    const perIngest = (value: number | null): number | null => (value === null || acknowledged === 0 ? null : value / acknowledged);
    const timings = counter.timings(Infinity);
    const byKind: Record<string, { n: number; ms: number }> = {};
    for (const [text, n] of texts) {
      const kind = (byKind[kindOf(text)] ??= { n: 0, ms: 0 });
      kind.n += n;
      kind.ms += timings.get(text) ?? 0;
    }
    const figures: PipelineCostFigures = {
      rate: RATE,
      acknowledged,
      ingestFailed: notAcknowledged(ingested),
      deliveries: receiver.validMessages.size,
      expectedDeliveries: SUBSCRIPTIONS * acknowledged,
      emails: filesIn(outbox),
      expectedEmails: EMAILS * acknowledged,
      invalidSignatures: receiver.invalid,
      statementsPerIngest: round(perIngest(statements), 2),
      statementsByKind: Object.fromEntries(
        Object.entries(byKind)
          .sort(([, a], [, b]) => b.ms - a.ms)
          .map(([kind, { n, ms }]) => [kind, { perIngest: round(perIngest(n), 3)!, msPerIngest: round(perIngest(ms), 3)! }]),
      ),
      postgresCpuMsPerIngest: round(perIngest(postgresMs), 3),
      workerCpuMsPerIngest: round(perIngest(workerCpuBefore === null || workerCpuAfter === null ? null : workerCpuAfter - workerCpuBefore), 3),
      topStatements: [...texts]
        .map(([text, n]) => ({ perIngest: round(perIngest(n), 3)!, msPerIngest: round(perIngest(timings.get(text) ?? 0), 3)!, text: text.slice(0, 160) }))
        .sort((a, b) => b.msPerIngest - a.msPerIngest)
        .slice(0, 15),
    };
    context.log(
      `pipeline cost @ ${RATE}/s for ${SECONDS} s (${SUBSCRIPTIONS} subscriptions, ${EMAILS} emails per ingest): ${figures.statementsPerIngest} worker statements and ${figures.postgresCpuMsPerIngest} ms PostgreSQL CPU per ingest (worker CPU ${figures.workerCpuMsPerIngest} ms); ${figures.deliveries}/${figures.expectedDeliveries} deliveries, ${figures.emails}/${figures.expectedEmails} emails; by kind ${JSON.stringify(figures.statementsByKind)}`,
    );
    for (const { perIngest: n, msPerIngest: ms, text } of figures.topStatements) context.log(`  ${n} × ${ms} ms: ${text}`);
    return figures;
  } finally {
    await Promise.all([gateway.stop(), worker.stop()]);
    await counter.close();
    await receiver.server.close();
    await dropDatabase(context.serverUrl, name);
  }
}
