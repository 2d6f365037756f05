import { z } from 'zod';
import { CATALOG_KINDS } from '../../domain/widgets/site-catalog.service.js';
import type { Route } from '../route.js';
import { rowsOf } from '../rows.js';

const siteCatalog = rowsOf({ tag: 'Site catalog', auth: 'siteKey' });

export const siteCatalogRoutes: Route[] = [
  siteCatalog.list('/site-catalog', {
    summary: "List the site's widgets",
    description:
      "With a site key: the site's active forms, calendars and shop widgets (one kind with kind=), newest first, each with the HTML snippet that embeds it.",
    // Any other kind is 400 validation_failed with fields (the facade's query parsing).
    query: z.object({ kind: z.enum(CATALOG_KINDS).optional() }),
    operation: 'list-site-catalog',
  }),
];
