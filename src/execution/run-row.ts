import { Kind, type GraphQLSchema } from 'graphql';
import { z } from 'zod';
import type { RequestContext } from '../context.js';
import { parsePaginationQuery } from '../domain/pagination.js';
import { parseIdText, parseInput } from '../domain/validation.js';
import { AppError, validationFailed } from '../errors.js';
import type { Scope } from '../scopes.js';
import { loadOperations, runOperation, type OperationStore, type PinnedOperation } from './operations.js';
import { v1Presenters } from './present.js';
import { compileResponseShape, type ResponseShape } from './response-shape.js';
import { isStreamRoute, type BodyValidator, type ParsedInput, type Route, type StreamedBody, type StreamRoute, type TableRoute } from './route.js';

/**
 * A request for a row as any transport receives it, before the row's schemas have seen it: path parameters as the
 * text of their placeholders, query parameters as text, the JSON body (read only when the row has one), headers.
 */
export interface RowRequest {
  /** `{id}` → its text, percent-encoded as it appeared in a path. */
  path: Record<string, string>;
  query: URLSearchParams;
  /** The parsed JSON body: already checked for depth, NULs and size by the transport that read it. */
  readBody(): Promise<unknown>;
  headers: Headers;
}

/** What a row answers on success: the status, the headers the data decided, and the v1 body (none for a 204). */
export interface RowAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  /** A walkable list's cursor of the following page (decisions §7.6), for REST's `Link`; null otherwise. */
  next: string | null;
}

/**
 * Path ids, the one place they are read: percent-decoded, then canonical integers (parseIdText; 400 `invalid_id`
 * otherwise), except an event's public id (`evt_…`), which is looked up as it is (anything else is simply not
 * found). A malformed encoding (`%`, `%zz`, `%C0%AF`) makes decodeURIComponent throw: just another malformed id
 * (400 `invalid_id`) on every route, never a 500.
 */
function parseParams(route: TableRoute, values: Record<string, string>): ParsedInput['params'] {
  const params: ParsedInput['params'] = {};
  for (const [, name] of route.path.matchAll(/\{(\w+)\}/g)) {
    let raw: string;
    try {
      raw = decodeURIComponent(values[name as string] ?? '');
    } catch {
      throw new AppError('invalid_id');
    }
    if (name === 'eventId') {
      params.eventId = raw;
      continue;
    }
    const id = parseIdText(raw);
    if (id === null) throw new AppError('invalid_id');
    params[name as 'id' | 'deliveryId'] = id;
  }
  return params;
}

function parseQuery(route: TableRoute, query: URLSearchParams): Record<string, unknown> {
  const raw = Object.fromEntries(query);
  if (query.size > Object.keys(raw).length) refuseRepeatedParameter(route, query);
  const page = route.paginated ? pageOrCursor(route, raw) : {};
  const { page: _page, limit: _limit, ...rest } = raw;
  const extra = route.query ? parseInput(route.query, rest) : {};
  return { ...page, ...extra };
}

/** A walkable list's `after` stands in place of `page` (decisions §7.6): both together are ambiguous. */
function pageOrCursor(route: TableRoute, raw: Record<string, string>): { page?: number; limit: number } {
  const request = parsePaginationQuery(raw.page, raw.limit);
  if (!isStreamRoute(route) && route.shape?.walk && raw.after !== undefined) {
    if (raw.page !== undefined) throw validationFailed([{ field: 'after', message: 'cannot be combined with page' }]);
    return { limit: request.limit };
  }
  return request;
}

/**
 * A parameter the route reads, given twice, is ambiguous: `?status=failed&status=pending` would otherwise filter on
 * one of the two and answer as if that were the question. Refused instead; a parameter the route ignores may repeat.
 */
function refuseRepeatedParameter(route: TableRoute, params: URLSearchParams): void {
  const seen = new Set<string>();
  for (const name of params.keys()) {
    if (seen.has(name)) {
      if (route.paginated && (name === 'page' || name === 'limit')) throw new AppError('invalid_pagination');
      if (route.query && Object.hasOwn(route.query.shape, name)) throw validationFailed([{ field: name, message: 'must be given once' }]);
    }
    seen.add(name);
  }
}

function parseBody(validator: z.ZodType | BodyValidator, value: unknown): unknown {
  return validator instanceof z.ZodType ? parseInput(validator, value) : validator.parse(value);
}

/** The row's input, parsed once by the row's own schemas (contract §4 order: after the gate, before the lookup). */
export async function parseRowInput(route: TableRoute, request: RowRequest): Promise<ParsedInput> {
  return {
    params: parseParams(route, request.path),
    query: parseQuery(route, request.query),
    body: route.body ? parseBody(route.body, await request.readBody()) : undefined,
    headers: request.headers,
  };
}

/** The root field's `authScopes` (Pothos scope-auth): `{ scope }` names one; `{ apiKey: true }` / `{ siteKey: true }` none. */
function rootFieldScope(schema: GraphQLSchema, operation: PinnedOperation, name: string): Scope | null {
  const definition = operation.document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
  const root = definition?.selectionSet.selections[0];
  if (definition?.kind !== Kind.OPERATION_DEFINITION || root?.kind !== Kind.FIELD) throw new Error(`Operation ${name} has no root field`);
  const type = definition.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  const field = type?.getFields()[root.name.value];
  const authScopes = (field?.extensions as { pothosOptions?: { authScopes?: unknown } } | undefined)?.pothosOptions?.authScopes;
  if (!authScopes || typeof authScopes !== 'object') throw new Error(`Operation ${name}: its root field ${root.name.value} declares no authScopes`);
  return 'scope' in authScopes ? (authScopes.scope as Scope) : null;
}

/**
 * The table as the transports run it: each operation row with its scope read from its operation's root field (the
 * one place a scope is declared) and its response shape compiled from the operation's selection (both fail start on
 * a mismatch). A streamed row has no root field: it names its scope, and the operations its NDJSON lines are the
 * bodies of must exist.
 */
export function compileRoutes(schema: GraphQLSchema, operations: OperationStore, table: TableRoute[]): { routes: TableRoute[]; shapes: Map<Route, ResponseShape> } {
  const shapes = new Map<Route, ResponseShape>();
  const routes = table.map((route): TableRoute => {
    if (isStreamRoute(route)) {
      for (const media of Object.values(route.success.media)) {
        if ('linesOf' in media && !operations.has(media.linesOf)) throw new Error(`Route ${route.method} ${route.path} names a missing operation ${media.linesOf}`);
      }
      return route;
    }
    const operation = operations.get(route.operation);
    if (!operation) throw new Error(`Route ${route.method} ${route.path} names a missing operation ${route.operation}`);
    const compiled: Route = { ...route, scope: rootFieldScope(schema, operation, route.operation) };
    shapes.set(compiled, compileResponseShape(schema, operation.document, route.shape));
    return compiled;
  });
  return { routes, shapes };
}

/**
 * The one executor of the route table, whichever transport asks (v1 REST, MCP tool calls, streams): it imports no
 * transport, and a transport writes what it answers in its own protocol.
 */
export interface RowRunner {
  /** The table with each row's scope read from its root field (compileRoutes): what every transport admits and runs. */
  routes: TableRoute[];
  /** Each route's body, read from its operation's selection: what it answers and what OpenAPI and MCP document. */
  shapes: Map<Route, ResponseShape>;
  /** Runs an admitted row on its parsed input: its pinned operation, then its response shape and outcome. */
  run(route: Route, input: ParsedInput, context: RequestContext): Promise<RowAnswer>;
  /** Opens an admitted streamed row's body (an export, an event stream), with the v1 presenters at hand. */
  stream(route: StreamRoute, input: ParsedInput, context: RequestContext): Promise<StreamedBody>;
}

export function createRowRunner(schema: GraphQLSchema, table: TableRoute[], operations: OperationStore = loadOperations(schema)): RowRunner {
  const { routes, shapes } = compileRoutes(schema, operations, table);
  return {
    routes,
    shapes,
    async run(route, input, context) {
      const data = await runOperation(operations, route.operation, context, route.variables(input));
      const shape = shapes.get(route);
      const body = shape?.schema ? shape.toBody(data[shape.rootKey]) : undefined;
      const outcome = route.outcome?.(data, body);
      const next = shape?.next?.(data[shape.rootKey]) ?? null;
      return { status: outcome?.status ?? route.success.status, headers: outcome?.headers ?? {}, body, next };
    },
    stream: (route, input, context) => route.stream(input, context, { present: v1Presenters(schema, context) }),
  };
}
