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
   * Checked here, before the input (decisions §4 order: scope → input). /graphql leaves it out: its fields
   * carry their scopes (scope-auth), the same ones a route names (test/rest/contract.test.ts holds them equal).
   */
  scope?: Scope | null;
}

/** /graphql: API keys only, plan-gated; scopes per field. */
export const GRAPHQL_POLICY: GatePolicy = { auth: 'apiKey' };

async function spend(context: RequestContext, bucket: string, budget: number): Promise<RateLimitResult> {
  const result = await context.deps.rateLimits.hit(bucket, budget, HOUR_MS);
  // Set before a refusal too: the 429 carries the budget headers.
  context.responseHeaders = rateLimitHeaders(result);
  if (!result.allowed) throw rateLimitedError(result);
  return result;
}

/**
 * THE gate of both transports, in the decided order: authenticate (401) → plan gate (402) → hourly budget (429)
 * → scope (403). Leaves the viewer on the context and the rate-limit headers in `context.responseHeaders`
 * (every response after the budget step carries them, a 500 included); throws the AppError of the first failure.
 */
export async function admit(policy: GatePolicy, headers: Headers, context: RequestContext): Promise<void> {
  if (policy.auth === 'siteKey') {
    const viewer = await authenticateSiteKey(context.deps, headers.get('x-service-site-key'));
    context.viewer = viewer;
    context.log.accountId = viewer.accountId;
    await spend(context, `site:${viewer.siteId}`, SITE_KEY_BUDGET_PER_HOUR);
    if (policy.attemptBudget) await spend(context, `site-attempt:${viewer.siteId}`, SITE_ATTEMPT_BUDGET_PER_HOUR);
    return;
  }
  const viewer = await authenticateApiKey(context.deps, headers.get('authorization'));
  context.viewer = viewer;
  context.log.accountId = viewer.accountId;
  context.log.keyId = viewer.keyId;
  if (policy.planGate !== false) assertPlanAllowsApi(viewer);
  await spend(context, `key:${viewer.keyId}`, viewer.rateLimitPerHour);
  if (policy.scope) assertScope(viewer, policy.scope);
}
