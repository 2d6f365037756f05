import { GraphQLError } from 'graphql';

/**
 * The one table of error codes and their HTTP statuses. Both transports read it: REST renders
 * `{ error, code, ...context }`, GraphQL carries `extensions.code` and `extensions.http.status`.
 */
export const ERROR_STATUS = {
  invalid_pagination: 400,
  invalid_cursor: 400,
  domain_required: 400,
  forbidden_field: 400,
  validation_failed: 400,
  invalid_id: 400,
  invalid_json: 400,
  invalid_domain: 400,
  too_many_fields: 400,
  invalid_idempotency_key: 400,
  query_too_complex: 400,
  invalid_api_key: 401,
  missing_site_key: 401,
  plan_feature_gated: 402,
  plan_limit_reached: 402,
  insufficient_scope: 403,
  not_found: 404,
  site_not_found: 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  form_archived: 409,
  idempotency_in_progress: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  wp_plugin_fetch_failed: 422,
  rate_limited: 429,
  too_many_streams: 429,
  internal_error: 500,
  phi_key_unavailable: 503,
  overloaded: 503,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

const DEFAULT_MESSAGE: Record<ErrorCode, string> = {
  invalid_pagination: 'page must be a whole number from 1 to 1000000 and limit a positive whole number',
  invalid_cursor: 'after is not a cursor this list issued for these filters: start again from page 1',
  domain_required: 'Choose a domain: pass domainId (one of candidates)',
  forbidden_field: 'These fields cannot be changed',
  validation_failed: 'The request is invalid',
  invalid_id: 'The id in the path must be a positive integer',
  invalid_json: 'The request body is not valid JSON',
  invalid_domain: 'domainId is not a verified production domain of this account',
  too_many_fields: 'formData has too many fields',
  invalid_idempotency_key: 'Idempotency-Key must be 1 to 256 visible ASCII characters',
  query_too_complex: 'The query is too deep or too costly',
  invalid_api_key: 'Unauthorized',
  missing_site_key: 'The X-Service-Site-Key header is required',
  plan_feature_gated: 'API access needs a paid plan',
  plan_limit_reached: 'The site has reached its plan limit of forms and calendars',
  insufficient_scope: 'Insufficient scope',
  not_found: 'Not found',
  site_not_found: 'Site not found',
  method_not_allowed: 'Method not allowed',
  not_acceptable: 'No answer in a media type the Accept header allows: application/json or application/graphql-response+json; text/event-stream for a subscription',
  form_archived: 'The form is archived',
  idempotency_in_progress: 'A request with this Idempotency-Key is still in progress',
  payload_too_large: 'formData is too large',
  unsupported_media_type: 'Send the request as application/json (also application/graphql, application/x-www-form-urlencoded or multipart/form-data), or as a GET with query parameters',
  idempotency_key_reused: 'This Idempotency-Key was used with a different request',
  wp_plugin_fetch_failed: 'The verification token was not found on the site',
  rate_limited: 'Rate limit exceeded',
  too_many_streams: 'Too many open event streams for this API key',
  internal_error: 'Internal server error',
  phi_key_unavailable: 'This submission is encrypted under a key the service is not configured with',
  overloaded: 'The service is overloaded; retry after Retry-After seconds',
  service_unavailable: 'The database connection was lost; retry after Retry-After seconds',
};

export interface FieldProblem {
  field: string;
  message: string;
}

/** Context fields named by the contract (docs/contract.md); an error body carries only these besides error/code. */
export interface ErrorContext {
  candidates?: { id: number; domain: string }[];
  required?: string;
  fields?: FieldProblem[] | string[];
  invalid?: string[];
  retryAfter?: number;
  /** A /graphql operation's `requested` points, on its 429 (decisions §7.1). */
  cost?: number;
  feature?: string;
  resource?: string;
  cap?: number;
  used?: number;
  domainId?: number;
  method?: string;
  attempts?: { path: string; ok: boolean; reason: string }[];
}

// 503: the database connection was lost, or the replica is overloaded: the whole request is to be retried (Retry-After).
const REQUEST_LEVEL_STATUSES = new Set([401, 402, 429, 503]);

export class AppError extends GraphQLError {
  readonly code: ErrorCode;
  readonly status: number;
  readonly context: ErrorContext;
  readonly headers: Record<string, string>;

  /** `requestLevel`: raised before any operation runs (a refused document or variables), so it sets the /graphql status. */
  constructor(code: ErrorCode, context: ErrorContext = {}, options: { message?: string; headers?: Record<string, string>; requestLevel?: true } = {}) {
    const status = ERROR_STATUS[code];
    const headers = options.headers ?? {};
    // Only request-level failures set the /graphql HTTP status (contract §5); a field's 403 or 404 leaves the
    // response 200 with partial data, as GraphQL clients expect.
    const http = REQUEST_LEVEL_STATUSES.has(status) || options.requestLevel ? { http: { status, headers } } : {};
    super(options.message ?? DEFAULT_MESSAGE[code], { extensions: { code, ...context, ...http } });
    this.name = 'AppError';
    this.code = code;
    this.status = status;
    this.context = context;
    this.headers = headers;
  }

  /** The v1 REST body: `{ error, code, ...context }`. */
  toBody(): Record<string, unknown> {
    return { error: this.message, code: this.code, ...this.context };
  }
}

export const notFound = (resource: string): AppError => new AppError('not_found', { resource });

export function validationFailed(fields: FieldProblem[]): AppError {
  return new AppError('validation_failed', { fields });
}
