import { Webhook } from 'standardwebhooks';
import type { Prisma } from '../../infra/db.js';
import type { Prisma as PrismaNs } from '../../generated/prisma/client.js';
import type { WebhookDeliveryJob } from '../../domain/webhooks/events.service.js';
import { QUEUE, transactionDb, type JobQueue } from '../../infra/jobs.js';
import type { OutboundFetcher } from '../../infra/outbound-fetch.js';

/**
 * Sends one WebhookDelivery (decisions §4 "webhook delivery", §5 "retries"): POST of the stored
 * `{ id, type, createdAt, data }`, signed per Standard Webhooks with the subscription's secret (or, for
 * a form's `webhookUrl`, the account's signing secret); 10 s timeout; the outbound-fetch rules apply.
 * 2xx: succeeded. 410: the subscription is deactivated, no retry. Anything else: retried on the
 * schedule below with the same `webhook-id`, then failed after the last try.
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
  queue: JobQueue;
  fetcher: OutboundFetcher;
  retryPolicy?: RetryPolicy;
  timeoutMs?: number;
}

export type DeliveryOutcome = 'succeeded' | 'retrying' | 'failed' | 'deactivated' | 'skipped';

/** Job data: `attempt` is the number of tries already recorded when this job was queued (0 at first). */
export interface DeliveryJobData extends WebhookDeliveryJob {
  attempt?: number;
}

interface Target {
  url: string;
  secret: string;
}

export async function deliverWebhook(deps: WebhookDeliveryDeps, job: DeliveryJobData): Promise<DeliveryOutcome> {
  const { prisma } = deps;
  const policy = deps.retryPolicy ?? DEFAULT_RETRY_POLICY;
  const expectedAttempts = job.attempt ?? 0;
  const delivery = await prisma.webhookDelivery.findUnique({
    where: { id: job.deliveryId },
    include: {
      subscription: { select: { id: true, url: true, secret: true, active: true, deletedAt: true } },
      account: { select: { webhookSigningSecret: true } },
    },
  });
  // A stale copy of a job (one re-run after its attempt was already recorded) must not send again.
  if (!delivery || delivery.status !== 'pending' || delivery.attempts !== expectedAttempts) return 'skipped';

  let target: Target | null = null;
  let unavailable: string | null = null;
  if (delivery.subscriptionId !== null) {
    const sub = delivery.subscription;
    if (!sub || !sub.active || sub.deletedAt) unavailable = 'subscription_inactive';
    else target = { url: sub.url, secret: sub.secret };
  } else {
    // The form's webhookUrl is read now, never copied into the delivery (it is a secret of the form).
    const form = delivery.formId === null ? null : await prisma.form.findUnique({ where: { id: delivery.formId }, select: { webhookUrl: true } });
    if (!form?.webhookUrl) unavailable = 'webhook_url_removed';
    else target = { url: form.webhookUrl, secret: delivery.account.webhookSigningSecret };
  }
  if (!target) {
    await prisma.webhookDelivery.updateMany({
      where: { id: delivery.id, attempts: expectedAttempts, status: 'pending' },
      data: { status: 'failed', lastError: unavailable, nextAttemptAt: null },
    });
    return 'failed';
  }

  const body = JSON.stringify(delivery.payload);
  const timestamp = new Date();
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
    maxRedirects: 0,
    timeoutMs: deps.timeoutMs ?? DELIVERY_TIMEOUT_MS,
  });

  const attempts = expectedAttempts + 1;
  const common = { attempts, lastStatusCode: result.status, lastLatencyMs: result.latencyMs };
  const guard = { id: delivery.id, attempts: expectedAttempts, status: 'pending' as const };

  if (result.ok) {
    await prisma.webhookDelivery.updateMany({
      where: guard,
      data: { ...common, status: 'succeeded', deliveredAt: new Date(), nextAttemptAt: null, lastError: null },
    });
    return 'succeeded';
  }
  if (result.status === 410) {
    await prisma.$transaction(async (tx) => {
      await tx.webhookDelivery.updateMany({ where: guard, data: { ...common, status: 'failed', nextAttemptAt: null, lastError: 'http_410' } });
      if (delivery.subscriptionId !== null) {
        await tx.webhookSubscription.update({ where: { id: delivery.subscriptionId }, data: { active: false } });
      }
    });
    return delivery.subscriptionId !== null ? 'deactivated' : 'failed';
  }
  if (attempts >= policy.maxAttempts) {
    await prisma.webhookDelivery.updateMany({ where: guard, data: { ...common, status: 'failed', nextAttemptAt: null, lastError: result.reason } });
    return 'failed';
  }
  const nextAttemptAt = new Date(Date.now() + policy.delayMs(attempts));
  // The attempt and the next try commit together: a crash cannot lose the retry or record it twice.
  await prisma.$transaction(async (tx: PrismaNs.TransactionClient) => {
    const { count } = await tx.webhookDelivery.updateMany({ where: guard, data: { ...common, nextAttemptAt, lastError: result.reason } });
    if (count === 1) {
      await deps.queue.enqueueInTransaction<DeliveryJobData>(transactionDb(tx), QUEUE.webhookDelivery, [
        { data: { deliveryId: delivery.id, attempt: attempts }, startAfter: nextAttemptAt },
      ]);
    }
  });
  return 'retrying';
}

export function createWebhookDeliveryHandler(deps: WebhookDeliveryDeps): (data: DeliveryJobData) => Promise<void> {
  return async (data) => {
    await deliverWebhook(deps, data);
  };
}
