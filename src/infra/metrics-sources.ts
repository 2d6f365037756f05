import type { Database } from './db.js';
import { QUEUE, type JobQueue } from './jobs.js';
import { rawStatement, sql } from './sql.js';
import { setScrapeSources } from './metrics.js';

/**
 * The oldest waiting event by the relay's own index (relayedAt, id): one index probe per scrape, whatever the
 * history holds. createdAt is UTC without a zone (Prisma's `timestamp(3)`), so the age is taken in UTC too.
 */
const oldestWaitingEvent = rawStatement(sql<{ lag: number | string }>`
  SELECT EXTRACT(EPOCH FROM ((now() AT TIME ZONE 'UTC') - "createdAt"))::float8 AS "lag"
  FROM "OutboxEvent" WHERE "relayedAt" IS NULL ORDER BY "id" LIMIT 1`);

/** Wires `outbox_lag_seconds` and `job_queue_depth` to this process's database and queue (read at scrape time). */
export function observeDependencies(db: Pick<Database, 'sql'>, queue: JobQueue): void {
  setScrapeSources({
    async outboxLagSeconds() {
      const [row] = await db.sql(oldestWaitingEvent);
      return row ? Math.max(0, Number(row.lag)) : 0;
    },
    async queueDepths() {
      // pg-boss serves these from the counts its monitor caches on its queue table: no scan of the jobs.
      const names = Object.values(QUEUE);
      const stats = await Promise.all(names.map((name) => queue.boss.getQueueStats(name)));
      return Object.fromEntries(names.map((name, index) => [name, stats[index]?.[0]?.queuedCount ?? 0]));
    },
  });
}
