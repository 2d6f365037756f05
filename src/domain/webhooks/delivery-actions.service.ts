import type { Database } from '../../infra/db.js';
import type { ExpressionBuilder, ExpressionWrapper, SqlBool } from 'kysely';
import { sql, sqlBuilder, type DB } from '../../infra/sql.js';
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
  const [row] = await tx.sql(ownedSubscription(accountId, webhookId));
  if (!row) throw notFound('webhook');
  return row;
}

type DeliveryWhere = (eb: ExpressionBuilder<DB, 'WebhookDelivery'>) => ExpressionWrapper<DB, 'WebhookDelivery', SqlBool>;

/** Puts the matching deliveries back to pending for a new round of tries; returns them. */
const resend = (where: DeliveryWhere) =>
  sqlBuilder
    .updateTable('WebhookDelivery')
    .set((eb) => ({ status: 'pending', roundStart: eb.ref('attempts'), nextAttemptAt: sql<Date>`now()`, updatedAt: sql<Date>`now()` }))
    .where(where)
    .returning(DELIVERY_COLUMNS);

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
    const [delivery] = await tx.sql(resend((eb) => eb.and([eb('id', '=', deliveryId), eb('subscriptionId', '=', webhookId)])));
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
    const rows = await tx.sql(
      resend((eb) =>
        eb.and([
          eb('subscriptionId', '=', webhookId),
          eb('createdAt', '>=', window.createdFrom),
          eb('createdAt', '<', window.createdBefore),
          window.onlyFailed ? eb('status', '=', 'failed') : eb('status', '<>', 'pending'),
        ]),
      ),
    );
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
    const [delivery] = await tx.sql(
      sqlBuilder
        .insertInto('WebhookDelivery')
        .values({
          accountId,
          subscriptionId: webhookId,
          messageId: messageIdFor(eventId, webhookId),
          eventId,
          eventType: PING_EVENT_TYPE,
          payload: JSON.stringify(payload),
          nextAttemptAt: createdAt,
          createdAt,
          updatedAt: createdAt,
        })
        .returning(DELIVERY_COLUMNS),
    );
    if (!delivery) throw new Error('ping insert returned no row');
    await deps.queue.enqueueInTransaction<JobData>(tx, QUEUE.webhookDelivery, [{ data: { deliveryId: delivery.id, attempt: 0 }, group: deliveryGroup(webhookId, null) }]);
    return delivery;
  });
}
