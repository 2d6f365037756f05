import { z } from 'zod';
import type { JsonSchema } from './response-shape.js';
import type { TableRoute } from './route.js';

/** A zod schema as JSON Schema, as a client sends the value (its input side). */
export const toJsonSchema = (schema: z.ZodType): JsonSchema => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return rest;
};

/** One parameter a row reads besides its body, with the JSON Schema of what its own schemas accept. */
export interface RouteParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: JsonSchema;
  description?: string;
}

/**
 * A row's path placeholders, page/limit, query parameters and request headers, read from the schemas that parse
 * them: the one description of a row's input that both OpenAPI's parameters and MCP's tool arguments are made of.
 */
export function routeParameters(route: TableRoute): RouteParameter[] {
  const list: RouteParameter[] = [];
  for (const [, name] of route.path.matchAll(/\{(\w+)\}/g)) {
    const schema = name === 'eventId' ? { type: 'string', description: 'evt_…' } : { type: 'integer', minimum: 1, maximum: 2147483647 };
    list.push({ name: name ?? '', in: 'path', required: true, schema });
  }
  if (route.paginated) {
    list.push({ name: 'page', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 1000000, default: 1 } });
    // No `maximum`: a larger limit is accepted and clamped, and a strict client must not refuse what the service takes.
    list.push({ name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, default: 20 }, description: 'page size; values above 100 are clamped to 100' });
  }
  for (const [name, schema] of Object.entries(route.query?.shape ?? {})) {
    const description = (schema as z.ZodType).description;
    list.push({ name, in: 'query', required: false, schema: toJsonSchema(schema as z.ZodType), ...(description && { description }) });
  }
  for (const name of route.requestHeaders ?? []) list.push({ name, in: 'header', required: false, schema: { type: 'string', maxLength: 256 } });
  return list;
}

/**
 * A POST whose body's every field is optional may leave it out (`POST /api-keys`, `POST /api-keys/{id}/roll`, as
 * `curl -X POST` sends them): an empty body then reads as `{}`. Any other route, a PATCH included (an empty PATCH is
 * a body lost on the way, not a change: it must not write, nor emit an update), answers it 400 invalid_json.
 */
export function bodyMayBeOmitted(route: TableRoute): boolean {
  if (!route.body || route.method !== 'POST') return false;
  return (route.body instanceof z.ZodType ? route.body : route.body.schema).safeParse({}).success;
}

/** The JSON body's schema, from the zod schema that validates it; null for a row without a body. */
export function requestBodySchema(route: TableRoute): JsonSchema | null {
  if (!route.body) return null;
  return toJsonSchema(route.body instanceof z.ZodType ? route.body : route.body.schema);
}
