import type { z } from 'zod';
import type { RequestContext } from '../context.js';
import type { Scope } from '../scopes.js';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** What a route's handler sees after authentication and validation. */
export interface RouteInput {
  params: { id?: number };
  query: Record<string, unknown>;
  body: unknown;
  headers: Headers;
}

export interface RestResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface BodyValidator {
  /** For the OpenAPI document. */
  schema: z.ZodType;
  /** The same rules the service applies, throwing the v1 AppError (validation_failed, forbidden_field, …). */
  parse(value: unknown): unknown;
}

/**
 * A body produced while the client reads it (an export): chunks are pulled one at a time, only as fast as the
 * client takes them, and the iterator is closed (`return()`) when the client goes away, so a producer releases
 * what it holds in its `finally`.
 */
export interface StreamedBody {
  status: number;
  headers: Record<string, string>;
  body: AsyncIterable<string>;
}

/** What every row of the v1 table declares, so auth, docs and behaviour cannot drift apart. */
interface RouteBase {
  method: HttpMethod;
  /** Relative to /v1, with `{id}` for the one path parameter. */
  path: string;
  summary: string;
  tag: string;
  /** apiKey: Bearer key (plan gate, budget, scope); siteKey: X-Service-Site-Key. */
  auth: 'apiKey' | 'siteKey';
  /** Scope an API key must carry; null only where decisions say any valid key will do. */
  scope: Scope | null;
  /** Only DELETE /webhooks/{id} passes the Free-plan gate. */
  planGate?: false;
  /** Site-key routes that also draw on the per-site attempt budget. */
  attemptBudget?: true;
  /** Query parameters besides page/limit, parsed from strings (400 on bad values). */
  query?: z.ZodObject;
  /** Whether the list's `page`/`limit` apply. */
  paginated?: true;
  body?: BodyValidator;
  /** Extra request headers the route reads, for the OpenAPI document. */
  requestHeaders?: string[];
  /**
   * Success status and body schema, for the OpenAPI document and the contract tests; `media` lists bodies that
   * are not JSON (a streamed route's media types).
   */
  success: { status: number; schema?: z.ZodType; headers?: string[]; media?: Record<string, z.ZodType> };
}

/** A route answered by its pinned GraphQL operation: the usual row. */
export interface OperationRoute extends RouteBase {
  /** The pinned GraphQL operation (src/rest/operations/<name>.graphql). */
  operation: string;
  variables(input: RouteInput): Record<string, unknown>;
  respond(data: Record<string, unknown>, input: RouteInput): RestResult;
  stream?: never;
}

/**
 * A route whose body is streamed (it cannot be one GraphQL result): after the same gate (key → plan gate →
 * budget → scope → input), `stream` does the lookup (throwing AppError before the first byte, like any route)
 * and returns the body to stream.
 */
export interface StreamRoute extends RouteBase {
  /** The OpenAPI operationId (an operation route uses its operation's name). */
  operationId: string;
  stream(input: RouteInput, context: RequestContext): Promise<StreamedBody>;
  operation?: never;
}

/** One row of the v1 table. */
export type Route = OperationRoute | StreamRoute;
