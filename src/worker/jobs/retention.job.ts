import type { Database } from '../../infra/db.js';
import { sql, sqlBuilder } from '../../infra/sql.js';

/**
 * Retention (contract §6.5): events and deliveries are kept 30 days. Deleted in batches of `batchSize` rows, each
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

/** Tables kept 30 days, each with what makes a row settled (one still to be sent is kept whatever its age). */
const SETTLED = {
  WebhookDelivery: sql<boolean>`"status" <> 'pending'`,
  OutboxEvent: sql<boolean>`"relayedAt" IS NOT NULL`,
};

/** Deletes the table's settled rows older than `cutoff`, a batch per statement; returns how many. */
async function deleteInBatches(db: Database, table: keyof typeof SETTLED, cutoff: Date, batchSize: number): Promise<number> {
  const batch = sqlBuilder
    .deleteFrom(table)
    .where('id', 'in', (eb) =>
      eb.selectFrom(table).select('id').where('createdAt', '<', cutoff).where(SETTLED[table]).orderBy('createdAt').limit(batchSize).forUpdate().skipLocked(),
    )
    .returning('id');
  let total = 0;
  for (;;) {
    const rows = await db.sql(batch);
    total += rows.length;
    if (rows.length < batchSize) return total;
  }
}

export async function deleteExpiredEvents(db: Database, now = new Date(), batchSize = RETENTION_BATCH): Promise<RetentionResult> {
  const cutoff = new Date(now.getTime() - RETENTION_DAYS * DAY_MS);
  const deliveries = await deleteInBatches(db, 'WebhookDelivery', cutoff, batchSize);
  const events = await deleteInBatches(db, 'OutboxEvent', cutoff, batchSize);
  return { events, deliveries };
}
