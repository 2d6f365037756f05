import type { Plugin } from 'graphql-yoga';
import type { RequestContext } from '../context.js';
import { assertPlanAllowsApi, authenticateApiKey } from '../gate/authenticate.js';
import { HOUR_MS, rateLimitedError, rateLimitHeaders } from '../infra/rate-limit.js';

export interface GraphQLServerContext {
  requestContext: RequestContext;
}

/**
 * POST /graphql passes the same gate as REST, in the same order: API key (401) → plan (402) → hourly budget (429),
 * shared with REST. Scopes are checked per field by scope-auth. Thrown AppErrors carry their HTTP status.
 */
export async function authenticateGraphQL({ requestContext, request }: GraphQLServerContext & { request: Request }): Promise<RequestContext> {
  const viewer = await authenticateApiKey(requestContext.deps, request.headers.get('authorization'));
  requestContext.viewer = viewer;
  requestContext.log.accountId = viewer.accountId;
  requestContext.log.keyId = viewer.keyId;
  assertPlanAllowsApi(viewer);
  const result = await requestContext.deps.rateLimits.hit(`key:${viewer.keyId}`, viewer.rateLimitPerHour, HOUR_MS);
  requestContext.responseHeaders = rateLimitHeaders(result);
  if (!result.allowed) throw rateLimitedError(result);
  return requestContext;
}

/** Copies the request's rate-limit headers onto whatever response Yoga produced. */
export function useResponseHeaders(): Plugin<GraphQLServerContext> {
  return {
    onResponse({ response, serverContext }) {
      const { requestContext } = serverContext as Partial<GraphQLServerContext>;
      for (const [name, value] of Object.entries(requestContext?.responseHeaders ?? {})) response.headers.set(name, value);
    },
  };
}
