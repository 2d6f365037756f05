import type { Database } from '../../infra/db.js';
import type { DeliveryStatus } from '../../generated/prisma/client.js';
import { sql, sqlBuilder } from '../../infra/sql.js';
import { AppError, notFound } from '../../errors.js';
import { skipTake, toPage, type Page, type PageRequest } from '../pagination.js';

/**
 * The delivery log of one subscription (contract §6.5): reads, shared by REST and GraphQL. Deliveries to a
 * form's `webhookUrl` have no subscription and are reached through their event instead (`deliveriesOfEvents`).
 * Never the target URL; the payload only in the detail.
 */

export interface DeliveryView {
  id: number;
  webhookId: number | null;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: number;
  lastAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
  /** Beyond the contract's object, for GraphQL dashboards. */
  formId: number | null;
  messageId: string;
  lastLatencyMs: number | null;
  deliveredAt: Date | null;
}

export interface AttemptView {
  at: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export interface DeliveryDetailView extends DeliveryView {
  /** The exact JSON body sent. */
  payload: unknown;
  attemptLog: AttemptView[];
}

/** The columns of a DeliveryView, in a statement on WebhookDelivery alone (no other table to name). */
export const DELIVERY_COLUMNS = [
  'id',
  'subscriptionId as webhookId',
  'eventId',
  'eventType',
  'status',
  'attempts',
  'lastAttemptAt',
  'lastStatusCode',
  'lastError',
  'nextAttemptAt',
  'createdAt',
  'formId',
  'messageId',
  'lastLatencyMs',
  'deliveredAt',
] as const;

export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'succeeded', 'failed'];

/** Live subscriptions of the account only: a deleted one, like another account's, reads as absent. */
export const ownedSubscription = (accountId: number, webhookId: number) =>
  sqlBuilder.selectFrom('WebhookSubscription').select(['id', 'event']).where('id', '=', webhookId).where('accountId', '=', accountId).where('deletedAt', 'is', null);

/** The deliveries of the subscription `w` (in a status, when given). */
const deliveriesOfW = (status: DeliveryStatus | null | undefined) => {
  const query = sqlBuilder.selectFrom('WebhookDelivery').where('subscriptionId', '=', sql.ref<number>('w.id'));
  return status ? query.where('status', '=', status) : query;
};

/**
 * A subscription's deliveries, newest first, in ONE statement: the subscription (scoped to the account), the
 * filtered count and the page read along the (subscriptionId[, status], createdAt desc, id desc) index.
 */
export async function listSubscriptionDeliveries(
  db: Database,
  accountId: number,
  webhookId: number,
  page: PageRequest,
  status?: DeliveryStatus | null,
): Promise<Page<DeliveryView>> {
  const { skip, take } = skipTake(page);
  const rows = await db.sql(
    sqlBuilder
      .selectFrom(ownedSubscription(accountId, webhookId).as('w'))
      .leftJoinLateral(
        () => deliveriesOfW(status).select(DELIVERY_COLUMNS).orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(take).offset(skip).as('d'),
        (join) => join.onTrue(),
      )
      .selectAll('d')
      .select(deliveriesOfW(status).select(sql<number>`count(*)::int`.as('n')).as('total')),
  );
  const first = rows[0];
  if (!first) throw notFound('webhook');
  // A row whose delivery id is set is a whole delivery (the join found one): its columns are as the table has them.
  const data = rows.filter((row) => row.id !== null).map(({ total: _total, ...view }) => view as DeliveryView);
  return toPage(data, page, first.total ?? 0);
}

/** A delivery of the account's subscription, in ONE statement (which tells a foreign webhook from a missing delivery). */
export async function getSubscriptionDelivery(
  db: Database,
  accountId: number,
  webhookId: number,
  deliveryId: number,
): Promise<DeliveryDetailView> {
  const [row] = await db.sql(
    sqlBuilder
      .selectFrom(ownedSubscription(accountId, webhookId).as('w'))
      .leftJoinLateral(
        () => deliveriesOfW(null).select(DELIVERY_COLUMNS).select(['payload', 'attemptLog']).where('id', '=', deliveryId).as('d'),
        (join) => join.onTrue(),
      )
      .selectAll('d'),
  );
  if (!row) throw notFound('webhook');
  if (row.id === null) throw notFound('delivery');
  // The join found the delivery (its id is set): its columns are as the table has them.
  return { ...(row as DeliveryView), id: row.id, payload: row.payload, attemptLog: row.attemptLog as AttemptView[] };
}

/** The longest replay window (contract §6.5): what retention keeps. */
export const MAX_REPLAY_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface ReplayWindow {
  createdFrom: Date;
  createdBefore: Date;
  /** Only failed deliveries. */
  onlyFailed: boolean;
}

/**
 * A date filter the database can compare: years 1 … 9999 (JavaScript dates reach far beyond what PostgreSQL
 * timestamps hold, and such a value would fail in the database instead of answering 400).
 */
export function assertFilterDate(field: string, date: Date | null | undefined): void {
  if (date === null || date === undefined) return;
  const year = date.getUTCFullYear();
  if (Number.isNaN(year) || year < 1 || year > 9999) {
    throw new AppError('validation_failed', { fields: [{ field, message: 'must be an ISO 8601 date-time between years 1 and 9999' }] });
  }
}

/** [createdFrom, createdBefore), at most 30 days, not inverted: else 400 validation_failed. */
export function assertReplayWindow(window: ReplayWindow): void {
  assertFilterDate('createdFrom', window.createdFrom);
  assertFilterDate('createdBefore', window.createdBefore);
  const span = window.createdBefore.getTime() - window.createdFrom.getTime();
  if (span <= 0) throw new AppError('validation_failed', { fields: [{ field: 'createdBefore', message: 'must be after createdFrom' }] });
  if (span > MAX_REPLAY_DAYS * DAY_MS) {
    throw new AppError('validation_failed', { fields: [{ field: 'createdBefore', message: `the window may span at most ${MAX_REPLAY_DAYS} days` }] });
  }
}
