import { z } from 'zod';
import { CATALOG_KINDS } from '../../domain/widgets/site-catalog.service.js';
import { defineRoute, type Route } from '../route.js';

export const siteCatalogRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/site-catalog',
    summary: 'List the site’s active widgets (forms, calendars, shop widgets) with embed snippets, newest first',
    tag: 'Site catalog',
    auth: 'siteKey',
    scope: null,
    paginated: true,
    // Any other kind is 400 validation_failed with fields (the facade's query parsing).
    query: z.object({ kind: z.enum(CATALOG_KINDS).optional() }),
    operation: 'site-catalog-list',
    variables: ({ query }) => query,
    success: { status: 200 },
  }),
];
