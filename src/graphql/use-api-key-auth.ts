import type { Plugin } from 'graphql-yoga';
import type { RequestContext } from '../context.js';
import { admit, GRAPHQL_POLICY } from '../gate/gate.js';

export interface GraphQLServerContext {
  requestContext: RequestContext;
}

/** POST /graphql passes the one gate (src/gate/gate.ts) with its fixed policy; scopes are checked per field. */
export async function authenticateGraphQL({ requestContext, request }: GraphQLServerContext & { request: Request }): Promise<RequestContext> {
  await admit(GRAPHQL_POLICY, request.headers, requestContext);
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
