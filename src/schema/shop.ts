import { requireApiKeyViewer } from '../context.js';
import {
  getCollectionOrThrow,
  getEcommerceWidgetOrThrow,
  getOrderOrThrow,
  listCollectionOrders,
  listCollections,
  listEcommerceWidgets,
  listWidgetOrders,
  ORDER_STATUSES,
  shippingAddressV1,
  type OrderView,
} from '../domain/widgets/shop.service.js';
import { builder } from './builder.js';
import { DomainRef, SITE_REFERENCE } from './domain.js';
import { siteDomain } from '../domain/verification/site-domain.js';
import { statusFilter, statusFilterArgs } from './list-filters.js';
import { pageRef, walkField, walkPageRef, type QueryFieldBuilder } from './pagination.js';
import { widgetField, widgetListField } from './widget-list.js';

/* Shop widgets, collections and orders (read-only). Payment-provider ids, download URLs and download tokens
   have no field: they cannot be selected, so they cannot leak. */

const ShopWidgetTypeEnum = builder.enumType('ShopWidgetType', { values: ['one_time', 'subscription', 'donation'] as const });
const FulfilmentTypeEnum = builder.enumType('FulfilmentType', { values: ['digital', 'service', 'physical'] as const });
const BillingIntervalEnum = builder.enumType('BillingInterval', { values: ['day', 'week', 'month', 'year'] as const });
export const OrderStatusEnum = builder.enumType('OrderStatus', { values: ORDER_STATUSES });

export const EcommerceWidgetRef = builder.prismaObject('EcommerceWidget', {
  fields: (t) => ({
    id: t.exposeInt('id'),
    name: t.exposeString('name'),
    type: t.field({ type: ShopWidgetTypeEnum, select: { type: true }, resolve: (w) => w.type }),
    productName: t.exposeString('productName'),
    description: t.exposeString('description', { nullable: true }),
    priceCents: t.exposeInt('priceCents', { nullable: true, description: 'minor currency units' }),
    currency: t.exposeString('currency', { description: 'lowercase currency code' }),
    fulfilmentType: t.field({ type: FulfilmentTypeEnum, select: { fulfilmentType: true }, resolve: (w) => w.fulfilmentType }),
    imageUrl: t.exposeString('imageUrl', { nullable: true }),
    domain: t.field({ type: DomainRef, select: SITE_REFERENCE, resolve: (widget) => siteDomain(widget.site) }),
    orderCount: t.exposeInt('orderCount', { description: 'widget-mode orders of any status; a counter column, never a count of rows' }),
    imageUrls: t.exposeStringList('imageUrls'),
    interval: t.field({ type: BillingIntervalEnum, nullable: true, select: { interval: true }, resolve: (w) => w.interval }),
    trialDays: t.exposeInt('trialDays', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const EcommerceWidgetPage = pageRef('EcommerceWidgetPage', EcommerceWidgetRef);

export const CollectionRef = builder.prismaObject('Collection', {
  description: 'A cart/catalog collection; its orders carry collectionId',
  fields: (t) => ({
    id: t.exposeInt('id'),
    name: t.exposeString('name'),
    domain: t.field({ type: DomainRef, select: SITE_REFERENCE, resolve: (widget) => siteDomain(widget.site) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const CollectionPage = pageRef('CollectionPage', CollectionRef);

export const OrderRef = builder.objectRef<OrderView>('Order').implement({
  fields: (t) => ({
    id: t.exposeInt('id'),
    ecommerceWidgetId: t.exposeInt('ecommerceWidgetId', { nullable: true, description: 'set on widget-mode orders' }),
    collectionId: t.exposeInt('collectionId', { nullable: true, description: 'set on cart/catalog orders' }),
    customerName: t.exposeString('customerName', { nullable: true }),
    customerEmail: t.exposeString('customerEmail'),
    customerPhone: t.exposeString('customerPhone', { nullable: true }),
    amountCents: t.exposeInt('amountCents'),
    currency: t.exposeString('currency'),
    status: t.field({ type: OrderStatusEnum, resolve: (o) => o.status }),
    shippingAddress: t.field({
      type: 'JSON',
      nullable: true,
      description: 'keys name, line1, line2, city, state, postalCode, country as stored',
      resolve: (o) => shippingAddressV1(o.shippingAddress),
    }),
    trackingNumber: t.exposeString('trackingNumber', { nullable: true }),
    trackingCarrier: t.exposeString('trackingCarrier', { nullable: true }),
    shippedAt: t.expose('shippedAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const OrderPage = walkPageRef('OrderPage', OrderRef);

const requiredId = (t: QueryFieldBuilder) => t.arg.int({ required: true });

/** The orders of one shop widget or collection, newest first, filtered by status and createdAt (contract §6.1). */
function ordersField<Parent extends 'ecommerceWidgetId' | 'collectionId'>(t: QueryFieldBuilder, parent: Parent, what: string, list: typeof listWidgetOrders) {
  // The parent's id argument keeps its v1 name (ecommerceWidgetId, collectionId).
  const parentArg = { [parent]: requiredId(t) } as Record<Parent, ReturnType<typeof requiredId>>;
  return walkField(t, {
    type: OrderPage,
    description: `${what}, newest first; optional status and createdAt range [createdFrom, createdBefore)`,
    authScopes: { scope: 'read:orders' },
    args: { ...parentArg, ...statusFilterArgs(t.arg, OrderStatusEnum) },
    resolve: (args, page, context) =>
      // TypeScript cannot index Pothos' argument shape by a generic key: it is the required int declared above.
      list(context.deps.db.prisma, requireApiKeyViewer(context).accountId, (args as unknown as Record<Parent, number>)[parent], { ...page, ...statusFilter(args) }),
  });
}

builder.queryFields((t) => ({
  ecommerceWidgets: widgetListField(t, {
    type: EcommerceWidgetPage,
    typeName: 'EcommerceWidget',
    description: 'Shop widgets (not archived), newest first; domainId narrows to one registered domain',
    scope: 'read:ecommerce',
    list: listEcommerceWidgets,
  }),
  ecommerceWidget: widgetField(t, 'EcommerceWidget', 'read:ecommerce', getEcommerceWidgetOrThrow),
  ecommerceWidgetOrders: ordersField(t, 'ecommerceWidgetId', 'Widget-mode orders of a shop widget', listWidgetOrders),
  collections: widgetListField(t, {
    type: CollectionPage,
    typeName: 'Collection',
    description: 'Cart/catalog collections, newest first',
    scope: 'read:ecommerce',
    list: listCollections,
  }),
  collection: widgetField(t, 'Collection', 'read:ecommerce', getCollectionOrThrow),
  collectionOrders: ordersField(t, 'collectionId', 'Cart/catalog orders of a collection', listCollectionOrders),
  order: t.field({
    type: OrderRef,
    description: 'Any order of the account: widget-mode (ecommerceWidgetId set) or cart/catalog (collectionId set)',
    authScopes: { scope: 'read:orders' },
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, args, context) => getOrderOrThrow(context.deps.db, requireApiKeyViewer(context).accountId, args.id),
  }),
}));
