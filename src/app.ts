import { randomUUID } from 'node:crypto';
import { Response } from '@whatwg-node/server';
import type { RequestContext } from './context.js';
import { createRequestContext } from './execution/request-context.js';
import { routes } from './execution/routes.js';
import { createRowRunner } from './execution/run-row.js';
import { createGraphQLHandler } from './graphql/graphql-handler.js';
import type { AppDeps } from './deps.js';
import { AppError } from './errors.js';
import { rawStatement, sql } from './infra/sql.js';
import { graphiqlAsset } from './graphql/graphiql-page.js';
import { faviconResponse } from './page-headers.js';
import { documentResponder } from './rest/conditional.js';
import { errorResponse, jsonResponse, createRestFacade, withoutBody } from './rest/facade.js';
import { buildOpenApi } from './rest/openapi.js';
import { referenceResponse } from './rest/reference-page.js';
import { toSchema } from './schema/index.js';
import type { Readiness } from './shutdown.js';
import type { McpEndpoint } from './mcp/mcp-endpoint.js';
import { describeError, loggableHeaders, logger } from './infra/log.js';
import { CLIENT_CLOSED_STATUS, metricsAnswer } from './infra/metrics.js';
import { observeDependencies } from './infra/metrics-sources.js';
import { requestMetrics } from './request-metrics.js';
import { isUnshed, LoadShedder, OVERLOADED } from './load-shedding.js';
import { parseTraceparent, runInTrace } from './infra/trace-context.js';
import { startSpan } from './infra/tracing.js';

/**
 * What the HTTP server knows of a request's connection: `cutMidAnswer` calls back once if the response closes before
 * it is whole (the client went away, or a stalled reader was cut).
 */
export interface Connection {
  cutMidAnswer(listener: () => void): void;
}

export interface App {
  /** `connection` from the HTTP server (src/server.ts); without it (a test's direct call), the request's signal. */
  fetch(request: Request, connection?: Connection): Promise<Response>;
  /**
   * True (and counted) when a request (its method and target) is to be refused with 503 `overloaded` before any
   * work: the HTTP server then writes the refusal itself (src/server.ts).
   */
  refusesAtDoor(method: string, url: string): boolean;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * The request's span (decisions §7.5): a child of a valid incoming `traceparent` (its trace id is the log line's
 * `traceId`), else the root of a new trace. Named by the route template once routing knows it: `GET /v1/forms/{id}`,
 * never the raw path; a request that matched no route is named by its method alone.
 */
function spanEnd(route: string | undefined, status: number) {
  // `POST /mcp <tool>` names its tool in the span's name; the route is the path.
  const template = route?.split(' ')[1];
  return {
    ...(route && { name: route }),
    attributes: { ...(template && { 'http.route': template }), 'http.response.status_code': status },
    failed: status >= 500,
  };
}


/** `readiness`: the process's stop state; a draining replica answers /readyz 503 so that load balancers move on. */
export function createApp(deps: AppDeps, options: { readiness?: Readiness } = {}): App {
  observeDependencies(deps.db, deps.queue);
  const shedder = new LoadShedder(deps.config.maxConcurrentRequests, deps.config.maxQueuedRequests);
  const metricsServed = deps.config.metricsToken !== null;
  const metrics = requestMetrics(metricsServed);
  const schema = toSchema();
  const runner = createRowRunner(schema, routes);
  const rest = createRestFacade(runner);
  const openapi = documentResponder(JSON.stringify(buildOpenApi(runner.routes, runner.shapes)), 'application/json; charset=utf-8');
  // Loaded by the first /mcp request: the SDK and the derived tools cost a gateway that serves no agent nothing.
  let mcp: Promise<McpEndpoint> | undefined;
  const mcpEndpoint = (): Promise<McpEndpoint> =>
    (mcp ??= import('./mcp/mcp-endpoint.js').then(async ({ createMcpEndpoint }) => createMcpEndpoint((await import('./mcp/tools.js')).deriveTools(runner.routes, runner.shapes), runner)));
  // Each request's abort signal (the server adapter aborts it when the client goes away before the answer is whole).
  const signals = new WeakMap<RequestContext, AbortSignal>();
  /**
   * An answer whose client leaves before it is whole (a long export, a large list): one line, one count, no error.
   * An event stream (text/event-stream: the REST stream, a GraphQL subscription) has no end of its own: its client
   * closing it is how it ends, so that is logged as the stream's normal end and not counted as an abort (one cut for
   * not reading is still counted).
   */
  function watchAnswer(request: Request, connection: Connection | undefined, context: RequestContext, response: Response): void {
    const eventStream = response.headers.get('content-type')?.startsWith('text/event-stream') === true;
    // The server's own response object when there is one: a listener on the request's signal (the adapter's
    // EventTarget, behind a Proxy) cost 1 % of a gateway's CPU on the forms list (bench stage `metrics`).
    const cut = connection ?? { cutMidAnswer: (listener: () => void) => request.signal.addEventListener('abort', listener, { once: true }) };
    cut.cutMidAnswer(
      () => {
        const route = context.log.route ?? null;
        // Cut by the service itself (logged `stream failed`): its own series, not the client's abort.
        if (context.log.streamFailed) return void metrics.streamFailure(context.log.route);
        // A reader that stalled and was cut stays an abort, as for any other answer.
        if (eventStream && !context.log.stalled) {
          if (deps.config.logRequests) logger.info({ requestId: context.requestId, route, streamEnded: 'client' }, 'client closed the event stream');
          return;
        }
        metrics.clientAbort(context.log.route, 'response');
        if (deps.config.logRequests) logger.info({ requestId: context.requestId, route, clientAborted: 'response' }, 'client closed the connection mid-answer');
      },
    );
  }
  // A body cut off by its client fails to parse or read: not an unexpected error of ours (the request line says 499).
  const graphql = createGraphQLHandler(schema, (context) => signals.get(context)?.aborted === true, deps.config.graphqlAnswerCacheBytes);

  async function route(request: Request, context: RequestContext): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (isUnshed(pathname)) {
      context.log.route = `${request.method} ${pathname}`;
      // Probes and the scraper read; any other method is not theirs (and a POST must not scrape /metrics).
      if (request.method !== 'GET' && request.method !== 'HEAD') return errorResponse(new AppError('method_not_allowed', {}, { headers: { Allow: 'GET, HEAD' } }));
    }
    if (pathname === '/healthz') return jsonResponse(200, { status: 'ok' });
    if (pathname === '/metrics') {
      // Before any gate: never rate-limited, and its own token, not an API key (decisions §7.5).
      const answer = await metricsAnswer(request.headers.get('authorization'), deps.config.metricsToken);
      return new Response(answer.body, { status: answer.status, headers: answer.headers });
    }
    if (pathname === '/readyz') {
      if (options.readiness?.draining) return jsonResponse(503, { status: 'draining' });
      if (shedder.overloaded) return jsonResponse(503, { status: 'overloaded' });
      try {
        await deps.db.sql(rawStatement(sql`SELECT 1`));
        // Still ready without Redis: every replica is in the same state and serves with its own counters; taking
        // them out of rotation (or restarting them) would turn a degraded service into an outage.
        return jsonResponse(200, deps.rateLimits.degraded ? { status: 'degraded', redis: 'unavailable' } : { status: 'ready' });
      } catch {
        return jsonResponse(503, { status: 'unavailable' });
      }
    }
    if (pathname === '/graphql') {
      context.log.route = `${request.method} /graphql`;
      return graphql.handle(request, context);
    }
    if (pathname === '/mcp') return (await mcpEndpoint()).handle(request, context);
    if (pathname === '/v1/openapi.json' && (request.method === 'GET' || request.method === 'HEAD')) {
      context.log.route = `${request.method} /v1/openapi.json`;
      return openapi(request);
    }
    if (pathname === '/favicon.ico' && (request.method === 'GET' || request.method === 'HEAD')) {
      context.log.route = `${request.method} /favicon.ico`;
      return faviconResponse();
    }
    if (pathname.startsWith('/graphiql/') && (request.method === 'GET' || request.method === 'HEAD')) {
      const asset = await graphiqlAsset(request, pathname);
      // As under /docs: only a file that exists names the route.
      if (asset) {
        context.log.route = `${request.method} ${pathname}`;
        return asset;
      }
    }
    if ((pathname === '/docs' || pathname.startsWith('/docs/')) && (request.method === 'GET' || request.method === 'HEAD')) {
      const page = await referenceResponse(pathname);
      // Only a page that exists names the route: any other path under /docs is one more unmatched request.
      if (page) {
        context.log.route = `${request.method} ${pathname}`;
        return page;
      }
    }
    if (pathname === '/v1' || pathname.startsWith('/v1/')) return rest.handle(request, context);
    return errorResponse(new AppError('not_found'));
  }

  return {
    refusesAtDoor(method, url) {
      if (!shedder.refusesAtDoor(url)) return false;
      metrics.shed(method, performance.now());
      return true;
    },
    async fetch(request, connection) {
      const started = performance.now();
      const span = startSpan(request.method, parseTraceparent(request.headers.get('traceparent')), { kind: 'server', attributes: { 'http.request.method': request.method } });
      const { traceId } = span.context;
      const incoming = request.headers.get('x-request-id');
      const context = createRequestContext(deps, incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID());
      signals.set(context, request.signal);
      const unshed = isUnshed(request.url);
      const ticket = unshed || shedder.admit();
      const admitted = typeof ticket === 'boolean' ? ticket : await ticket;
      let response: Response;
      try {
        // What the request records or enqueues (an outbox event, a job) carries its trace on (trace-context.ts).
        response = admitted ? await runInTrace(span.context, () => route(request, context)) : errorResponse(OVERLOADED);
      } catch (error) {
        if (!request.signal.aborted) logger.error({ requestId: context.requestId, traceId, route: context.log.route, error: describeError(error) });
        response = errorResponse(new AppError('internal_error'), context.responseHeaders);
      } finally {
        if (admitted && !unshed) shedder.release();
      }
      if (request.method === 'HEAD') response = await withoutBody(response);
      response.headers.set('X-Request-Id', context.requestId);
      // The client went away before its answer existed (mid-body, or while it was computed): whatever failed for
      // want of it is not the service's failure, so the request is 499, as nginx logs it, never a 5xx.
      const status = request.signal.aborted ? CLIENT_CLOSED_STATUS : response.status;
      if (admitted) metrics.request(request.method, context.log.route, status, started);
      else metrics.shed(request.method, started);
      span.end(spanEnd(context.log.route, status));
      if (status === CLIENT_CLOSED_STATUS) metrics.clientAbort(context.log.route, 'request');
      // Only where it is counted or logged: the listener is one more object per request.
      else if (metricsServed || deps.config.logRequests) watchAnswer(request, connection, context, response);
      if (deps.config.logRequests) {
        logger.info({
          requestId: context.requestId,
          traceId,
          method: request.method,
          route: context.log.route ?? null,
          status,
          ...(status === CLIENT_CLOSED_STATUS && { clientAborted: 'request' }),
          ms: Math.round((performance.now() - started) * 10) / 10,
          accountId: context.log.accountId ?? null,
          keyId: context.log.keyId ?? null,
          // Debugging a client: its headers, credentials redacted (src/infra/log.ts).
          ...(logger.isLevelEnabled('debug') && { headers: loggableHeaders(request.headers) }),
        });
      }
      return response;
    },
  };
}
