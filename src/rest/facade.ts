import { Response } from '@whatwg-node/server';
import type { RequestContext } from '../context.js';
import { AppError } from '../errors.js';
import { assertPlanAllowsApi, assertScope, authenticateApiKey, authenticateSiteKey, SITE_ATTEMPT_BUDGET_PER_HOUR, SITE_KEY_BUDGET_PER_HOUR } from '../gate/authenticate.js';
import { parsePaginationQuery } from '../domain/pagination.js';
import { HOUR_MS, rateLimitedError, rateLimitHeaders, type RateLimitResult } from '../infra/rate-limit.js';
import { assertJsonInput, parseInput } from '../domain/validation.js';
import { runOperation, type OperationStore } from './operations.js';
import type { Route, RouteInput } from './route.js';
import { parsePathId } from './routes/params.js';

/** A request body larger than this is refused before parsing; formData's own cap is far below it. */
const MAX_BODY_BYTES = 1_048_576;

interface CompiledRoute {
  route: Route;
  pattern: RegExp;
}

function compile(route: Route): CompiledRoute {
  const source = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace('\\{id\\}', '([^/]+)').replace('{id}', '([^/]+)');
  return { route, pattern: new RegExp(`^${source}$`) };
}

/**
 * Responses are the server adapter's own `Response` (not Node's global one): the adapter writes its string body to
 * the socket in one call, where a global Response's body would be pumped through a ReadableStream chunk by chunk.
 */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  if (body === undefined) return new Response(null, { status, headers });
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } });
}

/**
 * RFC 9110 §9.3.2: HEAD answers exactly as GET would (status, headers, the Content-Length of the body GET would
 * send) with no body.
 */
export async function withoutBody(response: Response): Promise<Response> {
  const body = await response.arrayBuffer();
  const headers = new Headers(response.headers);
  if (body.byteLength && !headers.has('content-length')) headers.set('content-length', String(body.byteLength));
  return new Response(null, { status: response.status, headers });
}

export function errorResponse(error: AppError, headers: Record<string, string> = {}): Response {
  return jsonResponse(error.status, error.toBody(), { ...headers, ...error.headers });
}

async function readJsonBody(request: Request): Promise<unknown> {
  const text = await request.text();
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_BODY_BYTES) throw new AppError('payload_too_large', { cap: MAX_BODY_BYTES, used: bytes });
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AppError('invalid_json');
  }
  // Checked once here, where every body is parsed: no consumer walks an unbounded depth or stores a NUL.
  assertJsonInput(body);
  return body;
}

function parseQuery(route: Route, url: URL): Record<string, unknown> {
  const raw = Object.fromEntries(url.searchParams);
  const page = route.paginated ? parsePaginationQuery(raw.page, raw.limit) : {};
  const { page: _page, limit: _limit, ...rest } = raw;
  const extra = route.query ? parseInput(route.query, rest) : {};
  return { ...page, ...extra };
}

export interface RestFacade {
  routes: Route[];
  handle(request: Request, context: RequestContext): Promise<Response>;
}

/**
 * The v1 REST layer: matches the table, runs the checks in the decided order (authenticate → plan gate → rate
 * limit → scope → input → lookup), then executes the route's pinned GraphQL operation in-process.
 */
export function createRestFacade(operations: OperationStore, routes: Route[]): RestFacade {
  const compiled = routes.map(compile);
  for (const route of routes) {
    if (!operations.has(route.operation)) throw new Error(`Route ${route.method} ${route.path} names a missing operation ${route.operation}`);
  }

  async function limit(context: RequestContext, bucket: string, budget: number): Promise<RateLimitResult> {
    const result = await context.deps.rateLimits.hit(bucket, budget, HOUR_MS);
    if (!result.allowed) throw rateLimitedError(result);
    return result;
  }

  /** Steps up to the rate limit; returns the headers every later response carries. */
  async function admit(route: Route, request: Request, context: RequestContext): Promise<Record<string, string>> {
    if (route.auth === 'siteKey') {
      const viewer = await authenticateSiteKey(context.deps, request.headers.get('x-service-site-key'));
      context.viewer = viewer;
      context.log.accountId = viewer.accountId;
      let result = await limit(context, `site:${viewer.siteId}`, SITE_KEY_BUDGET_PER_HOUR);
      if (route.attemptBudget) result = await limit(context, `site-attempt:${viewer.siteId}`, SITE_ATTEMPT_BUDGET_PER_HOUR);
      return rateLimitHeaders(result);
    }
    const viewer = await authenticateApiKey(context.deps, request.headers.get('authorization'));
    context.viewer = viewer;
    context.log.accountId = viewer.accountId;
    context.log.keyId = viewer.keyId;
    if (route.planGate !== false) assertPlanAllowsApi(viewer);
    return rateLimitHeaders(await limit(context, `key:${viewer.keyId}`, viewer.rateLimitPerHour));
  }

  async function handle(request: Request, context: RequestContext): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname.replace(/^\/v1/, '') || '/';
    const matching = compiled.filter(({ pattern }) => pattern.test(path));
    if (!matching.length) return errorResponse(new AppError('not_found'));
    // HEAD is GET without the body (stripped by the app for every answer): same gate, budget and headers.
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const found = matching.find(({ route }) => route.method === method);
    if (!found) {
      const allow = [...new Set(matching.flatMap(({ route }) => (route.method === 'GET' ? ['GET', 'HEAD'] : [route.method])))].join(', ');
      return errorResponse(new AppError('method_not_allowed', {}, { headers: { Allow: allow } }));
    }
    const { route, pattern } = found;
    context.log.route = `${request.method} /v1${route.path}`;

    let headers: Record<string, string> = {};
    try {
      headers = await admit(route, request, context);
      // Kept on the context too, so that even a 500 after this step carries the budget headers.
      context.responseHeaders = headers;
      if (route.auth === 'apiKey' && route.scope && context.viewer?.kind === 'apiKey') assertScope(context.viewer, route.scope);

      const rawId = pattern.exec(path)?.[1];
      const id = rawId === undefined ? undefined : parsePathId(rawId);
      if (id === null) throw new AppError('invalid_id');
      const input: RouteInput = {
        params: id === undefined ? {} : { id },
        query: parseQuery(route, url),
        body: route.body ? route.body.parse(await readJsonBody(request)) : undefined,
        headers: request.headers,
      };
      const data = await runOperation(operations, route.operation, context, route.variables(input));
      const result = route.respond(data, input);
      return jsonResponse(result.status, result.body, { ...headers, ...result.headers });
    } catch (error) {
      // 401 and 402 come before the rate-limit step, so `headers` is still empty for them.
      if (error instanceof AppError) return errorResponse(error, headers);
      throw error;
    }
  }

  return { routes, handle };
}
