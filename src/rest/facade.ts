import { Response } from '@whatwg-node/server';
import type { GraphQLSchema } from 'graphql';
import { z } from 'zod';
import type { RequestContext } from '../context.js';
import { AppError } from '../errors.js';
import { admit } from '../gate/gate.js';
import { parsePaginationQuery } from '../domain/pagination.js';
import { parseInput } from '../domain/validation.js';
import { runOperation, type OperationStore } from './operations.js';
import { compileResponseShape, type ResponseShape } from './response-shape.js';
import type { BodyValidator, ParsedInput, Route } from './route.js';
import { parseIdText } from '../domain/validation.js';

/** A request body larger than this is refused before parsing; formData's own cap is far below it. */
const MAX_BODY_BYTES = 1_048_576;

interface CompiledRoute {
  route: Route;
  pattern: RegExp;
  /** The path's `{name}` placeholders, in order. */
  names: (keyof ParsedInput['params'])[];
}

function compile(route: Route): CompiledRoute {
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as keyof ParsedInput['params']);
  const source = route.path
    .split(/\{\w+\}/)
    .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
    .join('([^/]+)');
  return { route, pattern: new RegExp(`^${source}$`), names };
}

/**
 * Path ids: canonical integers (400 `invalid_id` otherwise), except an event's public id (`evt_…`), which is
 * looked up as it is (anything else is simply not found).
 */
function parseParams(compiled: CompiledRoute, path: string): ParsedInput['params'] {
  const values = compiled.pattern.exec(path)?.slice(1) ?? [];
  const params: ParsedInput['params'] = {};
  compiled.names.forEach((name, index) => {
    let raw: string;
    try {
      raw = decodeURIComponent(values[index] ?? '');
    } catch {
      throw new AppError('invalid_id');
    }
    if (name === 'eventId') {
      params.eventId = raw;
      return;
    }
    const id = parseIdText(raw);
    if (id === null) throw new AppError('invalid_id');
    params[name] = id;
  });
  return params;
}

/**
 * Responses are the server adapter's own `Response` (not Node's global one): the adapter writes its string body to
 * the socket in one call, where a global Response's body would be pumped through a ReadableStream chunk by chunk.
 */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  if (body === undefined) return new Response(null, { status, headers });
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } });
}

export function errorResponse(error: AppError, headers: Record<string, string> = {}): Response {
  return jsonResponse(error.status, error.toBody(), { ...headers, ...error.headers });
}

async function readJsonBody(request: Request): Promise<unknown> {
  const text = await request.text();
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_BODY_BYTES) throw new AppError('payload_too_large', { cap: MAX_BODY_BYTES, used: bytes });
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('invalid_json');
  }
}

function parseQuery(route: Route, url: URL): Record<string, unknown> {
  const raw = Object.fromEntries(url.searchParams);
  const page = route.paginated ? parsePaginationQuery(raw.page, raw.limit) : {};
  const { page: _page, limit: _limit, ...rest } = raw;
  const extra = route.query ? parseInput(route.query, rest) : {};
  return { ...page, ...extra };
}

function parseBody(validator: z.ZodType | BodyValidator, value: unknown): unknown {
  return validator instanceof z.ZodType ? parseInput(validator, value) : validator.parse(value);
}

export interface RestFacade {
  routes: Route[];
  /** Each route's body, read from its operation's selection: what it answers and what OpenAPI documents. */
  shapes: Map<Route, ResponseShape>;
  handle(request: Request, context: RequestContext): Promise<Response>;
}

/** Each route's response shape, compiled from its pinned operation against the schema (fails start on a mismatch). */
export function compileShapes(schema: GraphQLSchema, operations: OperationStore, routes: Route[]): Map<Route, ResponseShape> {
  return new Map(
    routes.map((route) => {
      const operation = operations.get(route.operation);
      if (!operation) throw new Error(`Route ${route.method} ${route.path} names a missing operation ${route.operation}`);
      return [route, compileResponseShape(schema, operation.document, route.shape)];
    }),
  );
}

/**
 * The v1 REST layer: matches the table, runs the checks in the decided order (authenticate → plan gate → rate
 * limit → scope → input → lookup), then executes the route's pinned GraphQL operation in-process.
 */
export function createRestFacade(schema: GraphQLSchema, operations: OperationStore, routes: Route[]): RestFacade {
  const compiled = routes.map(compile);
  const shapes = compileShapes(schema, operations, routes);

  async function handle(request: Request, context: RequestContext): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname.replace(/^\/v1/, '') || '/';
    const matching = compiled.filter(({ pattern }) => pattern.test(path));
    if (!matching.length) return errorResponse(new AppError('not_found'));
    const found = matching.find(({ route }) => route.method === request.method);
    if (!found) {
      const allow = [...new Set(matching.map(({ route }) => route.method))].join(', ');
      return errorResponse(new AppError('method_not_allowed', {}, { headers: { Allow: allow } }));
    }
    const { route } = found;
    context.log.route = `${route.method} /v1${route.path}`;

    try {
      await admit(route, request.headers, context);

      const input: ParsedInput = {
        params: parseParams(found, path),
        query: parseQuery(route, url),
        body: route.body ? parseBody(route.body, await readJsonBody(request)) : undefined,
        headers: request.headers,
      };
      const data = await runOperation(operations, route.operation, context, route.variables(input));
      const shape = shapes.get(route);
      const body = shape?.schema ? shape.toBody(data[shape.rootKey]) : undefined;
      const outcome = route.outcome?.(data, body);
      return jsonResponse(outcome?.status ?? route.success.status, body, { ...context.responseHeaders, ...outcome?.headers });
    } catch (error) {
      // 401 and 402 come before the rate-limit step, so the context has no budget headers for them.
      if (error instanceof AppError) return errorResponse(error, context.responseHeaders);
      throw error;
    }
  }

  return { routes, shapes, handle };
}
