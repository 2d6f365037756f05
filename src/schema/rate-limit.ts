import { budgetState } from '../gate/gate.js';
import type { RateLimitResult } from '../infra/rate-limit.js';
import { builder } from './builder.js';

/**
 * The budget itself (decisions §7.1): `query { rateLimit { … } }` alone costs 0 points and needs no scope, and
 * GET /v1/rate_limit answers the same fields (`reset` in Unix seconds). It reads the state the gate left on the
 * request, so its values are the X-RateLimit-* headers of the same answer when it is selected alone; beside other
 * fields it runs while the operation's `requested` points are set aside, before the key pays `actual` (use-cost.ts).
 */
const RateLimitRef = builder.objectRef<RateLimitResult>('RateLimit').implement({
  description: "The API key's hourly budget in points; used + remaining = limit",
  fields: (t) => ({
    limit: t.exposeInt('limit', { description: 'Points per window (X-RateLimit-Limit)' }),
    remaining: t.exposeInt('remaining', {
      description:
        'Points left (X-RateLimit-Remaining). Beside other fields, with the points this operation requested set aside: the headers and extensions.cost then say what is left after it paid its actual cost',
    }),
    used: t.int({ description: 'Points used in this window', resolve: (budget) => budget.limit - budget.remaining }),
    reset: t.exposeInt('resetAt', { description: 'When the window ends, in Unix seconds (X-RateLimit-Reset)' }),
    resetAt: t.field({ type: 'DateTime', description: 'When the window ends', resolve: (budget) => new Date(budget.resetAt * 1000) }),
  }),
});

builder.queryFields((t) => ({
  rateLimit: t.field({
    type: RateLimitRef,
    description: 'What is left of the hourly budget; an operation selecting only this field costs 0 points',
    authScopes: { apiKey: true },
    resolve: async (_root, _args, context) => context.budget ?? budgetState(context),
  }),
}));
