import { z } from 'zod';
import type { ErrorCode } from '../errors.js';
import type { OperationName, OperationVariables } from './operations.js';
import { defineRoute, type BodyOf, type BodyValidator, type BodyVersion, type HttpMethod, type ParsedInput, type Route, type RouteSpec } from './route.js';

/**
 * What every row of one resource shares: its OpenAPI tag and how a caller authenticates. Its scope is not
 * written here: it is the authScopes of each operation's root field (compileRoutes in run-route.ts).
 */
export interface Resource {
  tag: string;
  auth: 'apiKey' | 'siteKey';
}

/** A cursor the list issued (decisions §7.6): checked by the list's service, 400 invalid_cursor otherwise. */
const afterParam = z.string().optional().describe('a cursor from the previous page (`pagination.next`, or the `Link` header): the rows that follow it; not with page');

/** Operations whose only variable is the path's `{id}`. */
type ByIdOperation = { [N in OperationName]: OperationVariables<N> extends { id: number } ? ({ id: number } extends OperationVariables<N> ? N : never) : never }[OperationName];

type ByIdPath = `${string}{id}${string}`;

interface ReadRow<N extends ByIdOperation> {
  operation: N;
  summary: string;
  description: string;
  errors?: ErrorCode[];
  version?: BodyVersion;
}

type ListInput<N extends OperationName, P extends string, Q extends z.ZodObject | undefined> = Parameters<RouteSpec<N, P, Q, undefined, true>['variables']>[0];

interface ListRowBasics<N extends OperationName, Q extends z.ZodObject | undefined> {
  operation: N;
  summary: string;
  description: string;
  /** Query parameters besides page/limit. */
  query?: Q;
  /** Walkable by cursor (decisions §7.6): `after` joins the query, and the operation selects `cursor { limit next }`. */
  walk?: true;
  errors?: ErrorCode[];
  version?: BodyVersion;
}

/** A walkable list's `after` and `paged` are added by `list` itself. */
type ListVariables<N extends OperationName, P extends string, Q extends z.ZodObject | undefined> = (input: ListInput<N, P, Q>) => Omit<OperationVariables<N>, 'after' | 'paged'>;

/** `variables` may be left out where the parsed query (with page and limit) is the operation's variables. */
type ListRow<N extends OperationName, P extends string, Q extends z.ZodObject | undefined> = ListRowBasics<N, Q> &
  (ListInput<N, P, Q>['query'] extends Omit<OperationVariables<N>, 'after' | 'paged'> ? { variables?: ListVariables<N, P, Q> } : { variables: ListVariables<N, P, Q> });

/**
 * The variables a row need not write: `{ id }` from a path that names it and `{ input }` from the body, when the
 * route has one (a mutation's input argument); the row may leave them out when these are what its operation takes.
 */
type DefaultVariables<P extends string, B> = (P extends ByIdPath ? { id: number } : {}) & (B extends undefined ? {} : { input: BodyOf<B> });
type DefaultedVariables<N extends OperationName, P extends string, B> = DefaultVariables<P, B> extends OperationVariables<N> ? true : false;

const defaultVariables =
  (path: string, body: boolean) =>
  ({ params, body: input }: ParsedInput) => ({ ...(path.includes('{id}') && { id: params.id }), ...(body && { input }) });

/**
 * A row of the resource: its tag and auth given; method and path lead the row. `success` defaults to 200 (204 for
 * a DELETE), `variables` to DefaultVariables where the operation takes just those.
 */
type ResourceRow<N extends OperationName, P extends string, Q extends z.ZodObject | undefined, B extends z.ZodType | BodyValidator | undefined, Pg extends boolean> = Omit<
  RouteSpec<N, P, Q, B, Pg>,
  keyof Resource | 'method' | 'path' | 'success' | 'variables'
> &
  Partial<Pick<RouteSpec<N, P, Q, B, Pg>, 'success'>> &
  (DefaultedVariables<N, P, B> extends true ? Partial<Pick<RouteSpec<N, P, Q, B, Pg>, 'variables'>> : Pick<RouteSpec<N, P, Q, B, Pg>, 'variables'>);

/** `'PATCH /forms/{id}'` → its method and path, as the route is named everywhere (tests, logs, the contract). */
function methodAndPath<M extends HttpMethod, P extends string>(route: `${M} ${P}`): { method: M; path: P } {
  const space = route.indexOf(' ');
  return { method: route.slice(0, space) as M, path: route.slice(space + 1) as P };
}

/**
 * One resource's rows, with its tag and auth written once. `read` and `list` are the two rows most
 * resources have (one by id, a newest-first page); `row('METHOD /path', {...})` is any other.
 */
export function rowsOf(resource: Resource) {
  return {
    row: <M extends HttpMethod, P extends string, N extends OperationName, Q extends z.ZodObject | undefined = undefined, B extends z.ZodType | BodyValidator | undefined = undefined, Pg extends boolean = false>(
      route: `${M} ${P}`,
      spec: ResourceRow<N, P, Q, B, Pg>,
    ): Route => {
      const { method, path } = methodAndPath(route);
      // DefaultedVariables proves the default: the operation takes `{ id }` from the path and the body as `input`.
      const variables = (spec.variables ?? defaultVariables(path, spec.body !== undefined)) as RouteSpec<N, P, Q, B, Pg>['variables'];
      return defineRoute<N, P, Q, B, Pg>({ ...resource, method, path, success: { status: method === 'DELETE' ? 204 : 200 }, ...spec, variables });
    },
    /** `GET …/{id}`: 200 with the operation's root field, which takes `{ id }`. */
    read: <N extends ByIdOperation>(path: ByIdPath, row: ReadRow<N>): Route =>
      defineRoute<N, ByIdPath>({ ...resource, method: 'GET', path, ...row, variables: defaultVariables(path, false) as RouteSpec<N, ByIdPath, undefined, undefined, false>['variables'], success: { status: 200 } }),
    /** A paginated `GET`: page/limit parsed once, `{ data, pagination }` from the operation's root field. */
    list: <P extends string, N extends OperationName, Q extends z.ZodObject | undefined = undefined>(path: P, row: ListRow<N, P, Q>): Route => {
      // Without `variables`, ListRow has checked that the query is the operation's variables.
      const { walk, variables = ({ query }: ParsedInput) => query, ...rest } = row;
      // The parsed `after` (absent in page mode, where the facade also leaves `page` out when `after` is given).
      const cursorVariables = (query: unknown) => {
        const after = (query as { after?: string }).after;
        return { after: after ?? null, paged: after === undefined };
      };
      const walking = walk ? { query: (row.query ?? z.object({})).extend({ after: afterParam }) as unknown as Q, shape: { walk } } : {};
      return defineRoute<N, P, Q, undefined, true>({
        ...resource,
        method: 'GET',
        path,
        paginated: true,
        ...rest,
        ...walking,
        ...(walk && { errors: [...(row.errors ?? []), 'invalid_cursor'] }),
        // Omit<…> plus the two members it left out is the operation's variables.
        variables: (input) => ({ ...variables(input), ...(walk && cursorVariables(input.query)) }) as OperationVariables<N>,
        // A walkable list's 200 carries `Link: <…>; rel="next"` while rows follow (decisions §7.6).
        success: walk ? { status: 200, headers: ['Link'] } : { status: 200 },
      });
    },
  };
}
