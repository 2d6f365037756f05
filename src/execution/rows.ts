import { z } from 'zod';
import type { ErrorCode } from '../errors.js';
import type { OperationName, OperationVariables } from './operations.js';
import { defineRoute, type BodyValidator, type BodyVersion, type HttpMethod, type ParsedInput, type Route, type RouteSpec } from './route.js';

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

interface ListRow<N extends OperationName, P extends string, Q extends z.ZodObject | undefined> {
  operation: N;
  summary: string;
  description: string;
  /** Query parameters besides page/limit. */
  query?: Q;
  /** Walkable by cursor (decisions §7.6): `after` joins the query, and the operation selects `cursor { limit next }`. */
  walk?: true;
  errors?: ErrorCode[];
  version?: BodyVersion;
  /** A walkable list's `after` and `paged` are added by `list` itself. */
  variables(input: Parameters<RouteSpec<N, P, Q, undefined, true>['variables']>[0]): Omit<OperationVariables<N>, 'after' | 'paged'>;
}

/**
 * Variables a row need not write: none when its operation takes none (and the path names no `{id}`), `{ id }` from
 * the path when that is all its operation takes.
 */
type DefaultedVariables<N extends OperationName, P extends string> = P extends ByIdPath ? (N extends ByIdOperation ? true : false) : {} extends OperationVariables<N> ? true : false;

/**
 * A row of the resource: its tag and auth given; method and path lead the row. `success` defaults to 200 (204 for
 * a DELETE), `variables` where DefaultedVariables says.
 */
type ResourceRow<N extends OperationName, P extends string, Q extends z.ZodObject | undefined, B extends z.ZodType | BodyValidator | undefined, Pg extends boolean> = Omit<
  RouteSpec<N, P, Q, B, Pg>,
  keyof Resource | 'method' | 'path' | 'success' | 'variables'
> &
  Partial<Pick<RouteSpec<N, P, Q, B, Pg>, 'success'>> &
  (DefaultedVariables<N, P> extends true ? Partial<Pick<RouteSpec<N, P, Q, B, Pg>, 'variables'>> : Pick<RouteSpec<N, P, Q, B, Pg>, 'variables'>);

/** The variables of a row that writes none (DefaultedVariables): `{ id }` from a path that names it, else none. */
const defaultVariables = (path: string) => (path.includes('{id}') ? ({ params }: ParsedInput) => ({ id: params.id }) : () => ({}));

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
      // DefaultedVariables proves the default: the operation takes `{ id }` from the path, or nothing.
      const variables = (spec.variables ?? defaultVariables(path)) as RouteSpec<N, P, Q, B, Pg>['variables'];
      return defineRoute<N, P, Q, B, Pg>({ ...resource, method, path, success: { status: method === 'DELETE' ? 204 : 200 }, ...spec, variables });
    },
    /** `GET …/{id}`: 200 with the operation's root field, which takes `{ id }`. */
    read: <N extends ByIdOperation>(path: ByIdPath, row: ReadRow<N>): Route =>
      defineRoute<N, ByIdPath>({ ...resource, method: 'GET', path, ...row, variables: defaultVariables(path) as RouteSpec<N, ByIdPath, undefined, undefined, false>['variables'], success: { status: 200 } }),
    /** A paginated `GET`: page/limit parsed once, `{ data, pagination }` from the operation's root field. */
    list: <P extends string, N extends OperationName, Q extends z.ZodObject | undefined = undefined>(path: P, row: ListRow<N, P, Q>): Route => {
      const { walk, variables, ...rest } = row;
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
