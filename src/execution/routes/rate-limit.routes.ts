import type { Route } from '../route.js';
import { rowsOf } from '../rows.js';

/** Decisions §7.1: any valid key past the plan gate, no scope, 0 points, never 429 (it is how a client learns when to retry). */
const rateLimit = rowsOf({ tag: 'Rate limit', auth: 'apiKey' });

export const rateLimitRoutes: Route[] = [
  rateLimit.row('GET /rate_limit', {
    summary: 'Get the rate limit',
    description:
      "What is left of the key's hourly budget, in points ({ limit, remaining, used, reset }), with the rate-limit headers. Any valid key, no scope; it costs nothing and is never refused, also when the budget is spent: ask it when to retry.",
    budget: 'free',
    operation: 'get-rate-limit',
  }),
];
