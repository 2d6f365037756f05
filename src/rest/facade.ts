import { Response } from '@whatwg-node/server';
import type { RequestContext } from '../context.js';
import { AppError } from '../errors.js';
import { logger } from '../infra/log.js';
import { admit, charge as chargeBudget, type AdmitOptions } from '../gate/gate.js';
import { assertJsonInput } from '../domain/validation.js';
import { isStreamRoute, type Route, type TableRoute } from '../execution/route.js';
import { parseRowInput, type RowRunner } from '../execution/run-row.js';
import { bodyMayBeOmitted } from '../execution/route-parameters.js';
import { streamedResponse } from './streamed-body.js';
import { readBodyText } from '../request-body.js';
import { CACHE_HEADERS, createConditionalGets, etagOf, matches, notModified, parseIfNoneMatch } from './conditional.js';

interface CompiledRoute {
  route: TableRoute;
  pattern: RegExp;
  /** The path's `{name}` placeholders, in order. */
  names: string[];
}

function compile(route: TableRoute): CompiledRoute {
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? '');
  const source = route.path
    .split(/\{\w+\}/)
    .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
    .join('([^/]+)');
  return { route, pattern: new RegExp(`^${source}$`), names };
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
  // An event stream has no end, hence no length: HEAD answers its headers and lets the stream go at once.
  if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
    await response.body?.cancel();
    return new Response(null, { status: response.status, headers: response.headers });
  }
  const body = await response.arrayBuffer();
  const headers = new Headers(response.headers);
  if (body.byteLength && !headers.has('content-length')) headers.set('content-length', String(body.byteLength));
  return new Response(null, { status: response.status, headers });
}

function jsonTextResponse(status: number, json: string, headers: Record<string, string>): Response {
  return new Response(json, { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } });
}

export function errorResponse(error: AppError, headers: Record<string, string> = {}): Response {
  return jsonResponse(error.status, error.toBody(), { ...headers, ...error.headers });
}

async function readJsonBody(request: Request, route: TableRoute): Promise<unknown> {
  const text = await readBodyText(request);
  if (text === '' && bodyMayBeOmitted(route)) return {};
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

/**
 * `Link: <…>; rel="next"` (RFC 8288, decisions §7.6): the list's own path with its filters as the request gave them
 * (in the row's order), the limit it was answered with, and the cursor of the following page.
 */
function nextLink(route: Route, url: URL, limit: unknown, next: string): string {
  const params = new URLSearchParams();
  for (const name of Object.keys(route.query?.shape ?? {})) {
    const value = url.searchParams.get(name);
    if (name !== 'after' && value !== null) params.set(name, value);
  }
  params.set('limit', String(limit));
  params.set('after', next);
  return `<${url.pathname}?${params.toString()}>; rel="next"`;
}

/** A streamed body that failed after its first byte: the name only, never row data. */
function logStreamFailure(context: RequestContext, error: unknown): void {
  const name = error instanceof Error ? error.name : typeof error;
  context.log.streamFailed = true;
  logger.error({ requestId: context.requestId, route: context.log.route, error: { name } }, 'stream failed');
}

export interface RestFacade {
  handle(request: Request, context: RequestContext): Promise<Response>;
}

/**
 * The v1 REST layer: matches the table, runs the checks in the decided order (authenticate → plan gate → rate
 * limit → scope → input → lookup), then executes the route's pinned GraphQL operation in-process.
 */
export function createRestFacade(runner: RowRunner): RestFacade {
  const compiled = runner.routes.map(compile);
  const conditionalGets = createConditionalGets();

  async function handle(request: Request, context: RequestContext): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname.replace(/^\/v1/, '') || '/';
    const matching = compiled.filter(({ pattern }) => pattern.test(path));
    if (!matching.length) return errorResponse(new AppError('not_found'));
    // HEAD is GET without the body (stripped by the app for every answer): same gate, budget and headers.
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const found = matching.find(({ route }) => route.method === method);
    if (!found) {
      // The path is a route's (its template labels the answer), the method is not.
      context.log.route = `${request.method} /v1${matching[0]!.route.path}`;
      const allow = [...new Set(matching.flatMap(({ route }) => (route.method === 'GET' ? ['GET', 'HEAD'] : [route.method])))].join(', ');
      return errorResponse(new AppError('method_not_allowed', {}, { headers: { Allow: allow } }));
    }
    const { route } = found;
    context.log.route = `${request.method} /v1${route.path}`;

    // Conditional GET (contract §6.2): the budget is only peeked at until the answer is known not to be a 304.
    const condition = route.method === 'GET' ? parseIfNoneMatch(request.headers.get('if-none-match')) : null;
    // A streamed row too: a stream refused for its cap costs nothing (contract §7.2), so its budget is charged once opened.
    const gate: AdmitOptions = { peek: condition !== null || isStreamRoute(route) };
    let charged = !gate.peek;
    const charge = async (): Promise<void> => {
      if (charged) return;
      charged = true;
      await chargeBudget(route, context);
    };
    try {
      await admit(route, request.headers, context, gate);

      const values = found.pattern.exec(path)?.slice(1) ?? [];
      const input = await parseRowInput(route, {
        path: Object.fromEntries(found.names.map((name, index) => [name, values[index] ?? ''])),
        query: url.searchParams,
        readBody: () => readJsonBody(request, route),
        headers: request.headers,
      });
      // Streamed rows (exports): the same gate and input above, then their own lookup and body (streamed-body.ts).
      if (isStreamRoute(route)) {
        // Not hashed (a stream is never held whole): the strong ETag of its version with this request's id and filters.
        const version = route.version ? await route.version(context, input) : null;
        const etag = version === null ? null : etagOf(`${route.path} ${version} ${JSON.stringify(input.params)} ${JSON.stringify(input.query)}`);
        if (etag && condition && matches(condition, etag)) return notModified(etag, context.responseHeaders);
        const streamed = await runner.stream(route, input, context);
        try {
          await charge();
        } catch (refused) {
          await streamed.body[Symbol.asyncIterator]().return?.();
          throw refused;
        }
        // Every authenticated GET's answer is private to its key (§6.2), an untagged stream's too (the event stream, a PHI export).
        const cacheHeaders = etag ? { ...CACHE_HEADERS, ETag: etag } : CACHE_HEADERS;
        return streamedResponse(streamed, { ...context.responseHeaders, ...cacheHeaders }, (failure) => logStreamFailure(context, failure), {
          ms: context.deps.config.streamIdleTimeoutMs,
          onIdle: () => {
            context.log.stalled = true;
            logger.info({ requestId: context.requestId, route: context.log.route }, 'stream ended: the client stopped reading');
          },
        });
      }
      // ── conditional-request hook (src/rest/conditional.ts) ──
      const known = condition && (await conditionalGets.shortcut(route, context, input, condition));
      if (known) return notModified(known, context.responseHeaders);
      const { status, headers, body, next } = await runner.run(route, input, context);
      if (route.method === 'GET' && status === 200 && body !== undefined) {
        const json = JSON.stringify(body);
        const etag = conditionalGets.settle(route, context, input, json);
        if (condition && matches(condition, etag)) return notModified(etag, context.responseHeaders);
        await charge();
        const link: Record<string, string> = next ? { Link: nextLink(route, url, input.query.limit, next) } : {};
        return jsonTextResponse(200, json, { ...context.responseHeaders, ...headers, ...CACHE_HEADERS, ETag: etag, ...link });
      }
      await charge(); // any other answer to a conditional GET is charged like the request it is
      // ── end of the hook ──
      return jsonResponse(status, body, { ...context.responseHeaders, ...headers });
    } catch (error) {
      // 401 and 402 come before the rate-limit step, so the context has no budget headers for them. A conditional
      // GET that fails after its peek passed is charged like any request (or refused, if the budget ran out meanwhile).
      if (error instanceof AppError) {
        if (!charged && gate.peeked && error.code !== 'too_many_streams') {
          try {
            await charge();
          } catch (refused) {
            if (refused instanceof AppError) return errorResponse(refused, context.responseHeaders);
            throw refused;
          }
        }
        return errorResponse(error, context.responseHeaders);
      }
      throw error;
    }
  }

  return { handle };
}
