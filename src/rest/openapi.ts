import { z } from 'zod';
import { ERROR_STATUS } from '../errors.js';
import { errorResponses, rateLimitHeaders } from './openapi-responses.js';
import type { ResponseShape, JsonSchema } from './response-shape.js';
import type { Route } from './route.js';

const toJsonSchema = (schema: z.ZodType): JsonSchema => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return rest;
};


/** The v1 error envelope: `error`, `code` and the context fields of that code. */
const errorSchema: JsonSchema = {
  type: 'object',
  properties: { error: { type: 'string' }, code: { type: 'string', enum: Object.keys(ERROR_STATUS) } },
  required: ['error', 'code'],
  additionalProperties: {},
};

function parameters(route: Route): JsonSchema[] {
  const list: JsonSchema[] = [];
  for (const [, name] of route.path.matchAll(/\{(\w+)\}/g)) {
    const schema = name === 'eventId' ? { type: 'string', description: 'evt_…' } : { type: 'integer', minimum: 1, maximum: 2147483647 };
    list.push({ name, in: 'path', required: true, schema });
  }
  if (route.paginated) {
    list.push({ name: 'page', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 1000000, default: 1 } });
    list.push({ name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 }, description: 'values above 100 are clamped to 100' });
  }
  for (const [name, schema] of Object.entries(route.query?.shape ?? {})) {
    list.push({ name, in: 'query', required: false, schema: toJsonSchema(schema as z.ZodType) });
  }
  for (const name of route.requestHeaders ?? []) list.push({ name, in: 'header', required: false, schema: { type: 'string', maxLength: 256 } });
  return list;
}

/**
 * OpenAPI 3.1 of every v1 route, generated from the route table: request parts from the schemas that validate
 * them, response bodies from each route's pinned operation (its ResponseShape), so nothing here is written twice.
 */
export function buildOpenApi(routes: Route[], shapes: Map<Route, ResponseShape>): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const body = shapes.get(route)?.schema;
    const success: JsonSchema = body ? { description: 'Success', content: { 'application/json': { schema: body } } } : { description: 'No content' };
    success.headers = {
      ...rateLimitHeaders(route.success.status),
      ...Object.fromEntries((route.success.headers ?? []).map((name) => [name, { schema: { type: 'string' } }])),
    };
    const requestBody = route.body && (route.body instanceof z.ZodType ? route.body : route.body.schema);
    const operation: JsonSchema = {
      operationId: route.operation,
      summary: route.summary,
      tags: [route.tag],
      security: [route.auth === 'apiKey' ? { apiKey: [] } : { siteKey: [] }],
      ...(route.scope && { 'x-required-scope': route.scope }),
      parameters: parameters(route),
      ...(requestBody && { requestBody: { required: true, content: { 'application/json': { schema: toJsonSchema(requestBody) } } } }),
      responses: {
        [String(route.success.status)]: success,
        ...Object.fromEntries((route.success.also ?? []).map((status) => [String(status), { ...success, description: 'Success (see the summary)' }])),
        ...errorResponses(route),
      },
    };
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Embeddable Widgets Service API', version: '1.0.0', license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' } },
    servers: [{ url: '/v1' }],
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
