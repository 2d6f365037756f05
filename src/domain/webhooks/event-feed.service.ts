import type { Database } from '../../infra/db.js';
import type { SqlExecutor } from '../../infra/db-driver.js';
import { rawStatement, sql } from '../../infra/sql.js';
import { eventIdTime, type EventPayload, type EventType } from './events.service.js';

/**
 * The event history read in commit-safe order, for the live streams (contract §7.2). The order is (txid, id): the
 * writing transaction's id, then the row id. Neither alone is safe to resume after: both are assigned before
 * commit, so a row with a later id (or txid) can become visible before an earlier one. A row is therefore read only
 * once every transaction whose id is below its txid has ended, i.e. txid < the snapshot's xmin (the oldest
 * transaction still running): no row can appear later behind a position once it was read past.
 */

/** The channel the OutboxEvent insert trigger notifies at commit (migration outbox_notify): a wake-up, no data. */
export const OUTBOX_CHANNEL = 'outbox_event';

/** A place in the feed: (txid, id), txid as decimal text (a bigint). `id` 0 means "before every row of txid". */
export interface FeedPosition {
  txid: string;
  id: number;
}

export interface FeedRow extends FeedPosition {
  accountId: number;
  type: EventType;
  payload: EventPayload;
}

/**
 * Transaction ids are canonical decimal text (PostgreSQL's bigint::text: no sign, no leading zero), so the shorter
 * is the smaller and equal lengths compare as text: no BigInt per comparison (each open stream compares every row
 * its replica reads).
 */
export function comparePositions(a: FeedPosition, b: FeedPosition): number {
  if (a.txid !== b.txid) {
    if (a.txid.length !== b.txid.length) return a.txid.length - b.txid.length;
    return a.txid < b.txid ? -1 : 1;
  }
  return a.id - b.id;
}

export interface FeedRead {
  rows: FeedRow[];
  /** Every row before (watermark, 0) is committed or never will be: where a read that returned all rows leaves off. */
  watermark: FeedPosition;
}

interface FeedFilter {
  after: FeedPosition;
  /** One account's rows of these kinds (a stream catching up); every account's rows otherwise (a replica's tail). */
  account?: { accountId: number; types: readonly EventType[] };
  /** Inclusive bound (the tail's position), so that a catch-up ends exactly where the live rows begin. */
  upTo?: FeedPosition;
  limit: number;
}

type RawRow = { txid: string | null; id: number | null; accountId: number | null; type: EventType | null; payload: EventPayload | null; watermark: string };

/** Rows after `after`, oldest first, only those below the watermark; ONE statement (the watermark comes with them). */
export async function readFeed(db: SqlExecutor, filter: FeedFilter): Promise<FeedRead> {
  const { after, account, upTo, limit } = filter;
  const accountClause = account ? sql`AND "accountId" = ${account.accountId} AND "type" = ANY(${[...account.types]}::text[])` : sql``;
  const upToClause = upTo ? sql`AND ("txid", "id") <= (${upTo.txid}::bigint, ${upTo.id}::int)` : sql``;
  const rows = await db.sql(
    rawStatement(sql<RawRow>`
      WITH w AS (SELECT (pg_snapshot_xmin(pg_current_snapshot())::text)::bigint AS xmin)
      SELECT e."txid", e."id", e."accountId", e."type", e."payload", w.xmin::text AS watermark
      FROM w LEFT JOIN LATERAL (
        SELECT "txid"::text AS "txid", "id", "accountId", "type", "payload" FROM "OutboxEvent"
        WHERE ("txid", "id") > (${after.txid}::bigint, ${after.id}::int) AND "txid" < w.xmin ${accountClause} ${upToClause}
        ORDER BY "txid", "id" LIMIT ${limit}
      ) e ON true`),
  );
  const watermark = { txid: rows[0]?.watermark ?? after.txid, id: 0 };
  const read: FeedRow[] = [];
  for (const row of rows) {
    if (row.txid === null || row.id === null || row.accountId === null || row.type === null || row.payload === null) continue;
    read.push({ txid: row.txid, id: row.id, accountId: row.accountId, type: row.type, payload: row.payload });
  }
  return { rows: read, watermark };
}

/**
 * Which transactions had committed when a snapshot was taken (PostgreSQL's pg_snapshot): those below `xmin`, and
 * those below `xmax` not `running`. A stream that starts "from the moment of connection" skips the rows of these:
 * its starting position is a watermark, which an older transaction still running (anywhere on the server) holds
 * below rows that had committed before the connection.
 */
export interface CommittedBefore {
  xmin: bigint;
  xmax: bigint;
  running: ReadonlySet<bigint>;
}

export async function committedNow(db: SqlExecutor): Promise<CommittedBefore> {
  const [row] = await db.sql(rawStatement(sql<{ snapshot: string }>`SELECT pg_current_snapshot()::text AS "snapshot"`));
  const [xmin = '0', xmax = '0', running = ''] = (row?.snapshot ?? '').split(':');
  return { xmin: BigInt(xmin), xmax: BigInt(xmax), running: new Set(running ? running.split(',').map(BigInt) : []) };
}

export function committedIn(snapshot: CommittedBefore, txid: string): boolean {
  const id = BigInt(txid);
  return id < snapshot.xmin || (id < snapshot.xmax && !snapshot.running.has(id));
}

/**
 * Where a stream resumes after `eventId`, any retained event of the account (contract §7.2 "resume"), or null. Found
 * through the (accountId, createdAt) index by the time the id carries, as `GET /events/{id}`.
 */
export async function feedPositionOf(db: Database, accountId: number, eventId: string): Promise<FeedPosition | null> {
  if (eventId.includes('\u0000')) return null;
  const createdAt = eventIdTime(eventId);
  const timeClause = createdAt ? sql`AND "createdAt" = ${createdAt}` : sql``;
  const [row] = await db.sql(
    rawStatement(sql<FeedPosition>`SELECT "txid"::text AS "txid", "id" FROM "OutboxEvent" WHERE "accountId" = ${accountId} ${timeClause} AND "eventId" = ${eventId}`),
  );
  return row ?? null;
}
