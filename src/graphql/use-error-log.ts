import { GraphQLError } from 'graphql';
import { maskError as yogaMaskError, type Plugin, type YogaServerOptions } from 'graphql-yoga';
import type { RequestContext } from '../context.js';
import type { GraphQLServerContext } from './use-api-key-auth.js';

type MaskError = NonNullable<Exclude<YogaServerOptions<GraphQLServerContext, object>['maskedErrors'], boolean | undefined>['maskError']>;

/**
 * Every unexpected error on /graphql is logged once with its request id, as REST's 500s are (house style 20).
 * Yoga masks it ("Unexpected error.") where no request is in sight, so the mask keeps the cause beside the masked
 * error, and the request's result hook, which knows the request, reports it.
 */
export function createGraphQLErrorLog(report: (context: RequestContext | undefined, cause: unknown) => void): {
  maskError: MaskError;
  plugin: Plugin<GraphQLServerContext>;
  /** For the compiled path (compiled-path.ts), which answers without Yoga: masks as Yoga would and reports at once. */
  mask: (errors: readonly GraphQLError[], context: RequestContext) => GraphQLError[];
} {
  const causes = new WeakMap<object, unknown>();
  const isDev = process.env.NODE_ENV === 'development';
  return {
    mask: (errors, context) =>
      errors.map((error) => {
        const masked = yogaMaskError(error, 'Unexpected error.', isDev);
        if (masked !== error) report(context, error.originalError ?? error);
        return masked as GraphQLError;
      }),
    maskError: (error, message, isDev) => {
      const masked = yogaMaskError(error, message, isDev);
      if (masked !== error && typeof masked === 'object' && masked !== null) {
        causes.set(masked, error instanceof GraphQLError && error.originalError ? error.originalError : error);
      }
      return masked;
    },
    plugin: {
      onResultProcess({ result, serverContext }) {
        const { requestContext } = serverContext as Partial<GraphQLServerContext>;
        for (const single of Array.isArray(result) ? result : [result]) {
          if (!('errors' in single) || !single.errors) continue;
          for (const error of single.errors) {
            if (causes.has(error)) report(requestContext, causes.get(error));
          }
        }
      },
    },
  };
}
