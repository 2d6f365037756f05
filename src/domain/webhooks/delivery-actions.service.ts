import type { Database } from '../../infra/db.js';
import { Prisma } from '../../generated/prisma/client.js';
import { notFound } from '../../errors.js';
import { QUEUE, type JobQueue } from '../../infra/jobs.js';
import { DELIVERY_COLUMNS, assertReplayWindow, ownedSubscription, type DeliveryView, type ReplayWindow } from './deliveries.service.js';
import { deliveryGroup, messageIdFor, newEventId, type WebhookDeliveryJob } from './events.service.js';

/**
 * Sending again (contract §6.5): a redelivery, a replay and a ping each queue delivery jobs in the transaction
 * that sets their deliveries pending, so the request returns at once and nothing is queued for a change that
 * rolled back. A resent delivery keeps its row, hence its `webhook-id` (messageId) and its exact payload: a
 * receiver that de-duplicates on the id sees one event. Its retry schedule starts over (`roundStart`).
 */

export interface DeliveryActionDeps {
  db: Database;
  queue: JobQueue;
}

interface JobData extends WebhookDeliveryJob {
  attempt: number;
}

/** The live subscription of the account, or 404 webhook; its event decides the scope the caller needs. */
async function subscriptionOrThrow(tx: Pick<Database, 'sql'>, accountId: number, webhookId: number): Promise<{ id: number; event: string }> {
  const [row] = await tx.sql<{ id: number; event: string }>(ownedSubscription(accountId, webhookId));
  if (!row) throw notFound('webhook');
  return row;
}

/** Puts the matching deliveries back to pending for a new round of tries; returns them. */
const resendSql = (where: Prisma.Sql): Prisma.Sql => Prisma.sql`
  UPDATE "WebhookDelivery" d SET "status" = 'pending', "roundStart" = d."attempts", "nextAttemptAt" = now(), "updatedAt" = now()
  WHERE ${where}
  RETURNING ${DELIVERY_COLUMNS}`;

/**
 * The subscription's event, read before anything changes, so the caller can refuse a key without its read scope
 * (the delivery's payload is that event's resource) before the transaction writes.
 */
export async function subscriptionEventOrThrow(db: Database, accountId: number, webhookId: number): Promise<string> {
  return (await subscriptionOrThrow(db, accountId, webhookId)).event;
}

/** 202's delivery, now pending; queued at once. A delivery still pending is queued again too (same webhook-id). */
export async function redeliver(deps: DeliveryActionDeps, accountId: number, webhookId: number, deliveryId: number): Promise<DeliveryView> {
  return deps.db.transaction(async (tx) => {
    await subscriptionOrThrow(tx, accountId, webhookId);
    const [delivery] = await tx.sql<DeliveryView>(resendSql(Prisma.sql`d."id" = ${deliveryId} AND d."subscriptionId" = ${webhookId}`));
    if (!delivery) throw notFound('delivery');
    await deps.queue.enqueueInTransaction<JobData>(tx, QUEUE.webhookDelivery, [{ data: { deliveryId: delivery.id, attempt: delivery.attempts }, group: deliveryGroup(webhookId, null) }]);
    return delivery;
  });
}

/**
 * Every settled delivery of the subscription created in the window (only failed ones when asked) is queued again,
 * in one UPDATE and one job insert whatever their number. Pending ones are left alone: they are already queued.
 */
export async function replay(deps: DeliveryActionDeps, accountId: number, webhookId: number, window: ReplayWindow): Promise<number> {
  assertReplayWindow(window);
  return deps.db.transaction(async (tx) => {
    await subscriptionOrThrow(tx, accountId, webhookId);
    const status = window.onlyFailed ? Prisma.sql`d."status" = 'failed'` : Prisma.sql`d."status" <> 'pending'`;
    const rows = await tx.sql<DeliveryView>(resendSql(Prisma.sql`
      d."subscriptionId" = ${webhookId} AND d."createdAt" >= ${window.createdFrom} AND d."createdAt" < ${window.createdBefore} AND ${status}`));
    await deps.queue.enqueueInTransaction<JobData>(tx, QUEUE.webhookDelivery, rows.map((row) => ({ data: { deliveryId: row.id, attempt: row.attempts }, group: deliveryGroup(webhookId, null) })));
    return rows.length;
  });
}

export const PING_EVENT_TYPE = 'webhook.ping';

/** A new delivery of `{ id, type: "webhook.ping", createdAt, data: { webhookId } }`, queued at once. */
export async function ping(deps: DeliveryActionDeps, accountId: number, webhookId: number): Promise<DeliveryView> {
  return deps.db.transaction(async (tx) => {
    await subscriptionOrThrow(tx, accountId, webhookId);
    const createdAt = new Date();
    const eventId = newEventId(createdAt);
    const payload = { id: eventId, type: PING_EVENT_TYPE, createdAt: createdAt.toISOString(), data: { webhookId } };
    const [delivery] = await tx.sql<DeliveryView>(Prisma.sql`
      INSERT INTO "WebhookDelivery" AS d ("accountId", "subscriptionId", "messageId", "eventId", "eventType", "payload", "nextAttemptAt", "createdAt", "updatedAt")
      VALUES (${accountId}, ${webhookId}, ${messageIdFor(eventId, webhookId)}, ${eventId}, ${PING_EVENT_TYPE}, ${JSON.stringify(payload)}::jsonb, ${createdAt}, ${createdAt}, ${createdAt})
      RETURNING ${DELIVERY_COLUMNS}`);
    if (!delivery) throw new Error('ping insert returned no row');
    await deps.queue.enqueueInTransaction<JobData>(tx, QUEUE.webhookDelivery, [{ data: { deliveryId: delivery.id, attempt: 0 }, group: deliveryGroup(webhookId, null) }]);
    return delivery;
  });
}
