import type { Database } from '../../infra/db.js';
import { Prisma } from '../../generated/prisma/client.js';

/**
 * Retention (decisions §6.5): events and deliveries are kept 30 days. Deleted in batches of `batchSize` rows, each
 * batch its own short statement taking only rows nobody else holds (SKIP LOCKED), so ingest, which only inserts new
 * rows, never waits on it and no long lock builds up. An event still waiting for its fan-out and a delivery still
 * pending are kept whatever their age: they are still to be sent.
 */

export const RETENTION_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;
export const RETENTION_BATCH = 1000;

export interface RetentionResult {
  events: number;
  deliveries: number;
}

async function deleteInBatches(db: Database, statement: (limit: number) => Prisma.Sql, batchSize: number): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await db.sql<{ id: number }>(statement(batchSize));
    total += rows.length;
    if (rows.length < batchSize) return total;
  }
}

export async function deleteExpiredEvents(db: Database, now = new Date(), batchSize = RETENTION_BATCH): Promise<RetentionResult> {
  const cutoff = new Date(now.getTime() - RETENTION_DAYS * DAY_MS);
  const deliveries = await deleteInBatches(
    db,
    (limit) => Prisma.sql`
      DELETE FROM "WebhookDelivery" WHERE "id" IN (
        SELECT "id" FROM "WebhookDelivery" WHERE "createdAt" < ${cutoff} AND "status" <> 'pending'
        ORDER BY "createdAt" LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      RETURNING "id"`,
    batchSize,
  );
  const events = await deleteInBatches(
    db,
    (limit) => Prisma.sql`
      DELETE FROM "OutboxEvent" WHERE "id" IN (
        SELECT "id" FROM "OutboxEvent" WHERE "createdAt" < ${cutoff} AND "relayedAt" IS NOT NULL
        ORDER BY "createdAt" LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      RETURNING "id"`,
    batchSize,
  );
  return { events, deliveries };
}
