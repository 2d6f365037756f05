import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { assertJsonInput } from '../domain/validation.js';
import { validationFailed, type AppError } from '../errors.js';
import type { RowRequest } from '../execution/run-row.js';
import type { ToolRow } from './tools.js';

/**
 * A query value or path id as the text a URL would carry, so the route's own parsers judge it exactly as on /v1
 * (`5` and `"5"` are the id 5; `5.5`, `"05"` and `{}` are 400 as `?x=5.5` would be).
 */
function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? '';
}

/**
 * A tool's arguments as the request its route would have received on /v1: path parameters and query parameters as
 * text, headers (`idempotencyKey` as `Idempotency-Key`), and every other argument as a field of the JSON body, which
 * the route's body schema then judges (an unknown field is its 400, as on /v1). A route without a body ignores other
 * arguments, as /v1 ignores a query parameter the route does not read.
 */
export function rowRequestOf(row: ToolRow, args: Record<string, unknown>): RowRequest {
  const path: Record<string, string> = {};
  const query = new URLSearchParams();
  const headers = new Headers();
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    if (row.args.path.includes(name)) path[name] = encodeURIComponent(asText(value));
    else if (row.args.query.includes(name)) {
      if (value !== null && value !== undefined) query.set(name, asText(value));
    } else if (row.args.headers.has(name)) {
      const header = row.args.headers.get(name) ?? name;
      try {
        if (typeof value !== 'string') throw new TypeError('not a string');
        headers.set(header, value);
      } catch {
        throw validationFailed([{ field: name, message: `must be a string that an HTTP ${header} header can carry` }]);
      }
    } else if (row.args.body) body[name] = value;
  }
  return {
    path,
    query,
    // Checked where /v1 checks a body it has read: depth, NULs, numbers a double holds.
    readBody: async () => {
      assertJsonInput(body);
      return body;
    },
    headers,
  };
}

/** Decisions §7.3: the v1 body as `structuredContent`, and the same JSON as one text content (none for a 204). */
export function successResult(body: unknown): CallToolResult {
  if (body === undefined) return { content: [] };
  return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body as Record<string, unknown> };
}

/** A v1 error as a tool error: `structuredContent` is the v1 error body, the same `{ error, code, ...context }`. */
export function errorResult(error: AppError): CallToolResult {
  const body = error.toBody();
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
}
