import { z } from 'zod';
import { CATALOG_KINDS } from '../../domain/widgets/site-catalog.service.js';
import type { Route } from '../route.js';
import { listOf } from '../schemas.js';
import { catalogEntrySchema } from '../schemas/widgets.js';

export const siteCatalogRoutes: Route[] = [
  {
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
    variables: ({ query }) => ({ ...query }),
    respond: (data) => ({ status: 200, body: listOf(catalogEntrySchema).parse(data.siteCatalog) }),
    success: { status: 200, schema: listOf(catalogEntrySchema) },
  },
];
