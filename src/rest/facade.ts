import { Response } from '@whatwg-node/server';
import type { RequestContext } from '../context.js';
import { AppError } from '../errors.js';
import { assertPlanAllowsApi, assertScope, authenticateApiKey, authenticateSiteKey, SITE_ATTEMPT_BUDGET_PER_HOUR, SITE_KEY_BUDGET_PER_HOUR } from '../gate/authenticate.js';
import { parsePaginationQuery } from '../domain/pagination.js';
import { HOUR_MS, rateLimitedError, rateLimitHeaders, type RateLimitResult } from '../infra/rate-limit.js';
import { parseInput } from '../domain/validation.js';
import { runOperation, type OperationStore } from './operations.js';
import type { Route, RouteInput } from './route.js';
import { parseCanonicalId } from './routes/params.js';
import { CACHE_HEADERS, createConditionalGets, matches, notModified, parseIfNoneMatch } from './conditional.js';

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

function jsonTextResponse(status: number, json: string, headers: Record<string, string>): Response {
  return new Response(json, { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } });
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

  const conditionalGets = createConditionalGets();

  /** The budgets a request of this route draws on (decisions §4: per key; per site key, plus its attempts). */
  function budgets(route: Route, context: RequestContext): [string, number][] {
    const viewer = context.viewer;
    if (viewer?.kind === 'site') {
      const list: [string, number][] = [[`site:${viewer.siteId}`, SITE_KEY_BUDGET_PER_HOUR]];
      if (route.attemptBudget) list.push([`site-attempt:${viewer.siteId}`, SITE_ATTEMPT_BUDGET_PER_HOUR]);
      return list;
    }
    return viewer?.kind === 'apiKey' ? [[`key:${viewer.keyId}`, viewer.rateLimitPerHour]] : [];
  }

  /**
   * The rate-limit step: `hit` each budget, or with `peek` (a conditional GET, charged later unless it answers
   * 304) only look at them; 429 when one is spent. Returns the headers every later response carries.
   */
  async function limit(route: Route, context: RequestContext, peek: boolean): Promise<Record<string, string>> {
    let last: RateLimitResult | undefined;
    for (const [bucket, budget] of budgets(route, context)) {
      last = await (peek ? context.deps.rateLimits.peek(bucket, budget, HOUR_MS) : context.deps.rateLimits.hit(bucket, budget, HOUR_MS));
      if (!last.allowed) throw rateLimitedError(last);
    }
    return last ? rateLimitHeaders(last) : {};
  }

  /** Authenticate → plan gate → rate limit; returns the headers every later response carries. */
  async function admit(route: Route, request: Request, context: RequestContext, peek: boolean): Promise<Record<string, string>> {
    if (route.auth === 'siteKey') {
      const viewer = await authenticateSiteKey(context.deps, request.headers.get('x-service-site-key'));
      context.viewer = viewer;
      context.log.accountId = viewer.accountId;
    } else {
      const viewer = await authenticateApiKey(context.deps, request.headers.get('authorization'));
      context.viewer = viewer;
      context.log.accountId = viewer.accountId;
      context.log.keyId = viewer.keyId;
      if (route.planGate !== false) assertPlanAllowsApi(viewer);
    }
    return limit(route, context, peek);
  }

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
    const { route, pattern } = found;
    context.log.route = `${route.method} /v1${route.path}`;

    let headers: Record<string, string> = {};
    // Conditional GET (decisions §6.2): the budget is only peeked at until the answer is known not to be a 304.
    const condition = route.method === 'GET' ? parseIfNoneMatch(request.headers.get('if-none-match')) : null;
    let charged = condition === null;
    const charge = async (): Promise<void> => {
      if (charged) return;
      charged = true;
      context.responseHeaders = headers = await limit(route, context, false);
    };
    try {
      headers = await admit(route, request, context, !charged);
      // Kept on the context too, so that even a 500 after this step carries the budget headers.
      context.responseHeaders = headers;
      if (route.auth === 'apiKey' && route.scope && context.viewer?.kind === 'apiKey') assertScope(context.viewer, route.scope);

      const rawId = pattern.exec(path)?.[1];
      const id = rawId === undefined ? undefined : parseCanonicalId(decodeURIComponent(rawId));
      if (id === null) throw new AppError('invalid_id');
      const input: RouteInput = {
        params: id === undefined ? {} : { id },
        query: parseQuery(route, url),
        body: route.body ? route.body.parse(await readJsonBody(request)) : undefined,
        headers: request.headers,
      };
      // ── conditional-request hook (src/rest/conditional.ts) ──
      const known = condition && (await conditionalGets.shortcut(route, context, input, condition));
      if (known) return notModified(known, headers);
      const data = await runOperation(operations, route.operation, context, route.variables(input));
      const result = route.respond(data, input);
      if (route.method === 'GET' && result.status === 200) {
        const json = JSON.stringify(result.body);
        const etag = conditionalGets.settle(route, context, input, json);
        if (condition && matches(condition, etag)) return notModified(etag, headers);
        await charge();
        return jsonTextResponse(200, json, { ...headers, ...result.headers, ...CACHE_HEADERS, ETag: etag });
      }
      // ── end of the hook ──
      return jsonResponse(result.status, result.body, { ...headers, ...result.headers });
    } catch (error) {
      // 401 and 402 come before the rate-limit step, so `headers` is still empty for them. A conditional GET that
      // fails after its peek is charged like any request (or refused, if the budget ran out meanwhile).
      if (error instanceof AppError) {
        if (!charged && Object.keys(headers).length) {
          try {
            await charge();
          } catch (refused) {
            if (refused instanceof AppError) return errorResponse(refused);
            throw refused;
          }
        }
        return errorResponse(error, headers);
      }
      throw error;
    }
  }

  return { routes, handle };
}
