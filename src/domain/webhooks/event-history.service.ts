import type { Database } from '../../infra/db.js';
import { Prisma } from '../../generated/prisma/client.js';
import { notFound } from '../../errors.js';
import type { Scope } from '../../scopes.js';
import { skipTake, toPage, type Page, type PageRequest } from '../pagination.js';
import { DELIVERY_COLUMNS, type DeliveryView } from './deliveries.service.js';
import { EVENT_TYPES, eventIdTime, type EventPayload, type EventType } from './events.service.js';
import { scopeForEvent } from './webhooks.service.js';

/**
 * The event history (decisions §6.5 `GET /events`): every recorded event (the outbox rows, kept 30 days) exactly
 * as delivered, PHI payloads thin as they were recorded. A key sees only the kinds it could subscribe to, i.e.
 * whose read scope it holds; another kind reads as absent, like another account's event.
 */

export interface EventFilter {
  type?: EventType | null;
  createdFrom?: Date | null;
  createdBefore?: Date | null;
}

export const visibleEventTypes = (scopes: ReadonlySet<Scope>): EventType[] => EVENT_TYPES.filter((type) => scopes.has(scopeForEvent(type)));

type ListRow = { payload: EventPayload | null; total: number };

/** Newest first, in ONE statement: the filtered count and the page along the (accountId, createdAt desc, id desc) index. */
export async function listEvents(db: Database, accountId: number, scopes: ReadonlySet<Scope>, filter: EventFilter, page: PageRequest): Promise<Page<EventPayload>> {
  const types = filter.type ? visibleEventTypes(scopes).filter((type) => type === filter.type) : visibleEventTypes(scopes);
  const { skip, take } = skipTake(page);
  const where = Prisma.sql`"accountId" = ${accountId} AND "type" = ANY(${types}::text[])
    ${filter.createdFrom ? Prisma.sql`AND "createdAt" >= ${filter.createdFrom}` : Prisma.empty}
    ${filter.createdBefore ? Prisma.sql`AND "createdAt" < ${filter.createdBefore}` : Prisma.empty}`;
  const rows = await db.sql<ListRow>(Prisma.sql`
    SELECT e."payload", c."total"
    FROM (SELECT count(*)::int AS "total" FROM "OutboxEvent" WHERE ${where}) c
    LEFT JOIN LATERAL (
      SELECT "payload" FROM "OutboxEvent" WHERE ${where} ORDER BY "createdAt" DESC, "id" DESC LIMIT ${take} OFFSET ${skip}
    ) e ON true`);
  const data = rows.flatMap((row) => (row.payload ? [row.payload] : []));
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
  const [row] = await db.sql<{ payload: EventPayload }>(Prisma.sql`
    SELECT "payload" FROM "OutboxEvent"
    WHERE "accountId" = ${accountId} ${createdAt ? Prisma.sql`AND "createdAt" = ${createdAt}` : Prisma.empty}
      AND "eventId" = ${eventId} AND "type" = ANY(${visibleEventTypes(scopes)}::text[])`);
  if (!row) throw notFound('event');
  return row.payload;
}

/**
 * The deliveries of a page of events, to subscriptions and to forms' `webhookUrl` alike, in ONE statement
 * (GraphQL's `Event.deliveries`, batched per request).
 */
export async function deliveriesOfEvents(db: Database, accountId: number, eventIds: readonly string[]): Promise<Map<string, DeliveryView[]>> {
  const rows = await db.sql<DeliveryView>(Prisma.sql`
    SELECT ${DELIVERY_COLUMNS} FROM "WebhookDelivery" d
    WHERE d."eventId" = ANY(${[...eventIds]}::text[]) AND d."accountId" = ${accountId}
    ORDER BY d."createdAt" DESC, d."id" DESC`);
  const byEvent = new Map<string, DeliveryView[]>(eventIds.map((id) => [id, []]));
  for (const row of rows) byEvent.get(row.eventId)?.push(row);
  return byEvent;
}
