import { z } from 'zod';
import { CATALOG_KINDS } from '../../domain/widgets/site-catalog.service.js';
import type { Route } from '../route.js';
import { rowsOf } from '../rows.js';

export const siteCatalogRoutes: Route[] = [
  rowsOf({ tag: 'Site catalog', auth: 'siteKey', scope: null }).list('/site-catalog', {
    summary: 'List the site’s active widgets (forms, calendars, shop widgets) with embed snippets, newest first',
    // Any other kind is 400 validation_failed with fields (the facade's query parsing).
    query: z.object({ kind: z.enum(CATALOG_KINDS).optional() }),
    operation: 'site-catalog-list',
    variables: ({ query }) => query,
  }),
];
