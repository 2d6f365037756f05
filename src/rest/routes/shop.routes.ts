import { z } from 'zod';
import type { Route } from '../route.js';
import { rowsOf } from '../rows.js';
import { idQueryParam } from './params.js';
import { ORDER_STATUSES } from '../../domain/widgets/shop.service.js';
import { createdRangeQuery } from '../../domain/list-filters.js';

const shopWidgets = rowsOf({ tag: 'Shop widgets', auth: 'apiKey', scope: 'read:ecommerce' });
const orders = rowsOf({ tag: 'Orders', auth: 'apiKey', scope: 'read:orders' });

export const shopRoutes: Route[] = [
  shopWidgets.list('/ecommerce-widgets', {
    summary: 'List shop widgets with their order counts, newest first',
    query: z.object({ domainId: idQueryParam.optional() }),
    operation: 'ecommerce-widgets-list',
    variables: ({ query }) => query,
  }),
  shopWidgets.read('/ecommerce-widgets/{id}', { operation: 'ecommerce-widget-get', summary: 'Read a shop widget with imageUrls, interval and trialDays' }),
  orders.list('/ecommerce-widgets/{id}/orders', {
    summary: 'List a shop widget’s widget-mode orders, newest first; optional status and createdAt window [createdFrom, createdBefore)',
    query: z.object({ status: z.enum(ORDER_STATUSES).optional(), ...createdRangeQuery }),
    operation: 'ecommerce-widget-orders-list',
    variables: ({ params, query }) => ({ ecommerceWidgetId: params.id, ...query }),
  }),
  orders.read('/orders/{id}', { operation: 'order-get', summary: 'Read an order: widget-mode (ecommerceWidgetId set) or cart/catalog (collectionId set)' }),
];
