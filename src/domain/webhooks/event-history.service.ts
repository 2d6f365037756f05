import type { Database } from '../../infra/db.js';
import { sql, sqlBuilder } from '../../infra/sql.js';
import { notFound } from '../../errors.js';
import type { Scope } from '../../scopes.js';
import { skipTake, toPage, type Page, type PageRequest } from '../pagination.js';
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

/** Newest first, in ONE statement: the filtered count and the page along the (accountId, createdAt desc, id desc) index. */
export async function listEvents(db: Database, accountId: number, scopes: ReadonlySet<Scope>, filter: EventFilter, page: PageRequest): Promise<Page<EventPayload>> {
  const types = filter.type ? visibleEventTypes(scopes).filter((type) => type === filter.type) : visibleEventTypes(scopes);
  const { skip, take } = skipTake(page);
  const filtered = () => {
    let query = sqlBuilder.selectFrom('OutboxEvent').where('accountId', '=', accountId).where(sql<boolean>`"type" = ANY(${types}::text[])`);
    if (filter.createdFrom) query = query.where('createdAt', '>=', filter.createdFrom);
    if (filter.createdBefore) query = query.where('createdAt', '<', filter.createdBefore);
    return query;
  };
  const rows = await db.sql(
    sqlBuilder
      .selectFrom(filtered().select(sql<number>`count(*)::int`.as('total')).as('c'))
      .leftJoinLateral(() => filtered().select('payload').orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(take).offset(skip).as('e'), (join) => join.onTrue())
      .select(['e.payload', 'c.total']),
  );
  // Payloads are written by events.service.ts's outbox insert only, as an EventPayload.
  const data = rows.flatMap((row) => (row.payload ? [row.payload as EventPayload] : []));
  return toPage(data, page, rows[0]?.total ?? 0);
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
