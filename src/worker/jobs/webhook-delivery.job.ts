import { Webhook } from 'standardwebhooks';
import type { Updateable } from 'kysely';
import type { Database, Prisma } from '../../infra/db.js';
import { prismaSql } from '../../infra/db-driver.js';
import { rawStatement, sql, sqlBuilder } from '../../infra/sql.js';
import type { Prisma as PrismaNs } from '../../generated/prisma/client.js';
import type { WebhookDelivery } from '../../generated/kysely/types.js';
import { deliveryGroup, derivedJobId, type EmailJob, type WebhookDeliveryJob } from '../../domain/webhooks/events.service.js';
import { QUEUE, transactionDb, type JobQueue } from '../../infra/jobs.js';
import type { OutboundFailureReason, OutboundFetcher } from '../../infra/outbound-fetch.js';
import { PING_EVENT_TYPE } from '../../domain/webhooks/delivery-actions.service.js';
import { twinHostnames } from '../../domain/verification/verification.service.js';
import { rowsById } from '../../infra/rows-by-id.js';
import type { Alongside, AlongsideWrite } from '../../infra/job-completions.js';
import { webhookDeliveries, webhookDeliveryLatency } from '../../infra/metrics.js';

/**
 * Sends one WebhookDelivery (contract §4 "webhook delivery", §5 "retries"): POST of the stored
 * `{ id, type, createdAt, data }`, signed per Standard Webhooks with the subscription's secret (or, for
 * a form's `webhookUrl`, the account's signing secret); 10 s timeout; the outbound-fetch rules apply.
 * 2xx: succeeded. 410: the subscription is deactivated, no retry. `blocked_address`: failed, no retry.
 * Anything else: retried on the schedule below with the same `webhook-id`, then failed after the last try.
 * Every try is appended to the delivery's attemptLog; 3 days of only failures deactivate the subscription.
 */

export const DELIVERY_TIMEOUT_MS = 10_000;

export interface RetryPolicy {
  /** Total tries, the first included. */
  maxAttempts: number;
  /** Delay before the try following `attemptsMade` failed tries (1 … maxAttempts-1). */
  delayMs(attemptsMade: number): number;
}

/**
 * 8 tries over about a day: exponential (×5 from 4 s: 4 s, 20 s, 100 s, 8 min, 42 min, 3.5 h, 17 h;
 * 21.7 h in all) with ±20 % jitter so that a receiver coming back is not hit by every retry at once.
 */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 8,
  delayMs(attemptsMade) {
    const base = 4_000 * 5 ** Math.max(0, attemptsMade - 1);
    return Math.round(base * (0.8 + Math.random() * 0.4));
  },
};

export interface WebhookDeliveryDeps {
  prisma: Prisma;
  /** The driver's SQL, for the two statements every delivery runs. */
  db: Pick<Database, 'sql'>;
  queue: JobQueue;
  fetcher: OutboundFetcher;
  retryPolicy?: RetryPolicy;
  timeoutMs?: number;
  /** The time of an attempt; tests move it to simulate days of failures. */
  clock?: () => Date;
}

export type DeliveryOutcome = 'succeeded' | 'retrying' | 'failed' | 'deactivated' | 'skipped';

/** `webhook_deliveries_total`'s result label (decisions §7.5); a skipped stale job attempted nothing. */
const DELIVERY_RESULT: Record<DeliveryOutcome, 'succeeded' | 'failed' | 'retry' | null> = {
  succeeded: 'succeeded',
  retrying: 'retry',
  failed: 'failed',
  deactivated: 'failed',
  skipped: null,
};

/** Job data: `attempt` is the number of tries already recorded when this job was queued (0 at first). */
export interface DeliveryJobData extends WebhookDeliveryJob {
  attempt?: number;
}

interface Target {
  url: string;
  secret: string;
}

/** One line of a delivery's `attemptLog` (contract §6.5). */
export interface AttemptLogEntry {
  at: string;
  statusCode: number | null;
  error: OutboundFailureReason | null;
  durationMs: number;
}

/** A long-failing endpoint: this long with only failures deactivates its subscription (contract §6.5). */
export const FAILING_ENDPOINT_MS = 3 * 24 * 60 * 60 * 1000;

/** A delivery with what sending it needs: its target's address and secret, and its endpoint's state. */
interface DeliveryRow {
  id: number;
  status: string;
  attempts: number;
  roundStart: number;
  subscriptionId: number | null;
  formId: number | null;
  messageId: string;
  eventType: string;
  payload: unknown;
  attemptLog: unknown;
  subscriptionUrl: string | null;
  subscriptionSecret: string | null;
  subscriptionActive: boolean | null;
  /** The subscription exists and is not deleted. */
  subscriptionLive: boolean;
  subscriptionFailing: boolean;
  formWebhookUrl: string | null;
  accountSecret: string;
}

/**
 * ONE statement for a batch: each delivery with its subscription (or its form's webhookUrl) and the account's
 * signing secret.
 */
const deliveryRows = (ids: readonly number[]) =>
  rawStatement(sql<DeliveryRow>`
  SELECT d."id", d."status"::text AS "status", d."attempts", d."roundStart", d."subscriptionId", d."formId", d."messageId", d."eventType",
         d."payload", d."attemptLog",
         s."url" AS "subscriptionUrl", s."secret" AS "subscriptionSecret", s."active" AS "subscriptionActive",
         (s."id" IS NOT NULL AND s."deletedAt" IS NULL) AS "subscriptionLive", (s."failingSince" IS NOT NULL) AS "subscriptionFailing",
         f."webhookUrl" AS "formWebhookUrl", a."webhookSigningSecret" AS "accountSecret"
  FROM "WebhookDelivery" d
  JOIN "Account" a ON a."id" = d."accountId"
  LEFT JOIN "WebhookSubscription" s ON s."id" = d."subscriptionId"
  LEFT JOIN "Form" f ON f."id" = d."formId" AND d."subscriptionId" IS NULL
  WHERE d."id" = ANY(${ids}::int[])`);

type ReadDelivery = (id: number) => Promise<DeliveryRow | null>;

/**
 * A write of a delivery's attempt other than a success (WebhookDelivery is written one way: SQL on the driver), under
 * the guard that makes it happen once: the tries the job was queued for, still pending. The whole attempt log is
 * rewritten under it.
 */
const recordAttempt = (id: number, expectedAttempts: number, set: Updateable<WebhookDelivery>) =>
  sqlBuilder
    .updateTable('WebhookDelivery')
    .set({ ...set, updatedAt: new Date() })
    .where('id', '=', id)
    .where('attempts', '=', expectedAttempts)
    .where('status', '=', 'pending');

/** A successful attempt, recorded under the same guard as every other (the tries its job was queued for, pending). */
interface Success {
  id: number;
  expectedAttempts: number;
  attempts: number;
  at: Date;
  statusCode: number;
  latencyMs: number;
  attemptLog: string;
}

/**
 * ONE UPDATE for many successes, each row under its own guard. Timestamps go as UTC text (`timestamp` columns hold UTC
 * by Prisma's convention; the zone in the text is ignored).
 */
const successesUpdate = (rows: readonly Success[]) => sql`
  UPDATE "WebhookDelivery" d
  SET "status" = 'succeeded', "attempts" = v."attempts", "lastAttemptAt" = v."at", "deliveredAt" = v."at", "lastStatusCode" = v."statusCode",
      "lastLatencyMs" = v."latencyMs", "attemptLog" = v."attemptLog"::jsonb, "lastError" = NULL, "nextAttemptAt" = NULL, "updatedAt" = ${new Date().toISOString()}::timestamp
  FROM unnest(${rows.map((row) => row.id)}::int[], ${rows.map((row) => row.expectedAttempts)}::int[], ${rows.map((row) => row.attempts)}::int[],
              ${rows.map((row) => row.at.toISOString())}::timestamp[], ${rows.map((row) => row.statusCode)}::int[], ${rows.map((row) => row.latencyMs)}::int[],
              ${rows.map((row) => row.attemptLog)}::text[])
    AS v("id", "expected", "attempts", "at", "statusCode", "latencyMs", "attemptLog")
  WHERE d."id" = v."id" AND d."attempts" = v."expected" AND d."status" = 'pending'
  RETURNING d."id"`;

/** Successes written on their own (an endpoint's failing period ends with one: its record comes first). */
export const recordSuccesses = (rows: readonly Success[]) => rawStatement(successesUpdate(rows));

/**
 * A success is written with its job's completion (job-completions.ts): ONE statement records the deliveries answered
 * within the completions' gathering and completes their jobs and the emails' of the same pass. Before, a delivery's
 * success and its job's completion were two statements. A crash before that statement sends the delivery again with
 * the same webhook-id, as one between the answer and its record always could (at least once; receivers dedupe by
 * webhook-id).
 */
export const DELIVERED = 'webhook.delivered';

/**
 * The successes written alongside the completions, counted in `webhook_deliveries_total` once committed (a success
 * whose write failed is sent again and counted then: once, as the attempt recorded).
 */
const delivered: AlongsideWrite = {
  write: (rows) => successesUpdate(rows as Success[]),
  written: (count) => webhookDeliveries.inc({ result: 'succeeded' }, count),
};

/**
 * `webhook_delivery_latency_seconds`: event written (the payload's createdAt) to its first successful delivery, for
 * deliveries in their first round; a redelivery an operator asked for days later would say nothing about the pipeline.
 */
function observeFirstDelivery(delivery: Pick<DeliveryRow, 'roundStart' | 'payload'>, nowMs: number): void {
  if (delivery.roundStart !== 0) return;
  const createdAt = Date.parse(String((delivery.payload as { createdAt?: unknown } | null)?.createdAt));
  if (Number.isFinite(createdAt)) webhookDeliveryLatency.observe(Math.max(0, nowMs - createdAt) / 1000);
}

const logOf = (value: unknown): AttemptLogEntry[] => (Array.isArray(value) ? (value as AttemptLogEntry[]) : []);

/** What a delivery did, and the success to write with its job's completion (none when written already, or no success). */
interface Delivered {
  outcome: DeliveryOutcome;
  success?: Success;
}

async function deliverWebhook(deps: WebhookDeliveryDeps, { readDelivery }: Batched, job: DeliveryJobData): Promise<Delivered> {
  const { prisma } = deps;
  const policy = deps.retryPolicy ?? DEFAULT_RETRY_POLICY;
  const clock = deps.clock ?? (() => new Date());
  const expectedAttempts = job.attempt ?? 0;
  const delivery = await readDelivery(job.deliveryId);
  // A stale copy of a job (one re-run after its attempt was already recorded) must not send again.
  if (!delivery || delivery.status !== 'pending' || delivery.attempts !== expectedAttempts) return { outcome: 'skipped' };

  let target: Target | null = null;
  if (delivery.subscriptionId !== null) {
    // A ping reaches an inactive subscription too: the way to test an endpoint before turning it back on.
    const reachable = delivery.subscriptionUrl !== null && delivery.subscriptionLive && (delivery.subscriptionActive || delivery.eventType === PING_EVENT_TYPE);
    if (reachable && delivery.subscriptionSecret !== null) target = { url: delivery.subscriptionUrl!, secret: delivery.subscriptionSecret };
  } else if (delivery.formWebhookUrl) {
    // The form's webhookUrl is read now, never copied into the delivery (it is a secret of the form).
    target = { url: delivery.formWebhookUrl, secret: delivery.accountSecret };
  }
  if (!target) {
    // Nothing was attempted (the subscription was deactivated or deleted, the form's URL removed): no
    // outbound-fetch reason applies, so lastError stays null (contract §6.5 "delivery object").
    await deps.db.sql(recordAttempt(delivery.id, expectedAttempts, { status: 'failed', nextAttemptAt: null }));
    return { outcome: 'failed' };
  }

  const body = JSON.stringify(delivery.payload);
  const timestamp = clock();
  const signature = new Webhook(target.secret).sign(delivery.messageId, timestamp, body);
  const result = await deps.fetcher.fetch(target.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': delivery.messageId,
      'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
      'webhook-signature': signature,
    },
    body,
    // The outbound-fetch rules (contract §4): up to 3 redirects within the URL's host and its www/apex twin. A 307
    // or 308 sends the same signed body again; a 301/302/303 becomes a GET without it, which a receiver answers as it
    // will (anything but 2xx retries).
    allowedHosts: twinHostnames(URL.parse(target.url)?.hostname ?? ''),
    timeoutMs: deps.timeoutMs ?? DELIVERY_TIMEOUT_MS,
  });

  const attempts = expectedAttempts + 1;
  const entry: AttemptLogEntry = { at: timestamp.toISOString(), statusCode: result.status, error: result.ok ? null : result.reason, durationMs: result.latencyMs };
  const common = {
    attempts,
    lastAttemptAt: timestamp,
    lastStatusCode: result.status,
    lastLatencyMs: result.latencyMs,
    attemptLog: JSON.stringify([...logOf(delivery.attemptLog), entry]),
  };
  const subscriptionId = delivery.subscriptionId;

  if (result.ok) {
    const success: Success = { id: delivery.id, expectedAttempts, attempts, at: timestamp, statusCode: result.status, latencyMs: result.latencyMs, attemptLog: common.attemptLog };
    observeFirstDelivery(delivery, Date.now());
    // The common case: written with the job's completion. An endpoint whose failing period this success ends (read
    // with the delivery) has it recorded first, then the period ended.
    if (subscriptionId === null || !delivery.subscriptionFailing) return { outcome: 'succeeded', success };
    await deps.db.sql(recordSuccesses([success]));
    await prisma.webhookSubscription.updateMany({ where: { id: subscriptionId, failingSince: { not: null } }, data: { failingSince: null } });
    return { outcome: 'succeeded' };
  }
  // 410: the receiver asked us to stop. blocked_address: the host resolves where we never connect, and retrying
  // cannot change that within a retry schedule (contract §6.5): both end the delivery at once.
  const permanent = result.status === 410 || result.reason === 'blocked_address';
  const last = permanent || attempts - delivery.roundStart >= policy.maxAttempts;
  const nextAttemptAt = last ? null : new Date(timestamp.getTime() + policy.delayMs(attempts - delivery.roundStart));
  let deactivated = false;
  // The attempt, the next try and the endpoint's failing state commit together: a crash cannot lose the retry or
  // record it twice.
  await prisma.$transaction(async (tx: PrismaNs.TransactionClient) => {
    const recorded = await prismaSql(tx).sql(
      recordAttempt(delivery.id, expectedAttempts, { ...common, lastError: result.reason, nextAttemptAt, status: last ? 'failed' : 'pending' }).returning('id'),
    );
    if (recorded.length !== 1) return;
    if (nextAttemptAt) {
      await deps.queue.enqueueInTransaction<DeliveryJobData>(transactionDb(tx), QUEUE.webhookDelivery, [
        { data: { deliveryId: delivery.id, attempt: attempts }, startAfter: nextAttemptAt, group: deliveryGroup(delivery.subscriptionId, delivery.formId) },
      ]);
    }
    if (subscriptionId !== null) deactivated = await recordEndpointFailure(deps, tx, subscriptionId, timestamp, result.status === 410);
  });
  if (deactivated) return { outcome: 'deactivated' };
  return { outcome: last ? 'failed' : 'retrying' };
}

/**
 * A failed attempt against a subscription: starts its failing period (kept until a success or a reactivation),
 * and deactivates it on 410, or once it has failed without a single success for FAILING_ENDPOINT_MS. The account
 * owner hears of a deactivation for failures by email (once per failing period: the job id is derived from it).
 */
async function recordEndpointFailure(
  deps: WebhookDeliveryDeps,
  tx: PrismaNs.TransactionClient,
  subscriptionId: number,
  at: Date,
  gone: boolean,
): Promise<boolean> {
  await tx.webhookSubscription.updateMany({ where: { id: subscriptionId, failingSince: null }, data: { failingSince: at } });
  if (gone) {
    await tx.webhookSubscription.updateMany({ where: { id: subscriptionId }, data: { active: false } });
    return true;
  }
  const cutoff = new Date(at.getTime() - FAILING_ENDPOINT_MS);
  const failing = await tx.webhookSubscription.findFirst({
    where: { id: subscriptionId, active: true, deletedAt: null, failingSince: { lte: cutoff } },
    select: { failingSince: true },
  });
  if (!failing?.failingSince) return false;
  await tx.webhookSubscription.updateMany({ where: { id: subscriptionId }, data: { active: false } });
  const since = failing.failingSince.toISOString();
  await deps.queue.enqueueInTransaction<EmailJob>(transactionDb(tx), QUEUE.emailSend, [
    { data: { kind: 'webhook_deactivated', subscriptionId, failingSince: since }, id: derivedJobId(`webhook-${subscriptionId}`, since) },
  ]);
  return true;
}

/** The statements every delivery runs, batched across the deliveries of one worker. */
interface Batched {
  readDelivery: ReadDelivery;
}

/**
 * The `webhook.deliver` handler. It resolves with the success to write with its job's completion (`workConcurrently`
 * writes it; DELIVERED registers how), so that a delivery's job completes exactly when its success is recorded.
 */
export function createWebhookDeliveryHandler(deps: WebhookDeliveryDeps): (data: DeliveryJobData) => Promise<Alongside | void> {
  deps.queue.completions.registerAlongside(DELIVERED, delivered);
  const batched: Batched = { readDelivery: rowsById((ids) => deps.db.sql(deliveryRows(ids))) };
  return async (data) => {
    const { outcome, success } = await deliverWebhook(deps, batched, data);
    // Counted when written with the job's completion (`delivered`); every other outcome is written already.
    if (success) return { kind: DELIVERED, row: success };
    const result = DELIVERY_RESULT[outcome];
    if (result) webhookDeliveries.inc({ result });
  };
}
