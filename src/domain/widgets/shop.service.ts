import type { SqlExecutor } from '../../infra/db-driver.js';
import { preparedQuery, sqlBuilder } from '../../infra/sql.js';
import { notFound } from '../../errors.js';
import type { Collection, EcommerceWidget, Order, OrderStatus, Prisma, PrismaClient } from '../../generated/prisma/client.js';
import { activeWidgetsWhere, countedCreatedAt, createdAtRange, filteredTotal, type WidgetListFilter } from './calendars.service.js';
import { assertCreatedRange, totalPlan, type CreatedRange } from '../list-filters.js';
import { NEWEST_FIRST, pageOf, type Page, type PageRequest } from '../pagination.js';
import { isPlainObject } from '../validation.js';

/* Shop widgets, collections and their orders: read-only in v1. Payment-provider ids (providerPriceId,
   providerPaymentId), download URLs and signed download tokens are never selected for an order and never
   exposed as a field of a widget. */

type Db = PrismaClient | Prisma.TransactionClient;
export type EcommerceWidgetQuery = Omit<Prisma.EcommerceWidgetFindManyArgs, 'where' | 'orderBy' | 'skip' | 'take' | 'cursor'>;
export type CollectionQuery = Omit<Prisma.CollectionFindManyArgs, 'where' | 'orderBy' | 'skip' | 'take' | 'cursor'>;

/** Archived shop widgets leave the lists and answer 404, like archived forms; their orders stay readable. */
export async function listEcommerceWidgets(prisma: Db, accountId: number, filter: WidgetListFilter, query: EcommerceWidgetQuery = {}): Promise<Page<EcommerceWidget>> {
  const where: Prisma.EcommerceWidgetWhereInput = activeWidgetsWhere(accountId, filter);
  const total = await prisma.ecommerceWidget.count({ where });
  return pageOf(filter, total, (window) => prisma.ecommerceWidget.findMany({ ...query, where, orderBy: NEWEST_FIRST, ...window }));
}

export async function getEcommerceWidgetOrThrow(prisma: Db, accountId: number, id: number, query: EcommerceWidgetQuery = {}): Promise<EcommerceWidget> {
  const widget = await prisma.ecommerceWidget.findFirst({ ...query, where: { id, accountId, archivedAt: null } });
  if (!widget) throw notFound('ecommerce_widget');
  return widget;
}

export async function listCollections(prisma: Db, accountId: number, filter: WidgetListFilter, query: CollectionQuery = {}): Promise<Page<Collection>> {
  const where: Prisma.CollectionWhereInput = { accountId, ...(filter.domainId != null && { siteId: filter.domainId }) };
  const total = await prisma.collection.count({ where });
  return pageOf(filter, total, (window) => prisma.collection.findMany({ ...query, where, orderBy: NEWEST_FIRST, ...window }));
}

export async function getCollectionOrThrow(prisma: Db, accountId: number, id: number, query: CollectionQuery = {}): Promise<Collection> {
  const collection = await prisma.collection.findFirst({ ...query, where: { id, accountId } });
  if (!collection) throw notFound('collection');
  return collection;
}

/** Exactly the documented order columns: the hidden ones are not even read. */
export const ORDER_COLUMNS = {
  id: true,
  ecommerceWidgetId: true,
  collectionId: true,
  customerName: true,
  customerEmail: true,
  customerPhone: true,
  amountCents: true,
  currency: true,
  status: true,
  shippingAddress: true,
  trackingNumber: true,
  trackingCarrier: true,
  shippedAt: true,
  createdAt: true,
} as const satisfies Prisma.OrderSelect;

export type OrderView = Pick<Order, keyof typeof ORDER_COLUMNS>;

const ORDER_COLUMN_NAMES = Object.keys(ORDER_COLUMNS) as (keyof typeof ORDER_COLUMNS)[];

const orderById = preparedQuery((_shape: null, values: { accountId: number; id: number }) =>
  sqlBuilder.selectFrom('Order').select(ORDER_COLUMN_NAMES).where('id', '=', values.id).where('accountId', '=', values.accountId),
);

/** Decisions §4: the keys of `shippingAddress`, as stored. */
export const SHIPPING_ADDRESS_KEYS = ['name', 'line1', 'line2', 'city', 'state', 'postalCode', 'country'] as const;

/** The documented keys the stored address has, values as stored; any other key in the column is not shown. */
export function shippingAddressV1(value: Prisma.JsonValue | null): Record<string, unknown> | null {
  if (!isPlainObject(value)) return null;
  return Object.fromEntries(SHIPPING_ADDRESS_KEYS.filter((key) => key in value).map((key) => [key, value[key]]));
}

/** The documented order status set (v1 "Order status values"): the status filter accepts one of them. */
export const ORDER_STATUSES = ['paid', 'shipped', 'refunded', 'failed'] as const satisfies readonly OrderStatus[];

export interface OrderListFilter extends PageRequest, CreatedRange {
  status?: OrderStatus | null;
}

function orderWhere(owner: Prisma.OrderWhereInput, filter: OrderListFilter): Prisma.OrderWhereInput {
  const range = createdAtRange(filter);
  return { ...owner, ...(filter.status != null && { status: filter.status }), ...(range && { createdAt: range }) };
}

async function pageOfOrders(prisma: Db, where: Prisma.OrderWhereInput, filter: OrderListFilter, total: number): Promise<Page<OrderView>> {
  return pageOf(filter, total, (window) => prisma.order.findMany({ where, select: ORDER_COLUMNS, orderBy: NEWEST_FIRST, ...window }));
}

/**
 * Widget-mode orders of a shop widget (archived ones included), newest first, in two statements whether
 * filtered or not: the widget with its total (its counter, or a count of the filter's rows folded into the same
 * read along the (ecommerceWidgetId[, status], createdAt) indexes), then the page.
 */
export async function listWidgetOrders(prisma: Db, accountId: number, widgetId: number, filter: OrderListFilter): Promise<Page<OrderView>> {
  assertCreatedRange(filter);
  const plan = totalPlan(filter, filter.status != null);
  const counted = countedCreatedAt(plan, filter);
  const owner = { id: widgetId, accountId };
  // Two reads of one shape, so that the unfiltered one carries no count at all.
  const widget =
    plan.kind === 'counter'
      ? await prisma.ecommerceWidget.findFirst({ where: owner, select: { orderCount: true } })
      : await prisma.ecommerceWidget.findFirst({ where: owner, select: { orderCount: true, _count: { select: { orders: { where: { ...(filter.status != null && { status: filter.status }), ...(counted && { createdAt: counted }) } } } } } });
  if (!widget) throw notFound('ecommerce_widget');
  const total = filteredTotal(plan, widget.orderCount, '_count' in widget ? (widget._count as { orders: number }).orders : undefined);
  return pageOfOrders(prisma, orderWhere({ ecommerceWidgetId: widgetId }, filter), filter, total);
}

/** Cart/catalog orders of a collection, newest first (collections keep no counter: counted along their index). */
export async function listCollectionOrders(prisma: Db, accountId: number, collectionId: number, filter: OrderListFilter): Promise<Page<OrderView>> {
  assertCreatedRange(filter);
  await getCollectionOrThrow(prisma, accountId, collectionId, { select: { id: true } });
  const where = orderWhere({ collectionId }, filter);
  return pageOfOrders(prisma, where, filter, await prisma.order.count({ where }));
}

/**
 * Any order of the account, widget-mode or collection; another account's order is an absent one. A hot single
 * read (`GET /orders/{id}`): typed SQL on the driver, not Prisma's client, whose per-query overhead was most of it.
 */
export async function getOrderOrThrow(db: SqlExecutor, accountId: number, id: number): Promise<OrderView> {
  const [order] = await db.sql(orderById(null, { accountId, id }));
  if (!order) throw notFound('order');
  return { ...order, shippingAddress: order.shippingAddress as Prisma.JsonValue };
}
