import type { z } from 'zod';
import type { ErrorCode } from '../errors.js';
import type { Scope } from '../scopes.js';
import type { OperationName, OperationVariables } from './operations.js';
import { defineRoute, type BodyValidator, type Route, type RouteSpec } from './route.js';

/** What every row of one resource shares: its OpenAPI tag, how a caller authenticates, and the scope it needs. */
export interface Resource {
  tag: string;
  auth: 'apiKey' | 'siteKey';
  scope: Scope | null;
}

/** Operations whose only variable is the path's `{id}`. */
type ByIdOperation = { [N in OperationName]: OperationVariables<N> extends { id: number } ? ({ id: number } extends OperationVariables<N> ? N : never) : never }[OperationName];

interface ReadRow<N extends ByIdOperation> {
  path: `${string}{id}${string}`;
  operation: N;
  summary: string;
  errors?: ErrorCode[];
}

interface ListRow<N extends OperationName, P extends string, Q extends z.ZodObject | undefined> {
  path: P;
  operation: N;
  summary: string;
  /** Query parameters besides page/limit. */
  query?: Q;
  errors?: ErrorCode[];
  variables: RouteSpec<N, P, Q, undefined, true>['variables'];
}

/** A row of the resource: its tag and auth given, its scope unless the row names its own. */
type ResourceRow<N extends OperationName, P extends string, Q extends z.ZodObject | undefined, B extends z.ZodType | BodyValidator | undefined, Pg extends boolean> = Omit<
  RouteSpec<N, P, Q, B, Pg>,
  keyof Resource
> &
  Partial<Pick<Resource, 'scope'>>;

/**
 * One resource's rows, with its tag, auth and scope written once. `read` and `list` are the two rows most
 * resources have (one by id, a newest-first page); `row` is any other.
 */
export function rowsOf(resource: Resource) {
  return {
    row: <N extends OperationName, P extends string, Q extends z.ZodObject | undefined = undefined, B extends z.ZodType | BodyValidator | undefined = undefined, Pg extends boolean = false>(
      spec: ResourceRow<N, P, Q, B, Pg>,
    ): Route => defineRoute<N, P, Q, B, Pg>({ ...resource, ...spec }),
    /** `GET …/{id}`: 200 with the operation's root field, which takes `{ id }`. */
    read: <N extends ByIdOperation>(row: ReadRow<N>): Route =>
      defineRoute<N, ReadRow<N>['path']>({
        ...resource,
        method: 'GET',
        ...row,
        // ByIdOperation proves the cast: N's variables are exactly `{ id }`.
        variables: ({ params }) => ({ id: params.id }) as OperationVariables<N>,
        success: { status: 200 },
      }),
    /** A paginated `GET`: page/limit parsed once, `{ data, pagination }` from the operation's root field. */
    list: <N extends OperationName, P extends string, Q extends z.ZodObject | undefined = undefined>(row: ListRow<N, P, Q>): Route =>
      defineRoute<N, P, Q, undefined, true>({ ...resource, method: 'GET', paginated: true, ...row, success: { status: 200 } }),
  };
}
