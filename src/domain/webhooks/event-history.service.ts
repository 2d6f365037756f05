import type { Database } from '../../infra/db.js';
import { sql, sqlBuilder } from '../../infra/sql.js';
import { notFound } from '../../errors.js';
import type { Scope } from '../../scopes.js';
import { cursorModePage, pageModePage, skipTake, type WalkPage, type WalkRequest } from '../pagination.js';
import { decodeCursor, encodeCursor, type ListKey, type ListPosition } from '../list-cursor.js';
import { DELIVERY_COLUMNS, type DeliveryView } from './deliveries.service.js';
import { EVENT_TYPES, eventIdTime, type EventPayload, type EventType } from './events.service.js';
import { scopeForEvent } from './webhooks.service.js';

/**
 * The event history (contract §6.5 `GET /events`): every recorded event (the outbox rows, kept 30 days) exactly
 * as delivered, PHI payloads thin as they were recorded. A key sees only the kinds it could subscribe to, i.e.
 * whose read scope it holds; another kind reads as absent, like another account's event.
 */

export interface EventFilter {
  type?: EventType | null;
  createdFrom?: Date | null;
  createdBefore?: Date | null;
}

export const visibleEventTypes = (scopes: ReadonlySet<Scope>): EventType[] => EVENT_TYPES.filter((type) => scopes.has(scopeForEvent(type)));

/** The list an events cursor walks: one account's events with one type and window (the key's kinds apply anyway). */
export const eventsListKey = (accountId: number, filter: EventFilter): ListKey => ({
  accountId,
  list: 'events',
  filters: { type: filter.type, createdFrom: filter.createdFrom, createdBefore: filter.createdBefore },
});

/**
 * Newest first, in ONE statement along the (accountId, createdAt desc, id desc) index: in page mode the filtered
 * count (once, in its own subquery) and the page; in cursor mode (§7.6) `limit + 1` rows after the cursor's position
 * and no count.
 */
export async function listEvents(db: Database, accountId: number, scopes: ReadonlySet<Scope>, filter: EventFilter, request: WalkRequest): Promise<WalkPage<EventPayload>> {
  const types = filter.type ? visibleEventTypes(scopes).filter((type) => type === filter.type) : visibleEventTypes(scopes);
  const key = eventsListKey(accountId, filter);
  const after = request.after !== null ? decodeCursor(key, request.after) : null;
  const filtered = () => {
    let query = sqlBuilder.selectFrom('OutboxEvent').where('accountId', '=', accountId).where(sql<boolean>`"type" = ANY(${types}::text[])`);
    if (filter.createdFrom) query = query.where('createdAt', '>=', filter.createdFrom);
    if (filter.createdBefore) query = query.where('createdAt', '<', filter.createdBefore);
    return query;
  };
  const rowsOf = (rows: { payload: unknown; id: number | null; createdAt: Date | null }[]) =>
    // Payloads are written by events.service.ts's outbox insert only, as an EventPayload.
    rows.flatMap((row) => (row.payload && row.id !== null && row.createdAt !== null ? [{ payload: row.payload as EventPayload, id: row.id, createdAt: row.createdAt }] : []));
  const nextOf = (last: ListPosition) => encodeCursor(key, last);
  const payloads = <T extends { payload: EventPayload }>(page: WalkPage<T>): WalkPage<EventPayload> => ({ ...page, data: page.data.map((row) => row.payload) });
  if (after) {
    const rows = await db.sql(
      filtered()
        .select(['payload', 'id', 'createdAt'])
        .where(sql<boolean>`("createdAt", "id") < (${after.createdAt}, ${after.id})`)
        .orderBy('createdAt', 'desc')
        .orderBy('id', 'desc')
        .limit(request.limit + 1),
    );
    return payloads(cursorModePage(rowsOf(rows), request.limit, nextOf));
  }
  const page = { page: request.page ?? 1, limit: request.limit };
  const { skip, take } = skipTake(page);
  const rows = await db.sql(
    sqlBuilder
      .selectFrom(filtered().select(sql<number>`count(*)::int`.as('total')).as('c'))
      .leftJoinLateral(() => filtered().select(['payload', 'id', 'createdAt']).orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(take).offset(skip).as('e'), (join) => join.onTrue())
      .select(['e.payload', 'e.id', 'e.createdAt', 'c.total']),
  );
  return payloads(pageModePage(rowsOf(rows), page, rows[0]?.total ?? 0, nextOf));
}

/**
 * One event, found through the (accountId, createdAt) index by the time its id carries; an id without one (events
 * recorded before ids carried it, for their 30 days) is looked for among the account's events.
 */
export async function getEventOrThrow(db: Database, accountId: number, scopes: ReadonlySet<Scope>, eventId: string): Promise<EventPayload> {
  // PostgreSQL stores no NUL (and refuses one as a text parameter): such an id names no event (was a 500 on /v1/events/%00).
  if (eventId.includes('\u0000')) throw notFound('event');
  const createdAt = eventIdTime(eventId);
  let query = sqlBuilder.selectFrom('OutboxEvent').select('payload').where('accountId', '=', accountId);
  if (createdAt) query = query.where('createdAt', '=', createdAt);
  const [row] = await db.sql(query.where('eventId', '=', eventId).where(sql<boolean>`"type" = ANY(${visibleEventTypes(scopes)}::text[])`));
  if (!row) throw notFound('event');
  return row.payload as EventPayload;
}

/**
 * The deliveries of a page of events, to subscriptions and to forms' `webhookUrl` alike, in ONE statement
 * (GraphQL's `Event.deliveries`, batched per request).
 */
export async function deliveriesOfEvents(db: Database, accountId: number, eventIds: readonly string[]): Promise<Map<string, DeliveryView[]>> {
  const rows = await db.sql(
    sqlBuilder
      .selectFrom('WebhookDelivery')
      .select(DELIVERY_COLUMNS)
      .where(sql<boolean>`"eventId" = ANY(${[...eventIds]}::text[])`)
      .where('accountId', '=', accountId)
      .orderBy('createdAt', 'desc')
      .orderBy('id', 'desc'),
  );
  const byEvent = new Map<string, DeliveryView[]>(eventIds.map((id) => [id, []]));
  for (const row of rows) byEvent.get(row.eventId)?.push(row);
  return byEvent;
}
