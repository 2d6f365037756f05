import type { ArgBuilder } from '@pothos/core';
import { queryFromInfo } from '@pothos/plugin-prisma';
import { requireApiKeyViewer } from '../context.js';
import type { Collection, EcommerceWidget } from '../generated/prisma/client.js';
import { normalizePagination, type Page } from '../domain/pagination.js';
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
  type CollectionQuery,
  type EcommerceWidgetQuery,
  type OrderListFilter,
  type OrderView,
} from '../domain/widgets/shop.service.js';
import type { BuilderTypes } from './pagination.js';
import { builder } from './builder.js';
import { DomainRef, SITE_REFERENCE } from './domain.js';
import { pageArgs, pageRef, listComplexity } from './pagination.js';

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
    domain: t.field({ type: DomainRef, select: SITE_REFERENCE, resolve: (widget) => widget.site }),
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
    domain: t.field({ type: DomainRef, select: SITE_REFERENCE, resolve: (widget) => widget.site }),
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

const OrderPage = pageRef('OrderPage', OrderRef);

const orderFilterArgs = (arg: ArgBuilder<BuilderTypes>) => ({
  ...pageArgs(arg),
  status: arg({ type: OrderStatusEnum }),
  createdFrom: arg({ type: 'DateTime', description: 'inclusive' }),
  createdBefore: arg({ type: 'DateTime', description: 'exclusive' }),
});

const orderFilter = (args: {
  page?: number | null;
  limit?: number | null;
  status?: OrderListFilter['status'];
  createdFrom?: Date | null;
  createdBefore?: Date | null;
}): OrderListFilter => ({
  ...normalizePagination(args.page, args.limit),
  status: args.status,
  createdFrom: args.createdFrom,
  createdBefore: args.createdBefore,
});

builder.queryFields((t) => ({
  ecommerceWidgets: t.field({
    type: EcommerceWidgetPage,
    description: 'Shop widgets (not archived), newest first; domainId narrows to one registered domain',
    authScopes: { scope: 'read:ecommerce' },
    complexity: listComplexity,
    args: { ...pageArgs(t.arg), domainId: t.arg.int() },
    resolve: async (_root, args, context, info) => {
      const viewer = requireApiKeyViewer(context);
      const query = queryFromInfo({ context, info, typeName: 'EcommerceWidget', path: ['data'] }) as EcommerceWidgetQuery;
      const page = normalizePagination(args.page, args.limit);
      return listEcommerceWidgets(context.deps.db.prisma, viewer.accountId, { ...page, domainId: args.domainId }, query) as Promise<Page<EcommerceWidget>>;
    },
  }),
  ecommerceWidget: t.prismaField({
    type: 'EcommerceWidget',
    authScopes: { scope: 'read:ecommerce' },
    args: { id: t.arg.int({ required: true }) },
    resolve: (query, _root, args, context) =>
      getEcommerceWidgetOrThrow(context.deps.db.prisma, requireApiKeyViewer(context).accountId, args.id, query as EcommerceWidgetQuery),
  }),
  ecommerceWidgetOrders: t.field({
    type: OrderPage,
    description: 'Widget-mode orders of a shop widget, newest first; optional status and createdAt range [createdFrom, createdBefore)',
    authScopes: { scope: 'read:orders' },
    complexity: listComplexity,
    args: { ecommerceWidgetId: t.arg.int({ required: true }), ...orderFilterArgs(t.arg) },
    resolve: (_root, args, context) =>
      listWidgetOrders(context.deps.db.prisma, requireApiKeyViewer(context).accountId, args.ecommerceWidgetId, orderFilter(args)),
  }),
  collections: t.field({
    type: CollectionPage,
    description: 'Cart/catalog collections, newest first',
    authScopes: { scope: 'read:ecommerce' },
    complexity: listComplexity,
    args: { ...pageArgs(t.arg), domainId: t.arg.int() },
    resolve: async (_root, args, context, info) => {
      const viewer = requireApiKeyViewer(context);
      const query = queryFromInfo({ context, info, typeName: 'Collection', path: ['data'] }) as CollectionQuery;
      const page = normalizePagination(args.page, args.limit);
      return listCollections(context.deps.db.prisma, viewer.accountId, { ...page, domainId: args.domainId }, query) as Promise<Page<Collection>>;
    },
  }),
  collection: t.prismaField({
    type: 'Collection',
    authScopes: { scope: 'read:ecommerce' },
    args: { id: t.arg.int({ required: true }) },
    resolve: (query, _root, args, context) =>
      getCollectionOrThrow(context.deps.db.prisma, requireApiKeyViewer(context).accountId, args.id, query as CollectionQuery),
  }),
  collectionOrders: t.field({
    type: OrderPage,
    description: 'Cart/catalog orders of a collection, newest first; optional status and createdAt range [createdFrom, createdBefore)',
    authScopes: { scope: 'read:orders' },
    complexity: listComplexity,
    args: { collectionId: t.arg.int({ required: true }), ...orderFilterArgs(t.arg) },
    resolve: (_root, args, context) =>
      listCollectionOrders(context.deps.db.prisma, requireApiKeyViewer(context).accountId, args.collectionId, orderFilter(args)),
  }),
  order: t.field({
    type: OrderRef,
    description: 'Any order of the account: widget-mode (ecommerceWidgetId set) or cart/catalog (collectionId set)',
    authScopes: { scope: 'read:orders' },
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, args, context) => getOrderOrThrow(context.deps.db, requireApiKeyViewer(context).accountId, args.id),
  }),
}));
