import { z } from 'zod';
import type { Route } from '../route.js';
import { rowsOf } from '../rows.js';
import { idQueryParam } from './params.js';
import { ORDER_STATUSES } from '../../domain/widgets/shop.service.js';
import { createdRangeQuery } from '../../domain/list-filters.js';

const shopWidgets = rowsOf({ tag: 'Shop widgets', auth: 'apiKey' });
const orders = rowsOf({ tag: 'Orders', auth: 'apiKey' });

export const shopRoutes: Route[] = [
  shopWidgets.list('/ecommerce-widgets', {
    summary: 'List shop widgets',
    description:
      "The account's shop (ecommerce) widgets, newest first, with product, price, currency and orderCount; filter by domainId. Use it to find a shop widget's id before listing its orders. Needs read:ecommerce.",
    query: z.object({ domainId: idQueryParam.optional() }),
    operation: 'list-ecommerce-widgets',
  }),
  shopWidgets.read('/ecommerce-widgets/{id}', {
    operation: 'get-ecommerce-widget',
    summary: 'Get a shop widget',
    description:
      'One shop widget by id with its product, price, fulfilment, imageUrls, and for subscriptions interval and trialDays. Needs read:ecommerce.',
  }),
  orders.list('/ecommerce-widgets/{id}/orders', {
    summary: "List a shop widget's orders",
    description:
      "A shop widget's orders, newest first, with customer, amount, status and shipping; filter by one status and a createdAt window [createdFrom, createdBefore). Orders of cart/catalog collections are read with get-order. Needs read:orders.",
    query: z.object({ status: z.enum(ORDER_STATUSES).optional(), ...createdRangeQuery }),
    operation: 'list-ecommerce-widget-orders',
    walk: true,
    variables: ({ params, query }) => ({ ecommerceWidgetId: params.id, ...query }),
  }),
  orders.read('/orders/{id}', {
    operation: 'get-order',
    summary: 'Get an order',
    description:
      'One order by id, widget-mode (ecommerceWidgetId set) or cart/catalog (collectionId set): customer, amount, currency, status, shipping address and tracking. Needs read:orders.',
  }),
];
