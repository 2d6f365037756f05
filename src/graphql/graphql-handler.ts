import { createYoga } from 'graphql-yoga';
import type { GraphQLSchema } from 'graphql';
import type { RequestContext } from '../context.js';
import { describeError, logger } from '../infra/log.js';
import { currentTrace } from '../infra/trace-context.js';
import { GRAPHIQL_OPTIONS, renderGraphiQLPage, useGraphiQLPageHeaders } from './graphiql-page.js';
import { useGate, useResponseHeaders, type GraphQLServerContext } from './use-api-key-auth.js';
import { createGraphQLErrorLog } from './use-error-log.js';
import { useAnswerCache } from './use-answer-cache.js';
import { useCost } from './use-cost.js';
import { useJit } from './use-jit.js';
import { useOperationMetrics } from './use-operation-metrics.js';
import { useRequestLimits } from './use-request-limits.js';
import { useRequestShape } from './use-request-shape.js';

/**
 * Browser dashboards may call /graphql from any origin. A key travels only in the Authorization header, never in a
 * cookie, so no credentials are allowed (Yoga's default would reflect the origin with Allow-Credentials: true), and
 * scripts may read the budget and request-id headers. /v1 sends no CORS headers: it is for servers, which hold keys.
 */
const GRAPHQL_CORS = {
  origin: '*',
  credentials: false,
  methods: ['GET', 'POST'],
  allowedHeaders: ['Authorization', 'Content-Type', 'X-Request-Id'],
  exposedHeaders: ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'X-Request-Id'],
  maxAge: 600,
};

export interface GraphQLHandler {
  handle(request: Request, context: RequestContext): Promise<Response>;
}

/**
 * /graphql over HTTP (GET, POST, GraphiQL for a browser, subscriptions over SSE, CORS), through Yoga and its plugins.
 *
 * Yoga stays in front for what users rely on: GraphQL over HTTP (content negotiation, GET, the graphql-http audits),
 * GraphiQL, CORS, masked errors and the SSE transport of subscriptions. Documents are parsed and validated once
 * (Yoga's caches, by document text) and compiled once (graphql-jit, use-jit.ts), the same compiled path as /v1's
 * pinned operations; an answer's data is serialised once (use-answer-cache.ts hands Yoga the text). What Yoga costs,
 * measured (bench stage `dashboard`, DASHBOARD_PROFILE=1, 2026-12-06, self time of the gateway's busy CPU): Yoga,
 * envelop and @whatwg-node ~11 % when the dashboard runs, ~21 % when it is served from the answer cache, where the
 * socket writes of the 33 KB answer (~21 %) are the other large part.
 */
export function createGraphQLHandler(schema: GraphQLSchema, clientLeft: (context: RequestContext) => boolean, answerCacheBytes: number): GraphQLHandler {
  const errorLog = createGraphQLErrorLog((context, error) => {
    // A body cut off by its client fails to parse or read: not an unexpected error of ours (the request line says 499).
    if (context && clientLeft(context)) return;
    // The request's trace (app.ts runs it in its trace): the same fields as REST's error line (operator guide, Logs).
    logger.error({ requestId: context?.requestId ?? null, traceId: currentTrace()?.traceId ?? null, route: context?.log.route ?? '/graphql', error: describeError(error) });
  });
  const yoga = createYoga<GraphQLServerContext>({
    schema,
    graphqlEndpoint: '/graphql',
    cors: GRAPHQL_CORS,
    logging: false,
    // The body cap is MAX_BODY_BYTES, as on /v1 (src/request-body.ts, applied in useRequestLimits).
    maxRequestBodySize: false,
    maskedErrors: { maskError: errorLog.maskError },
    renderGraphiQL: renderGraphiQLPage,
    graphiql: GRAPHIQL_OPTIONS,
    // The gate admitted the request before it was parsed (useGate): its context is the request's.
    context: ({ requestContext }) => requestContext,
    plugins: [useRequestShape(), useGate(), useRequestLimits(), useJit(), useCost(schema), useResponseHeaders(), useGraphiQLPageHeaders(), errorLog.plugin, useOperationMetrics(), useAnswerCache(schema, answerCacheBytes)],
  });
  return { handle: async (request, context) => yoga.fetch(request, { requestContext: context }) };
}
