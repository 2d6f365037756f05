import recordedExamples from './openapi-examples.json' with { type: 'json' };
import { MAX_JSON_DEPTH } from '../domain/validation.js';
import { ERROR_STATUS } from '../errors.js';
import { errorResponses, rateLimitHeaders } from './openapi-responses.js';
import { OPENAPI_TAGS } from './openapi-tags.js';
import type { ResponseShape, JsonSchema } from '../execution/response-shape.js';
import { isStreamRoute, type Route, type TableRoute } from '../execution/route.js';
import { bodyMayBeOmitted, requestBodySchema, routeParameters, toJsonSchema } from '../execution/route-parameters.js';

/** A streamed body is tagged only by its version (the export); the event stream has none. */
const isConditional = (route: TableRoute): boolean => route.method === 'GET' && (!isStreamRoute(route) || route.version !== undefined);

/** Decisions §6.2: on every 200 and 304 answer to a GET (ETag where it answers If-None-Match). */
const CONDITIONAL_HEADERS = ['ETag', 'Cache-Control', 'Vary'];
const cacheHeaderNames = (route: TableRoute): string[] => (route.method !== 'GET' ? [] : isConditional(route) ? CONDITIONAL_HEADERS : ['Cache-Control', 'Vary']);
const notModifiedResponse = {
  description: 'Not modified: If-None-Match matched the current ETag. No body; the same ETag and the rate-limit headers; no budget used',
  headers: { ...Object.fromEntries(CONDITIONAL_HEADERS.map((name) => [name, { schema: { type: 'string' } }])), ...rateLimitHeaders(304) },
};

/** The v1 error envelope: `error`, `code` and the context fields of that code. */
const errorSchema: JsonSchema = {
  type: 'object',
  properties: { error: { type: 'string' }, code: { type: 'string', enum: Object.keys(ERROR_STATUS) } },
  required: ['error', 'code'],
  additionalProperties: {},
};

function parameters(route: TableRoute): JsonSchema[] {
  const list: JsonSchema[] = routeParameters(route).map((parameter) => ({ ...parameter }));
  if (isConditional(route)) {
    list.push({
      name: 'If-None-Match',
      in: 'header',
      required: false,
      description: 'ETags of a copy the client holds (comma-separated, or *): a match answers 304 and uses no budget',
      schema: { type: 'string' },
    });
  }
  return list;
}

/**
 * The success response: an operation row's body from its shape; a streamed row's media types, each either text
 * described by its zod schema (CSV) or lines each the body of the operation row named (NDJSON of GET's bodies).
 * OpenAPI 3.1 has no schema for a sequence of JSON values: the body is a string whose lines are described, and the
 * schema of one line travels as `x-itemSchema` (OpenAPI 3.2's `itemSchema`, which 3.1 cannot name).
 */
function successResponse(route: TableRoute, shapes: Map<Route, ResponseShape>): JsonSchema {
  if (!isStreamRoute(route)) {
    const body = shapes.get(route)?.schema;
    return body ? { description: 'Success', content: { 'application/json': { schema: body } } } : { description: 'No content' };
  }
  const content = Object.fromEntries(
    Object.entries(route.success.media).map(([type, media]) => {
      if ('linesOf' in media) {
        const line = [...shapes].find(([row]) => row.operation === media.linesOf)?.[1].schema;
        if (!line) throw new Error(`${route.method} ${route.path}: no route answers ${media.linesOf}`);
        return [type, { schema: { type: 'string', description: media.description }, 'x-itemSchema': line }];
      }
      const schema = toJsonSchema(media.schema);
      return [type, { schema: media.description ? { ...schema, description: media.description } : schema }];
    }),
  );
  return { description: 'Success', content };
}

interface Example {
  summary: string;
  value: unknown;
}
/**
 * Real answers as examples: test/rest/recorded-bodies.test.ts drives every route and writes what it answered to
 * openapi-examples.json (and fails when the file no longer matches what the routes answer).
 */
const EXAMPLES: Record<string, { request?: Example; responses: Record<string, Record<string, Example>> }> = recordedExamples;

function withExamples(operation: JsonSchema, key: string): void {
  const examples = EXAMPLES[key];
  if (!examples) return;
  const media = (holder: unknown): JsonSchema | undefined => ((holder as { content?: Record<string, JsonSchema> } | undefined)?.content ?? {})['application/json'];
  const request = media(operation.requestBody);
  if (request && examples.request) request.examples = { request: examples.request };
  const responses = operation.responses as Record<string, unknown>;
  for (const [status, byName] of Object.entries(examples.responses)) {
    const response = media(responses[status]);
    if (response) response.examples = byName;
  }
}

const INFO_DESCRIPTION = [
  'Programmatic access to an account’s embeddable widgets (forms, booking calendars, shop widgets), what they collect (submissions, bookings, orders), webhooks and events.',
  'Authenticate with `Authorization: Bearer svc_live_…` (an API key; each route names the scope it needs) or, on the site routes, `X-Service-Site-Key`.',
  'Every error is `{ error, code, ...context }`: branch on `code`. Lists answer `{ data, pagination }`, newest first. Each key has an hourly budget, reported in the `X-RateLimit-*` headers; a `GET` answer carries an `ETag`, and a 304 to `If-None-Match` uses no budget.',
].join('\n\n');

/**
 * OpenAPI 3.1 of every v1 route, generated from the route table: request parts from the schemas that validate
 * them, response bodies from each route's pinned operation (its ResponseShape), so nothing here is written twice.
 */
export function buildOpenApi(routes: TableRoute[], shapes: Map<Route, ResponseShape>): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    if (!OPENAPI_TAGS.some((tag) => tag.name === route.tag)) throw new Error(`${route.method} ${route.path}: declare its tag "${route.tag}" in openapi-tags.ts`);
    const success = successResponse(route, shapes);
    success.headers = {
      ...rateLimitHeaders(route.success.status),
      ...Object.fromEntries([...(route.success.headers ?? []), ...cacheHeaderNames(route)].map((name) => [name, { schema: { type: 'string' } }])),
    };
    const requestBody = requestBodySchema(route);
    const operation: JsonSchema = {
      operationId: route.operationId,
      summary: route.summary,
      description: route.description,
      tags: [route.tag],
      security: [route.auth === 'apiKey' ? { apiKey: [] } : { siteKey: [] }],
      ...(route.scope && { 'x-required-scope': route.scope }),
      parameters: parameters(route),
      ...(requestBody && {
        requestBody: {
          required: !bodyMayBeOmitted(route),
          description: `A JSON object in UTF-8, without a Content-Encoding (else 400 invalid_json); objects and arrays nest at most ${MAX_JSON_DEPTH} levels deep, counting the body as 1, no string or key holds a NUL character or an unpaired surrogate, and no number exceeds a double (else 400 validation_failed naming the top-level field)`,
          content: { 'application/json': { schema: requestBody } },
        },
      }),
      responses: {
        [String(route.success.status)]: success,
        ...Object.fromEntries((route.success.also ?? []).map((status) => [String(status), { ...success, description: 'Success (see the summary)' }])),
        ...(isConditional(route) && { '304': notModifiedResponse }),
        ...errorResponses(route),
      },
    };
    withExamples(operation, `${route.method} ${route.path}`);
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Embeddable Widgets Service API',
      version: '1.0.0',
      description: INFO_DESCRIPTION,
      contact: { name: 'widgets-gateway' },
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/v1' }],
    tags: OPENAPI_TAGS,
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'svc_live_ API key' },
        siteKey: { type: 'apiKey', in: 'header', name: 'X-Service-Site-Key' },
      },
      schemas: { Error: errorSchema },
    },
  };
}
