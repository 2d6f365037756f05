import type { ArgBuilder, ObjectRef } from '@pothos/core';
import { DEFAULT_LIMIT, MAX_LIMIT, type Page, type Pagination } from '../domain/pagination.js';
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
export const listComplexity = (args: { limit?: number | null }) => ({ field: 1, multiplier: Math.min(args.limit ?? DEFAULT_LIMIT, MAX_LIMIT) });
