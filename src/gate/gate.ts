import type { RequestContext } from '../context.js';
import { HOUR_MS, rateLimitedError, rateLimitHeaders, type RateLimitResult } from '../infra/rate-limit.js';
import type { Scope } from '../scopes.js';
import { assertPlanAllowsApi, assertScope, authenticateApiKey, authenticateSiteKey, SITE_ATTEMPT_BUDGET_PER_HOUR, SITE_KEY_BUDGET_PER_HOUR } from './authenticate.js';

/** What a request must pass: a v1 route's row, or /graphql's fixed policy. */
export interface GatePolicy {
  /** apiKey: Bearer key (plan gate, budget, scope); siteKey: X-Service-Site-Key. */
  auth: 'apiKey' | 'siteKey';
  /** Only DELETE /webhooks/{id} passes the Free-plan gate. */
  planGate?: false;
  /** Site-key routes that also draw on the per-site attempt budget. */
  attemptBudget?: true;
  /**
   * Checked here, before the input (contract §4 order: scope → input). A v1 row's is its root field's authScopes
   * (src/execution/run-route.ts, compileRoutes); /graphql's is null: its fields carry their scopes (scope-auth).
   * Undefined only on a row that never went through compileRoutes: refused, never admitted unscoped.
   */
  scope?: Scope | null;
  /**
   * How the request pays (decisions §7.1; one budget in points): by default 1 point per request. `free`: it only
   * looks at the budget and is never refused (GET /rate_limit). `priced`: the gate takes nothing; the transport
   * prices the request and pays through `chargePoints` / `settlePoints` (/graphql, by cost).
   */
  budget?: 'free' | 'priced';
}

/** /graphql: API keys only, plan-gated; scopes per field; priced by cost after the document is known. */
export const GRAPHQL_POLICY: GatePolicy = { auth: 'apiKey', budget: 'priced', scope: null };

/** Leaves the budget's headers on the response and its state on the context; throws the 429 of a refusal. */
function record(context: RequestContext, result: RateLimitResult, cost?: number): RateLimitResult {
  // Set before a refusal too: the 429 carries the budget headers.
  context.responseHeaders = rateLimitHeaders(result);
  context.budget = result;
  if (!result.allowed) throw rateLimitedError(result, cost);
  return result;
}

async function spend(context: RequestContext, bucket: string, budget: number, peek = false): Promise<RateLimitResult> {
  const limits = context.deps.rateLimits;
  // A peek (a conditional GET, contract §6.2) looks at the budget without using it: 429 when it is spent.
  return record(context, await (peek ? limits.peek(bucket, budget, HOUR_MS) : limits.hit(bucket, budget, HOUR_MS)));
}

/** The hourly budgets a request under this policy draws on (contract §4: per key; per site key, plus its attempts). */
function budgets(policy: GatePolicy, context: RequestContext): [string, number][] {
  const viewer = context.viewer;
  if (viewer?.kind === 'site') {
    const list: [string, number][] = [[`site:${viewer.siteId}`, SITE_KEY_BUDGET_PER_HOUR]];
    if (policy.attemptBudget) list.push([`site-attempt:${viewer.siteId}`, SITE_ATTEMPT_BUDGET_PER_HOUR]);
    return list;
  }
  return viewer?.kind === 'apiKey' ? [[`key:${viewer.keyId}`, viewer.rateLimitPerHour]] : [];
}

async function spendAll(policy: GatePolicy, context: RequestContext, peek: boolean): Promise<void> {
  if (policy.budget === 'priced') return;
  if (policy.budget === 'free') {
    await budgetState(context);
    return;
  }
  for (const [bucket, budget] of budgets(policy, context)) await spend(context, bucket, budget, peek);
}

/** The admitted API key's bucket: its points are one budget, whichever transport spends them. */
function keyBudget(context: RequestContext): { bucket: string; limit: number } {
  const viewer = context.viewer;
  if (viewer?.kind !== 'apiKey') throw new Error('API-key viewer expected: admit() runs first');
  return { bucket: `key:${viewer.keyId}`, limit: viewer.rateLimitPerHour };
}

/**
 * "Charge N points", for any transport admitted with `budget: 'priced'` (GraphQL by cost; MCP calls and event
 * streams at their route's price): takes `points` of the admitted key's budget atomically (across replicas with Redis), or
 * refuses with 429 `rate_limited` carrying `cost: points` and taking nothing when fewer are left. 0 points only looks.
 */
export async function chargePoints(context: RequestContext, points: number): Promise<RateLimitResult> {
  if (points === 0) return budgetState(context);
  const { bucket, limit } = keyBudget(context);
  return record(context, await context.deps.rateLimits.hit(bucket, limit, HOUR_MS, points), points);
}

/** After the fact: `delta` more points (negative: some back), never refused (a priced request reserved first). */
export async function settlePoints(context: RequestContext, delta: number): Promise<RateLimitResult> {
  const { bucket, limit } = keyBudget(context);
  return record(context, await context.deps.rateLimits.adjust(bucket, limit, delta, HOUR_MS));
}

/**
 * The budget as it stands, never refused (GET /rate_limit, `rateLimit`: how a client learns when to retry). It takes
 * 0 points, which starts the key's window when none runs (contract: the window starts at a key's first request), so
 * the reset it reports is the window's end, not an hour from whenever the client asked.
 */
export async function budgetState(context: RequestContext): Promise<RateLimitResult> {
  const { bucket, limit } = keyBudget(context);
  return record(context, { ...(await context.deps.rateLimits.hit(bucket, limit, HOUR_MS, 0)), allowed: true });
}

export interface AdmitOptions {
  /**
   * Only look at the budget (a conditional GET): the caller `charge`s it once the answer is known not to be a
   * 304, which uses no budget (contract §6.2).
   */
  peek?: boolean;
  /** Set by `admit` once a peek passed the budget step: from then on, any answer but a 304 must be charged. */
  peeked?: boolean;
}

/**
 * THE gate of every transport, in the decided order: authenticate (401) → plan gate (402) → hourly budget (429)
 * → scope (403). Leaves the viewer on the context and the rate-limit headers in `context.responseHeaders`
 * (every response after the budget step carries them, a 500 included); throws the AppError of the first failure.
 */
export async function admit(policy: GatePolicy, headers: Headers, context: RequestContext, options: AdmitOptions = {}): Promise<void> {
  if (policy.scope === undefined) throw new Error('A route row reached the gate without its scope: run the table through compileRoutes');
  await identify(policy, headers, context);
  await pass(policy, context, options);
}

/**
 * The gate's first two steps: authenticate (401) → plan gate (402), leaving the viewer on the context. /mcp takes
 * them once per request, before any method, and `pass`es each tool call's route (decisions §7.3).
 */
export async function identify(policy: GatePolicy, headers: Headers, context: RequestContext): Promise<void> {
  if (policy.auth === 'siteKey') {
    const viewer = await authenticateSiteKey(context.deps, headers.get('x-service-site-key'));
    context.viewer = viewer;
    context.log.accountId = viewer.accountId;
    return;
  }
  const viewer = await authenticateApiKey(context.deps, headers.get('authorization'));
  context.viewer = viewer;
  context.log.accountId = viewer.accountId;
  context.log.keyId = viewer.keyId;
  if (policy.planGate !== false) assertPlanAllowsApi(viewer);
}

/** The gate's last two steps for the viewer `identify` left on the context: hourly budget (429) → scope (403). */
export async function pass(policy: GatePolicy, context: RequestContext, options: AdmitOptions = {}): Promise<void> {
  if (policy.scope === undefined) throw new Error('A route row reached the gate without its scope: run the table through compileRoutes');
  const peek = options.peek === true;
  await spendAll(policy, context, peek);
  if (peek) options.peeked = true;
  if (policy.scope && context.viewer?.kind === 'apiKey') assertScope(context.viewer, policy.scope);
}

/**
 * Uses the budget a request admitted with `peek` only looked at (429, with its headers, when it ran out
 * meanwhile). The viewer is the one `admit` left on the context.
 */
export async function charge(policy: GatePolicy, context: RequestContext): Promise<void> {
  await spendAll(policy, context, false);
}
