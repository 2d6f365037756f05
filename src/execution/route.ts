import type { z } from 'zod';
import type { RequestContext } from '../context.js';
import type { PageRequest } from '../domain/pagination.js';
import type { ErrorCode } from '../errors.js';
import type { OperationData, OperationName, OperationVariables } from './operations.js';
import type { Scope } from '../scopes.js';
import type { V1Presenters } from './present.js';
import type { ShapeOptions } from './response-shape.js';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';


type PathParams<P extends string> = (P extends `${string}{id}${string}` ? { id: number } : Record<never, never>) &
  (P extends `${string}{deliveryId}${string}` ? { deliveryId: number } : Record<never, never>) &
  (P extends `${string}{eventId}${string}` ? { eventId: string } : Record<never, never>);
type Output<S> = S extends z.ZodType ? z.output<S> : undefined;
/** What a route's `body` member parses a request body into. */
export type BodyOf<B> = B extends BodyValidator<infer T> ? T : Output<B>;

/** What a route's handler sees after the gate and validation: each part typed by the schema that parsed it. */
export interface RouteInput<P extends string = string, Q = unknown, B = unknown> {
  params: PathParams<P>;
  /** The route's `query` schema's output, with page/limit on paginated routes. */
  query: Q;
  body: B;
  headers: Headers;
}

/** The facade's side of RouteInput, before a route's own types apply. */
export interface ParsedInput {
  /** `{id}` and `{deliveryId}`: canonical ids; `{eventId}`: an event's public id (`evt_…`), as it is. */
  params: { id?: number; deliveryId?: number; eventId?: string };
  query: Record<string, unknown>;
  body: unknown;
  headers: Headers;
}

export interface RestOutcome {
  status?: number;
  headers?: Record<string, string>;
}

/**
 * Conditional GET (contract §6.2): the version of a route's body, read without building it, in one cheap statement
 * that grows with every write the body shows (src/domain/forms/form-version.ts); null when the body must be built
 * (an absent resource, which answers 404 as usual; a PHI form's submissions, whose every read is audited).
 */
export type BodyVersion = (context: RequestContext, input: ParsedInput) => Promise<string | null>;

export interface BodyValidator<T = unknown> {
  /** For the OpenAPI document. */
  schema: z.ZodType;
  /** Built on `schema`, adding what a schema cannot say (PATCH's forbidden_field), throwing the v1 AppError. */
  parse(value: unknown): T;
}

/** What an operation row says besides its types: the same in its checked (RouteSpec) and erased (Route) form. */
interface RowBasics {
  method: HttpMethod;
  /** A short title (the reference's menu, an MCP tool's title). */
  summary: string;
  /**
   * What the route does and when to call it, for a person choosing in the reference or an agent choosing a tool
   * (OpenAPI's description and MCP's tool description are this text).
   */
  description: string;
  tag: string;
  /** apiKey: Bearer key (plan gate, budget, scope); siteKey: X-Service-Site-Key. */
  auth: 'apiKey' | 'siteKey';
  /** Only DELETE /webhooks/{id} passes the Free-plan gate. */
  planGate?: false;
  /** Site-key routes that also draw on the per-site attempt budget. */
  attemptBudget?: true;
  /** `free`: costs no point and is never refused by the budget (GET /rate_limit, decisions §7.1). */
  budget?: 'free';
  /** Extra request headers the route reads, for the OpenAPI document. */
  requestHeaders?: string[];
  /** Codes the route's own rules answer, beyond what its other members imply (openapi-responses.ts). */
  errors?: ErrorCode[];
  /** Which part of the root field is the body, when it is not the whole value. */
  shape?: ShapeOptions;
  /** A GET whose 304 can be decided from a version alone (src/rest/conditional.ts); without it the body is built and hashed. */
  version?: BodyVersion;
  /** Success status, other 2xx statuses `outcome` may choose (a replay's 200), and the headers they may carry (for the OpenAPI document). */
  success: { status: number; also?: number[]; headers?: string[] };
}

/**
 * One row of the v1 table, typed by its operation: `variables` must produce the operation's generated variables
 * and `outcome` reads its generated result, so a route cannot drift from the operation it names. The body is
 * the operation's root field (see `shape`), never rewritten here; OpenAPI derives its schema from the same selection.
 */
export interface RouteSpec<N extends OperationName, P extends string, Q extends z.ZodObject | undefined, B extends z.ZodType | BodyValidator | undefined, Pg extends boolean> extends RowBasics {
  /** Relative to /v1, with `{id}` (and `{deliveryId}`, or `{eventId}`) for the path parameters: ids are canonical
   * (else 400 invalid_id), an event id is looked up as it is. */
  path: P;
  /** Whether the list's `page`/`limit` apply (validated once, by the facade). */
  paginated?: Pg;
  /** Query parameters besides page/limit: the schema validates them (400 validation_failed) and documents them. */
  query?: Q;
  /** The JSON body: a zod schema validates it (400 validation_failed with fields) and documents it. */
  body?: B;
  operation: N;
  variables(input: RouteInput<P, (Q extends z.ZodObject ? z.output<Q> : Record<never, never>) & (Pg extends true ? PageRequest : Record<never, never>), BodyOf<B>>): OperationVariables<N>;
  /** Status and headers decided by the data (a replay's 200, a created resource's Location). */
  outcome?(data: OperationData<N>, body: unknown): RestOutcome;
}

/** A route as the facade and the OpenAPI builder see it, its types erased once checked by `defineRoute`. */
export interface Route extends RowBasics {
  /** The operation's public name (OpenAPI operationId, MCP tool name): its pinned operation's file name, verb first. */
  operationId: OperationName;
  /**
   * Scope an API key must carry; null where the contract says any valid key will do. Never written on a row: read
   * from the authScopes of its operation's root field (`compileRoutes`, run-route.ts), so /v1 and /graphql cannot
   * disagree. Undefined on a row that has not been through compileRoutes, which the gate refuses to admit.
   */
  scope?: Scope | null;
  path: string;
  paginated?: boolean;
  query?: z.ZodObject;
  body?: z.ZodType | BodyValidator;
  operation: OperationName;
  variables(input: ParsedInput): Record<string, unknown>;
  outcome?(data: Record<string, unknown>, body: unknown): RestOutcome;
}

export function defineRoute<N extends OperationName, P extends string, Q extends z.ZodObject | undefined = undefined, B extends z.ZodType | BodyValidator | undefined = undefined, Pg extends boolean = false>(
  spec: RouteSpec<N, P, Q, B, Pg>,
): Route {
  // The facade hands each route exactly what its schemas parsed and what its operation returned: the one place
  // those per-route types meet the table's common type.
  return { ...spec, operationId: spec.operation } as unknown as Route;
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

/**
 * A streamed body's media type, for the OpenAPI document: text described by a zod schema (CSV), or lines each of
 * which is the body of a pinned operation's route (NDJSON of what GET returns: its schema is generated, not written).
 */
export type StreamMedia = { schema: z.ZodType; description?: string } | { linesOf: OperationName; description?: string };

/** What a stream handler gets besides its input: the v1 presenters (a row → the body GET returns). */
export interface StreamTools {
  present: V1Presenters;
}

/** What a streamed row says besides its types: the same in its checked (StreamRouteSpec) and erased (StreamRoute) form. */
interface StreamRowBasics extends Pick<RowBasics, 'summary' | 'description' | 'tag' | 'planGate' | 'requestHeaders' | 'errors'> {
  auth: 'apiKey';
  /** null only where the contract says any valid key will do (the event stream: its kinds follow the key's scopes). */
  scope: Scope | null;
  /** The OpenAPI operationId, verb first (an operation row's is its operation's file name). */
  operationId: string;
}

/**
 * A route whose body is streamed (it cannot be one GraphQL result: an export). It passes the same gate as every
 * row (key → plan gate → budget → scope → input); `stream` then does the lookup (throwing AppError before the first
 * byte, like any route) and returns the body to stream (src/rest/streamed-body.ts).
 */
export interface StreamRouteSpec<P extends string, Q extends z.ZodObject | undefined> extends StreamRowBasics {
  method: 'GET';
  path: P;
  query?: Q;
  stream(input: RouteInput<P, Q extends z.ZodObject ? z.output<Q> : Record<never, never>, undefined>, context: RequestContext, tools: StreamTools): Promise<StreamedBody>;
  success: { status: number; headers?: string[]; media: Record<string, StreamMedia> };
  version?: BodyVersion;
}

/** A streamed row as the facade and the OpenAPI builder see it, its types erased once checked by `defineStreamRoute`. */
export interface StreamRoute extends StreamRowBasics {
  kind: 'stream';
  method: HttpMethod;
  path: string;
  attemptBudget?: undefined;
  paginated?: undefined;
  query?: z.ZodObject;
  body?: undefined;
  /** Not an operation row: `route.operation` reads undefined (its OpenAPI operationId is `operationId`). */
  operation?: undefined;
  stream(input: ParsedInput, context: RequestContext, tools: StreamTools): Promise<StreamedBody>;
  success: { status: number; also?: undefined; headers?: string[]; media: Record<string, StreamMedia> };
  /** The streamed body's version (an export's form): its ETag, since a stream is never held whole to be hashed. */
  version?: BodyVersion;
}

export function defineStreamRoute<P extends string, Q extends z.ZodObject | undefined = undefined>(spec: StreamRouteSpec<P, Q>): StreamRoute {
  return { kind: 'stream', ...spec } as unknown as StreamRoute;
}

/** One row of the v1 table: an operation row (`defineRoute`) or a streamed one (`defineStreamRoute`). */
export type TableRoute = Route | StreamRoute;

export const isStreamRoute = (route: TableRoute): route is StreamRoute => 'kind' in route && route.kind === 'stream';
