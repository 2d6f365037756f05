import type { Plugin } from 'graphql-yoga';
import type { RequestContext } from '../context.js';
import { admit, budgetState, GRAPHQL_POLICY } from '../gate/gate.js';
import { setHeader } from './set-header.js';

export interface GraphQLServerContext {
  requestContext: RequestContext;
}

/**
 * POST /graphql passes the one gate (src/gate/gate.ts) with its fixed policy before anything of the request is read:
 * contract §4's order, authenticate (401) → plan gate (402) → … → input (400), so that a request without a valid key
 * learns that first, whatever its body, and its document is never parsed. Its budget step comes once the document is
 * priced (use-cost.ts); scopes are checked per field. Plugins after useRequestShape's method check.
 */
export function useGate(): Plugin<GraphQLServerContext> {
  return {
    async onRequestParse({ request, serverContext }) {
      await admit(GRAPHQL_POLICY, request.headers, (serverContext as unknown as GraphQLServerContext).requestContext);
    },
  };
}

/**
 * Copies the request's rate-limit headers onto whatever response Yoga produced. An answer to an admitted key that
 * never reached the budget step (a document that does not parse or validate, a request of the wrong shape) carries
 * the budget as it stands, as every answer to an authenticated key does (contract §4).
 */
export function useResponseHeaders(): Plugin<GraphQLServerContext> {
  return {
    async onResponse({ response, serverContext }) {
      const { requestContext } = serverContext as Partial<GraphQLServerContext>;
      if (!requestContext) return;
      // The answer is made: a budget store that cannot be read now leaves it without the headers, not a 500.
      if (requestContext.viewer?.kind === 'apiKey' && !requestContext.budget) await budgetState(requestContext).catch(() => undefined);
      for (const [name, value] of Object.entries(requestContext.responseHeaders)) setHeader(response.headers, name, value);
    },
  };
}
