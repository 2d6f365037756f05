import { z } from 'zod';
import { defineRoute, type Route } from '../route.js';
import { idQueryParam } from './params.js';
import { ORDER_STATUSES } from '../../domain/widgets/shop.service.js';
import { createdRangeQuery } from '../../domain/list-filters.js';

export const shopRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/ecommerce-widgets',
    summary: 'List shop widgets with their order counts, newest first',
    tag: 'Shop widgets',
    auth: 'apiKey',
    scope: 'read:ecommerce',
    paginated: true,
    query: z.object({ domainId: idQueryParam.optional() }),
    operation: 'ecommerce-widgets-list',
    variables: ({ query }) => query,
    success: { status: 200 },
  }),
  defineRoute({
    method: 'GET',
    path: '/ecommerce-widgets/{id}',
    summary: 'Read a shop widget with imageUrls, interval and trialDays',
    tag: 'Shop widgets',
    auth: 'apiKey',
    scope: 'read:ecommerce',
    operation: 'ecommerce-widget-get',
    variables: ({ params }) => ({ id: params.id }),
    success: { status: 200 },
  }),
  defineRoute({
    method: 'GET',
    path: '/ecommerce-widgets/{id}/orders',
    summary: 'List a shop widget’s widget-mode orders, newest first; optional status and createdAt window [createdFrom, createdBefore)',
    tag: 'Orders',
    auth: 'apiKey',
    scope: 'read:orders',
    paginated: true,
    query: z.object({ status: z.enum(ORDER_STATUSES).optional(), ...createdRangeQuery }),
    operation: 'ecommerce-widget-orders-list',
    variables: ({ params, query }) => ({ ecommerceWidgetId: params.id, ...query }),
    success: { status: 200 },
  }),
  defineRoute({
    method: 'GET',
    path: '/orders/{id}',
    summary: 'Read an order: widget-mode (ecommerceWidgetId set) or cart/catalog (collectionId set)',
    tag: 'Orders',
    auth: 'apiKey',
    scope: 'read:orders',
    operation: 'order-get',
    variables: ({ params }) => ({ id: params.id }),
    success: { status: 200 },
  }),
];
