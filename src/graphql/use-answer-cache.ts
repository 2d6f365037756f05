import type { ExecutionResult, GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { RequestContext } from '../context.js';
import { accountFormsVersion } from '../domain/forms/form-version.js';
import { createAnswerCache } from '../execution/answer-cache.js';
import type { GraphQLServerContext } from './use-api-key-auth.js';

/** A result served from the cache: its `actual` points, for the budget step (use-cost.ts), which cannot count `data`. */
const CACHED_ACTUAL = Symbol('cachedActual');

type Serialisable = ExecutionResult & { stringify?: (result: ExecutionResult) => string; [CACHED_ACTUAL]?: number };

export const cachedActual = (result: ExecutionResult): number | undefined => (result as Serialisable)[CACHED_ACTUAL];

/**
 * Yoga writes a result with its `stringify` when it has one: the answer's `data` goes out as the text already
 * serialised, only `extensions` (the cost, which changes with every answer) is serialised per request. Anything
 * that replaced `data` on the way (no plugin does) is serialised as usual.
 */
function withSerialisedData(result: ExecutionResult, data: string): Serialisable {
  const own = result.data;
  return {
    ...result,
    stringify: (sent) =>
      sent.data !== own || sent.errors !== undefined ? JSON.stringify(sent) : sent.extensions === undefined ? `{"data":${data}}` : `{"data":${data},"extensions":${JSON.stringify(sent.extensions)}}`,
  };
}

/**
 * /graphql's answers over forms and submissions, served from src/execution/answer-cache.ts under the account's
 * forms version (one statement, read before the query runs). Registered last: every other plugin's `onExecute`
 * (the budget step charges `requested` first) has run when a cached answer stops the execution.
 */
export function useAnswerCache(schema: GraphQLSchema, maxBytes: number): Plugin<GraphQLServerContext> {
  const cache = createAnswerCache(schema, maxBytes);
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const executionContext = args.contextValue as unknown as RequestContext & Partial<GraphQLServerContext>;
      const context = executionContext.requestContext ?? executionContext;
      const viewer = context.viewer;
      if (viewer?.kind !== 'apiKey') return undefined;
      const key = cache.keyOf(args.document, args.operationName, args.variableValues, viewer);
      if (key === null) return undefined;
      const { version, phi } = await accountFormsVersion(context.deps.db, viewer.accountId);
      if (phi) return undefined;
      const cached = cache.get(key, version);
      if (cached) {
        const answer: Serialisable = { ...withSerialisedData({ data: {} }, cached.data), [CACHED_ACTUAL]: cached.actual };
        setResultAndStopExecution(answer);
        return undefined;
      }
      return {
        onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result || result.errors !== undefined || result.data == null) return;
          const actual = (result.extensions?.cost as { actual?: number } | undefined)?.actual;
          if (actual === undefined) return;
          const data = JSON.stringify(result.data);
          cache.set(key, version, { data, actual });
          setResult(withSerialisedData(result, data));
        },
      };
    },
  };
}
