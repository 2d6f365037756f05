import { ERROR_STATUS, type ErrorCode } from '../errors.js';
import type { JsonSchema } from '../execution/response-shape.js';
import type { TableRoute } from '../execution/route.js';

/**
 * The error answers of one route, derived from what the row declares (its credentials, plan gate, scope, path id,
 * pagination, query, body) plus the codes its own rules answer (`errors`), so the document lists every status and
 * code the route can return and nothing it cannot. test/rest/openapi-truth.test.ts holds it to real answers.
 */
export function errorCodesFor(route: TableRoute): ErrorCode[] {
  const codes = new Set<ErrorCode>();
  if (route.auth === 'apiKey') {
    codes.add('invalid_api_key');
    if (route.planGate !== false) codes.add('plan_feature_gated');
    if (route.scope) codes.add('insufficient_scope');
  } else {
    codes.add('missing_site_key').add('site_not_found');
  }
  // A free row (GET /rate_limit) is never refused by the budget (decisions §7.1).
  if (!('budget' in route && route.budget === 'free')) codes.add('rate_limited');
  // Numeric path ids are canonical or 400; an event's public id ({eventId}) is looked up as it is, but a malformed
  // percent-encoding is 400 invalid_id in any placeholder (facade.ts parseParams).
  if (/\{\w+\}/.test(route.path)) codes.add('invalid_id').add('not_found');
  if (route.paginated) codes.add('invalid_pagination');
  if (route.query) codes.add('validation_failed');
  // Any body can be malformed, break its schema, or exceed the 1 MiB read cap.
  if (route.body) codes.add('invalid_json').add('validation_failed').add('payload_too_large');
  for (const code of route.errors ?? []) codes.add(code);
  // Any request may be shed before it is routed (src/load-shedding.ts), lose its database connection, or fail unexpectedly.
  codes.add('overloaded');
  codes.add('service_unavailable');
  codes.add('internal_error');
  return [...codes];
}

/** Headers every answer after the rate-limit step carries (contract §4, §5): not 401 and 402, which come before it. */
const RATE_LIMIT_HEADERS: Record<string, JsonSchema> = {
  'X-RateLimit-Limit': { description: 'the budget of the current one-hour window', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'requests left in the window after this one', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Unix time (seconds) when the window ends', schema: { type: 'integer' } },
};
const RETRY_AFTER: JsonSchema = { description: 'seconds to wait before retrying', schema: { type: 'integer' } };
const BEFORE_RATE_LIMIT = new Set([401, 402]);

export function rateLimitHeaders(status: number): Record<string, JsonSchema> {
  return BEFORE_RATE_LIMIT.has(status) ? {} : RATE_LIMIT_HEADERS;
}

/** `responses` entries for a route's errors: one per status, its `code` narrowed to the codes that status carries. */
export function errorResponses(route: TableRoute): Record<string, JsonSchema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesFor(route)) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, JsonSchema> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const retry = codes.includes('rate_limited') || codes.includes('idempotency_in_progress') || codes.includes('overloaded');
    responses[String(status)] = {
      description: `Error: ${codes.map((code) => `\`${code}\``).join(', ')}`,
      headers: { ...rateLimitHeaders(status), ...(retry && { 'Retry-After': RETRY_AFTER }) },
      content: {
        'application/json': {
          schema: { allOf: [{ $ref: '#/components/schemas/Error' }, { type: 'object', properties: { code: { type: 'string', enum: codes } } }] },
        },
      },
    };
  }
  return responses;
}
