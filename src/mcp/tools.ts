import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ResponseShape, JsonSchema } from '../execution/response-shape.js';
import { isStreamRoute, type Route, type TableRoute } from '../execution/route.js';
import { requestBodySchema, routeParameters } from '../execution/route-parameters.js';
import type { Scope } from '../scopes.js';

/** Where each argument of a tool goes in the request its route would have received. */
export interface ToolArguments {
  path: string[];
  query: string[];
  /** Argument name → the request header it is sent as (`idempotencyKey` → `Idempotency-Key`). */
  headers: Map<string, string>;
  /** Whether the route reads a JSON body: every other argument is one of its fields. */
  body: boolean;
}

/** One tool: what `tools/list` shows, and the row a `tools/call` of it runs. */
export interface ToolRow {
  tool: Tool;
  route: Route;
  /** null: any valid key may call it (its resolver may still check a scope, as on /v1). */
  scope: Scope | null;
  args: ToolArguments;
}

/**
 * Decisions §7.3: one tool per /v1 API-key route that answers one JSON body. Site-key rows are for a site's
 * pages, not an account's agents; a streamed row (the export, the event stream) has no single result to return.
 */
export const isToolRoute = (route: TableRoute): route is Route => route.auth === 'apiKey' && !isStreamRoute(route);

/** The route's operationId (verb-first kebab-case) in snake_case: `list-forms` → `list_forms`. */
export const toolName = (route: Route): string => route.operationId.replaceAll('-', '_');

/** `Idempotency-Key` → `idempotencyKey`: a header the route reads, as an argument name. */
const argumentName = (header: string): string => header.toLowerCase().replace(/-([a-z])/g, (_match, letter: string) => letter.toUpperCase());

/**
 * The hints decisions §7.3 names, from the row's method (RFC 9110: GET is safe; GET, PATCH as v1 defines it and
 * DELETE change nothing when repeated; POST does, or sends something again). Erasure is destructive whatever its
 * method. MCP's defaults (destructive, not idempotent) are what a client assumes of a write without hints.
 */
function annotations(route: Route): NonNullable<Tool['annotations']> {
  const readOnly = route.method === 'GET';
  return {
    title: route.summary,
    readOnlyHint: readOnly,
    ...(!readOnly && { destructiveHint: route.method === 'DELETE' || route.tag === 'Erasure' }),
    // Stated on reads too (contract §7.3), though MCP reads it only beside readOnlyHint: false.
    idempotentHint: route.method !== 'POST',
    openWorldHint: false,
  };
}

function inputOf(route: Route): { schema: Tool['inputSchema']; args: ToolArguments } {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const args: ToolArguments = { path: [], query: [], headers: new Map(), body: false };
  for (const parameter of routeParameters(route)) {
    const name = parameter.in === 'header' ? argumentName(parameter.name) : parameter.name;
    const description = parameter.in === 'header' ? `sent as the ${parameter.name} header` : parameter.description;
    properties[name] = description ? { ...parameter.schema, description } : parameter.schema;
    if (parameter.required) required.push(name);
    if (parameter.in === 'header') args.headers.set(name, parameter.name);
    else args[parameter.in].push(name);
  }
  const body = requestBodySchema(route);
  if (body) {
    args.body = true;
    for (const [name, schema] of Object.entries((body.properties ?? {}) as Record<string, JsonSchema>)) {
      if (Object.hasOwn(properties, name)) throw new Error(`${route.method} ${route.path}: body field ${name} is also a parameter`);
      properties[name] = schema;
    }
    required.push(...((body.required ?? []) as string[]));
  }
  return { schema: { type: 'object', properties, ...(required.length && { required }) }, args };
}

/**
 * Every tool, derived from the route table and the shapes the executor answers with: names, arguments, result
 * schemas, hints and descriptions are the rows' own, so a row added, renamed or changed is a tool added, renamed
 * or changed (test/mcp holds the two sets equal).
 */
export function deriveTools(routes: TableRoute[], shapes: Map<Route, ResponseShape>): Map<string, ToolRow> {
  const tools = new Map<string, ToolRow>();
  for (const route of routes.filter(isToolRoute)) {
    const name = toolName(route);
    if (tools.has(name)) throw new Error(`Two routes make the tool ${name}`);
    const { schema: inputSchema, args } = inputOf(route);
    const output = shapes.get(route)?.schema;
    const tool: Tool = {
      name,
      title: route.summary,
      // The row's documentation, written to choose the route by (OpenAPI's operation description too).
      description: route.description,
      inputSchema,
      // MCP's structured results are objects: every v1 body is one; a 204 has none (and no outputSchema).
      ...(output && { outputSchema: output as Tool['outputSchema'] }),
      annotations: annotations(route),
    };
    // The scope the gate checks: read from the root field by compileRoutes (src/execution/run-row.ts).
    if (route.scope === undefined) throw new Error(`${route.method} ${route.path}: derive tools from the compiled table (RowRunner.routes)`);
    tools.set(name, { tool, route, scope: route.scope, args });
  }
  return tools;
}
