import type { ObjectRef } from '@pothos/core';
import { queryFromInfo } from '@pothos/plugin-prisma';
import { requireApiKeyViewer } from '../context.js';
import type { Page } from '../domain/pagination.js';
import type { WidgetListFilter } from '../domain/widgets/widget-lists.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { Scope } from '../scopes.js';
import { pageField, type BuilderTypes, type QueryFieldBuilder } from './pagination.js';

interface WidgetListOptions<Shape, Query> {
  type: ObjectRef<BuilderTypes, Page<Shape>>;
  /** The Prisma model: each item's selection is what the query asked of it. */
  typeName: 'CalendarWidget' | 'EcommerceWidget' | 'Collection';
  description: string;
  scope: Scope;
  list(prisma: PrismaClient, accountId: number, filter: WidgetListFilter, query: Query): Promise<Page<Shape>>;
}

/** An account's widgets of one kind (calendars, shop widgets, collections), newest first; domainId narrows to one domain. */
export function widgetListField<Shape, Query>(t: QueryFieldBuilder, options: WidgetListOptions<Shape, Query>) {
  return pageField(t, {
    type: options.type,
    description: options.description,
    authScopes: { scope: options.scope },
    args: { domainId: t.arg.int() },
    resolve: (args, page, context, info) => {
      const query = queryFromInfo({ context, info, typeName: options.typeName, path: ['data'] }) as Query;
      return options.list(context.deps.db.prisma, requireApiKeyViewer(context).accountId, { ...page, domainId: args.domainId }, query);
    },
  });
}

/** One widget of the account by id (absent, archived and another account's alike: 404), selecting what the query asks. */
export function widgetField<Name extends WidgetListOptions<unknown, unknown>['typeName'], Query>(
  t: QueryFieldBuilder,
  typeName: Name,
  scope: Scope,
  get: (prisma: PrismaClient, accountId: number, id: number, query: Query) => Promise<BuilderTypes['PrismaTypes'][Name]['Shape']>,
) {
  return t.prismaField({
    type: typeName,
    authScopes: { scope },
    args: { id: t.arg.int({ required: true }) },
    // `get` returns the model's row (its signature says so); Pothos cannot spell that shape for a generic name.
    resolve: (query, _root, args, context) => get(context.deps.db.prisma, requireApiKeyViewer(context).accountId, args.id, query as Query) as never,
  });
}
