import type { ExecutionResult, GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { RequestContext } from '../context.js';
import type { GraphQLServerContext } from './use-api-key-auth.js';
import { cachedActual } from './use-answer-cache.js';
import { AppError } from '../errors.js';
import { actualPoints, createCostPlanCache, requestedPoints } from '../gate/cost.js';
import { budgetState, chargePoints, settlePoints } from '../gate/gate.js';
import type { RateLimitResult } from '../infra/rate-limit.js';

/** `extensions.cost` (decisions §7.1): limit, remaining and resetAt are the X-RateLimit-* headers of the same answer. */
export interface CostExtension {
  requested: number;
  actual: number;
  limit: number;
  remaining: number;
  resetAt: string;
}

const costOf = (requested: number, actual: number, budget: RateLimitResult): CostExtension => ({
  requested,
  actual,
  limit: budget.limit,
  remaining: budget.remaining,
  resetAt: new Date(budget.resetAt * 1000).toISOString(),
});

/** Opening an event stream, REST or GraphQL (decisions §7.2). */
const STREAM_POINTS = 1;

const withCost = (result: ExecutionResult, cost: CostExtension): ExecutionResult => ({ ...result, extensions: { ...result.extensions, cost } });

/**
 * /graphql's budget step, priced by cost (decisions §7.1): once the document is parsed and validated, its
 * `requested` points (from the plan cached with the document, and the variables) are taken atomically before it
 * runs, or it is refused with 429 `rate_limited` and `cost`, without running; once it has run, the key pays
 * `actual` (the difference is given back or taken). Every answer from here on carries `extensions.cost`.
 */
export function useCost(schema: GraphQLSchema): Plugin<GraphQLServerContext> {
  const planOf = createCostPlanCache(schema);
  return {
    // A subscription (the live event stream, decisions §7.2) costs what opening the REST stream costs: 1 point, paid
    // once it is open, so that one refused (the cap of 5 streams per key, a bad argument) costs nothing, as on REST.
    onSubscribe({ args, subscribeFn, setSubscribeFn }) {
      const executionContext = args.contextValue as unknown as RequestContext & Partial<GraphQLServerContext>;
      const context = executionContext.requestContext ?? executionContext;
      if (context.viewer?.kind !== 'apiKey') return;
      setSubscribeFn(async (subscribeArgs) => {
        const result = await subscribeFn(subscribeArgs);
        // Refused (the cap, a bad argument): nothing taken, and the answer says so as every priced answer does.
        if (!(Symbol.asyncIterator in result)) return withCost(result, costOf(STREAM_POINTS, 0, await budgetState(context)));
        try {
          executionContext.budget = await chargePoints(context, STREAM_POINTS);
          return result;
        } catch (error) {
          await result.return?.(undefined);
          if (!(error instanceof AppError) || !context.budget) throw error;
          return withCost({ errors: [error] }, costOf(STREAM_POINTS, 0, context.budget));
        }
      });
    },
    async onExecute({ args, setResultAndStopExecution }) {
      // Yoga's context is a copy of the request context (the factory's answer) beside the server context, which
      // holds the request context itself: the gate leaves the budget and its headers there (useResponseHeaders).
      const executionContext = args.contextValue as unknown as RequestContext & Partial<GraphQLServerContext>;
      const context = executionContext.requestContext ?? executionContext;
      if (context.viewer?.kind !== 'apiKey') return undefined;
      const plan = planOf(args.document, args.operationName);
      if (!plan) return undefined;
      const requested = requestedPoints(plan, args.variableValues as Record<string, unknown> | null | undefined);
      try {
        // The resolvers' copy sees the budget too (`rateLimit` answers what the headers say).
        executionContext.budget = await chargePoints(context, requested);
      } catch (error) {
        if (!(error instanceof AppError) || !context.budget) throw error;
        setResultAndStopExecution(withCost({ errors: [error] }, costOf(requested, 0, context.budget)));
        return undefined;
      }
      return {
        async onExecuteDone({ result, setResult }) {
          // Streamed results (subscriptions) pay when they open: what they stream is priced where they are served.
          if (Symbol.asyncIterator in result) return;
          const actual = cachedActual(result) ?? actualPoints(plan, result.data as Record<string, unknown> | null | undefined);
          const budget = actual === requested ? context.budget : await settlePoints(context, actual - requested);
          if (budget) setResult(withCost(result, costOf(requested, actual, budget)));
        },
      };
    },
  };
}
