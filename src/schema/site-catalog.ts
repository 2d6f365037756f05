import { requireSiteViewer } from '../context.js';
import { CATALOG_KINDS, listSiteCatalog, type CatalogEntry } from '../domain/widgets/site-catalog.service.js';
import { builder } from './builder.js';
import { pageField, pageRef } from './pagination.js';

/* The site catalog (site key only): the site's active widgets with the snippet that embeds each one. */

const CatalogKindEnum = builder.enumType('CatalogKind', { values: CATALOG_KINDS });

const CatalogEntryRef = builder.objectRef<CatalogEntry>('CatalogEntry').implement({
  fields: (t) => ({
    kind: t.field({ type: CatalogKindEnum, resolve: (e) => e.kind }),
    id: t.exposeInt('id'),
    name: t.exposeString('name'),
    type: t.exposeString('type', { nullable: true, description: 'the form’s or shop widget’s type; null for calendars' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    embedHtml: t.exposeString('embedHtml', { description: 'the <script> tag that embeds this widget' }),
  }),
});

const CatalogPage = pageRef('SiteCatalogPage', CatalogEntryRef);

builder.queryFields((t) => ({
  siteCatalog: pageField(t, {
    type: CatalogPage,
    description: 'Active widgets of the site whose key is presented, newest first; kind narrows to one kind. A site key’s field: served on GET /v1/site-catalog (X-Service-Site-Key); /graphql, which takes API keys, answers insufficient_scope',
    authScopes: { siteKey: true },
    args: { kind: t.arg({ type: CatalogKindEnum }) },
    resolve: (args, page, context) => listSiteCatalog(context.deps.db, requireSiteViewer(context).siteId, { ...page, kind: args.kind }),
  }),
}));
