import type { ArgBuilder, InputFieldMap, InputShapeFromFields, ObjectRef } from '@pothos/core';
import type { GraphQLResolveInfo } from 'graphql';
import type { RequestContext } from '../context.js';
import { DEFAULT_LIMIT, MAX_LIMIT, normalizePagination, walkRequest, type CursorPagination, type Page, type Pagination, type PageRequest, type WalkPage, type WalkRequest } from '../domain/pagination.js';
import { validationFailed } from '../errors.js';
import type { Scope } from '../scopes.js';
import { builder } from './builder.js';

export type BuilderTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer Types> ? Types : never;

export const PaginationRef = builder.objectRef<Pagination>('Pagination').implement({
  fields: (t) => ({
    page: t.exposeInt('page'),
    limit: t.exposeInt('limit'),
    total: t.exposeInt('total'),
    pages: t.exposeInt('pages'),
  }),
});

/** `{ data, pagination }`: the v1 list envelope, the same shape over GraphQL. */
export function pageRef<Shape>(name: string, item: ObjectRef<BuilderTypes, Shape>) {
  return builder.objectRef<Page<Shape>>(name).implement({
    fields: (t) => ({
      // The list field's own multiplier (its `limit`) already counts the items.
      data: t.field({ type: [item], complexity: { field: 0, multiplier: 1 }, resolve: (page) => page.data }),
      pagination: t.field({ type: PaginationRef, resolve: (page) => page.pagination }),
    }),
  });
}

/** Page arguments shared by every list field. */
export const pageArgs = (arg: ArgBuilder<BuilderTypes>) => ({
  page: arg.int({ required: false }),
  limit: arg.int({ required: false }),
});

/** A list field costs its page size (as clamped) times what each item selects. */
const listComplexity = (args: { limit?: number | null }) => ({ field: 1, multiplier: Math.min(args.limit ?? DEFAULT_LIMIT, MAX_LIMIT) });

export type QueryFieldBuilder = PothosSchemaTypes.QueryFieldBuilder<BuilderTypes, BuilderTypes['Root']>;

interface PageFieldOptions<Shape, Args extends InputFieldMap> {
  /** The page type (`pageRef`). */
  type: ObjectRef<BuilderTypes, Page<Shape>>;
  description: string;
  authScopes: { scope: Scope } | { apiKey: true } | { siteKey: true };
  /** The field's own arguments, besides page and limit. */
  args: Args;
  /** `page`: page and limit as the service takes them (defaulted and clamped). */
  resolve(args: InputShapeFromFields<Args>, page: PageRequest, context: RequestContext, info: GraphQLResolveInfo): Promise<Page<Shape>>;
}

/**
 * A root list field of either kind: `options.args` beside `extraArgs` (page/limit, and a walk's `after`), costing
 * its page size times what each item selects; `request` turns the list arguments into the service's request.
 */
function listField<Shape, Args extends InputFieldMap, Request, Result>(
  t: QueryFieldBuilder,
  options: { type: ObjectRef<BuilderTypes, Result>; description: string; authScopes: PageFieldOptions<Shape, Args>['authScopes']; args: Args },
  extraArgs: InputFieldMap,
  request: (all: { page?: number | null; limit?: number | null; after?: string | null }) => Request,
  resolve: (args: InputShapeFromFields<Args>, request: Request, context: RequestContext, info: GraphQLResolveInfo) => Promise<Result>,
) {
  return t.field({
    type: options.type,
    description: options.description,
    authScopes: options.authScopes,
    complexity: listComplexity,
    args: { ...extraArgs, ...options.args },
    resolve: (_root, args, context, info) => {
      // TypeScript cannot spell out Pothos' argument shape of a generic map, nor its result type of a generic page:
      // these are the arguments declared above, and the result is `options.type`'s.
      const all = args as unknown as InputShapeFromFields<Args> & { page?: number | null; limit?: number | null; after?: string | null };
      return resolve(all, request(all), context, info) as never;
    },
  });
}

/**
 * A root list field: `{ data, pagination }`, newest first, with `page`/`limit` arguments beside its own; it costs
 * its page size times what each item selects.
 */
export function pageField<Shape, Args extends InputFieldMap>(t: QueryFieldBuilder, options: PageFieldOptions<Shape, Args>) {
  return listField(t, options, pageArgs(t.arg), (all) => normalizePagination(all.page, all.limit), options.resolve);
}

export const CursorPaginationRef = builder.objectRef<CursorPagination>('CursorPagination').implement({
  description: 'Where a walk by cursor goes on (decisions §7.6)',
  fields: (t) => ({
    limit: t.exposeInt('limit'),
    next: t.exposeString('next', { nullable: true, description: 'pass as `after` for the following page; null after the last row' }),
  }),
});

/**
 * A list that can also be walked by cursor (decisions §7.6): `{ data, pagination, cursor }`. `pagination` (with its
 * total) exists in page mode only; `cursor { limit next }` in both, so page 1 already carries the first cursor.
 */
export function walkPageRef<Shape>(name: string, item: ObjectRef<BuilderTypes, Shape>) {
  return builder.objectRef<WalkPage<Shape>>(name).implement({
    fields: (t) => ({
      data: t.field({ type: [item], complexity: { field: 0, multiplier: 1 }, resolve: (page) => page.data }),
      pagination: t.field({
        type: PaginationRef,
        description: 'page mode only: a page read `after` a cursor counts no total (select `cursor`)',
        resolve: (page) => {
          if (!page.pagination) throw validationFailed([{ field: 'after', message: 'a page read after a cursor has no pagination: select cursor { limit next }' }]);
          return page.pagination;
        },
      }),
      cursor: t.field({ type: CursorPaginationRef, resolve: (page) => page.cursor }),
    }),
  });
}

interface WalkFieldOptions<Shape, Args extends InputFieldMap> extends Omit<PageFieldOptions<Shape, Args>, 'type' | 'resolve'> {
  type: ObjectRef<BuilderTypes, WalkPage<Shape>>;
  /** `request`: page mode (page, limit) or cursor mode (after, limit), never both (400 validation_failed). */
  resolve(args: InputShapeFromFields<Args>, request: WalkRequest, context: RequestContext, info: GraphQLResolveInfo): Promise<WalkPage<Shape>>;
}

/** A root list field that can also be walked by cursor: `pageField`'s arguments plus `after` (decisions §7.6). */
export function walkField<Shape, Args extends InputFieldMap>(t: QueryFieldBuilder, options: WalkFieldOptions<Shape, Args>) {
  const after = t.arg.string({ required: false, description: 'a cursor (`cursor.next` of the page before): the rows that follow it; not with page' });
  return listField(t, options, { ...pageArgs(t.arg), after }, (all) => walkRequest(all.page, all.limit, all.after), options.resolve);
}
