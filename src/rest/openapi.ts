import { z } from 'zod';
import { MAX_JSON_DEPTH } from '../domain/validation.js';
import { ERROR_STATUS } from '../errors.js';
import type { Route } from './route.js';
import { errorSchema } from './schemas.js';

type JsonSchema = Record<string, unknown>;

const toJsonSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
};

const errorResponse = { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };

function parameters(route: Route): JsonSchema[] {
  const list: JsonSchema[] = [];
  if (route.path.includes('{id}')) list.push({ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1, maximum: 2147483647 } });
  if (route.paginated) {
    list.push({ name: 'page', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 1000000, default: 1 } });
    list.push({ name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 }, description: 'values above 100 are clamped to 100' });
  }
  for (const [name, schema] of Object.entries(route.query?.shape ?? {})) {
    list.push({ name, in: 'query', required: false, schema: toJsonSchema(schema as z.ZodType, 'input') });
  }
  for (const name of route.requestHeaders ?? []) list.push({ name, in: 'header', required: false, schema: { type: 'string', maxLength: 256 } });
  return list;
}

/** OpenAPI 3.1 of every v1 route, generated from the route table and the schemas that validate requests. */
export function buildOpenApi(routes: Route[]): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const errorStatuses = route.auth === 'apiKey' ? [400, 401, 402, 403, 404, 429, 500] : [401, 404, 429, 500];
    const success: JsonSchema = route.success.schema
      ? { description: 'Success', content: { 'application/json': { schema: toJsonSchema(route.success.schema, 'output') } } }
      : { description: 'No content' };
    if (route.success.headers?.length) {
      success.headers = Object.fromEntries(route.success.headers.map((name) => [name, { schema: { type: 'string' } }]));
    }
    const operation: JsonSchema = {
      operationId: route.operation,
      summary: route.summary,
      tags: [route.tag],
      security: [route.auth === 'apiKey' ? { apiKey: [] } : { siteKey: [] }],
      ...(route.scope && { 'x-required-scope': route.scope }),
      parameters: parameters(route),
      ...(route.body && {
        requestBody: {
          required: true,
          description: `A JSON object; objects and arrays nest at most ${MAX_JSON_DEPTH} levels deep, counting the body as 1, and no string holds a NUL character (else 400 validation_failed naming the top-level field)`,
          content: { 'application/json': { schema: toJsonSchema(route.body.schema, 'input') } },
        },
      }),
      responses: {
        [String(route.success.status)]: success,
        ...Object.fromEntries(errorStatuses.map((status) => [String(status), errorResponse])),
      },
    };
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Embeddable Widgets Service API', version: '1.0.0' },
    servers: [{ url: '/v1' }],
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'svc_live_ API key' },
        siteKey: { type: 'apiKey', in: 'header', name: 'X-Service-Site-Key' },
      },
      schemas: {
        Error: { ...toJsonSchema(errorSchema, 'output'), properties: { error: { type: 'string' }, code: { type: 'string', enum: Object.keys(ERROR_STATUS) } } },
      },
    },
  };
}
