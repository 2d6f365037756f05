import type { SqlExecutor } from '../../infra/db-driver.js';
import { preparedQuery, sqlBuilder } from '../../infra/sql.js';
import { notFound } from '../../errors.js';
import type { Collection, EcommerceWidget, Order, OrderStatus, Prisma, PrismaClient } from '../../generated/prisma/client.js';
import { activeWidgetsWhere, walkCountedWidgetRows, widgetRowsWhere, type WidgetListFilter, type WidgetRowsFilter } from './widget-lists.js';
import { assertCreatedRange } from '../list-filters.js';
import { NEWEST_FIRST, pageOf, walkPageOf, type Page, type WalkPage } from '../pagination.js';
import type { ListKey } from '../list-cursor.js';
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

export type WidgetOrderListFilter = WidgetRowsFilter<OrderStatus>;

/** The list an orders cursor walks: one widget's orders with one status and window. */
export const ordersListKey = (accountId: number, widgetId: number, filter: WidgetOrderListFilter): ListKey => ({
  accountId,
  list: `ecommerce-widget:${widgetId}:orders`,
  filters: { status: filter.status, createdFrom: filter.createdFrom, createdBefore: filter.createdBefore },
});

/**
 * Widget-mode orders of a shop widget (archived ones included), newest first, in two statements
 * (walkCountedWidgetRows) along the (ecommerceWidgetId[, status], createdAt) indexes, the total from orderCount.
 */
export function listWidgetOrders(prisma: Db, accountId: number, widgetId: number, filter: WidgetOrderListFilter): Promise<WalkPage<OrderView>> {
  const owner = { id: widgetId, accountId };
  const where: Prisma.OrderWhereInput = widgetRowsWhere({ ecommerceWidgetId: widgetId }, filter);
  return walkCountedWidgetRows(
    filter,
    ordersListKey(accountId, widgetId, filter),
    'ecommerce_widget',
    async (countWhere) => {
      if (!countWhere) {
        const widget = await prisma.ecommerceWidget.findFirst({ where: owner, select: { orderCount: true } });
        return widget && { counter: widget.orderCount };
      }
      const widget = await prisma.ecommerceWidget.findFirst({ where: owner, select: { orderCount: true, _count: { select: { orders: { where: countWhere } } } } });
      return widget && { counter: widget.orderCount, counted: widget._count.orders };
    },
    ({ after, ...window }) => prisma.order.findMany({ where: after ? { AND: [where, after] } : where, select: ORDER_COLUMNS, orderBy: NEWEST_FIRST, ...window }),
  );
}

/** Cart/catalog orders of a collection, newest first (collections keep no counter: counted along their index); walkable by cursor like a widget's. */
export async function listCollectionOrders(prisma: Db, accountId: number, collectionId: number, filter: WidgetOrderListFilter): Promise<WalkPage<OrderView>> {
  assertCreatedRange(filter);
  const where: Prisma.OrderWhereInput = widgetRowsWhere({ collectionId }, filter);
  const key: ListKey = { accountId, list: `collection:${collectionId}:orders`, filters: ordersListKey(accountId, collectionId, filter).filters };
  return walkPageOf(
    filter,
    key,
    async (counting) => {
      await getCollectionOrThrow(prisma, accountId, collectionId, { select: { id: true } });
      return counting ? prisma.order.count({ where }) : 0;
    },
    ({ after, ...window }) => prisma.order.findMany({ where: after ? { AND: [where, after] } : where, select: ORDER_COLUMNS, orderBy: NEWEST_FIRST, ...window }),
  );
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
