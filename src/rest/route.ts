import type { z } from 'zod';
import type { Scope } from '../scopes.js';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** What a route's handler sees after authentication and validation. */
export interface RouteInput {
  /** `{id}` and `{deliveryId}`: canonical integers; `{eventId}`: an event's public id (`evt_…`). */
  params: { id?: number; deliveryId?: number; eventId?: string };
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

/** One row of the v1 table: everything about a path, so auth, docs and behaviour cannot drift apart. */
export interface Route {
  method: HttpMethod;
  /** Relative to /v1, with `{id}` (and `{deliveryId}`, or `{eventId}`) for the path parameters. */
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
  /** The pinned GraphQL operation (src/rest/operations/<name>.graphql). */
  operation: string;
  variables(input: RouteInput): Record<string, unknown>;
  respond(data: Record<string, unknown>, input: RouteInput): RestResult;
  /** Success status and body schema, for the OpenAPI document and the contract tests. */
  success: { status: number; schema?: z.ZodType; headers?: string[] };
}
