import { Response } from '@whatwg-node/server';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ErrorCode, InitializeRequestSchema, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { RequestContext } from '../context.js';
import { AppError } from '../errors.js';
import { identify, pass, type GatePolicy } from '../gate/gate.js';
import { describeError, logger } from '../infra/log.js';
import { rateLimitRefusals } from '../infra/metrics.js';
import { readBodyText } from '../request-body.js';
import { parseRowInput, type RowRunner } from '../execution/run-row.js';
import { malformedToolCall, plainAnswer, plainToolCall } from './plain-tool-call.js';
import { errorResult, rowRequestOf, successResult } from './tool-call.js';
import type { ToolRow } from './tools.js';

/** Decisions §7.3: the one protocol version served; a client asking for another is answered with this one (MCP lifecycle). */
export const MCP_PROTOCOL_VERSION = '2025-06-18';

const SERVER_INFO = { name: 'widgets-gateway', version: '1.0.0' };
/** Tools only, and a fixed list (it follows the route table, which changes only with a deploy). */
const CAPABILITIES = { tools: { listChanged: false } };

/** The whole endpoint is behind the key and the plan gate (401/402 before any method); each tool call passes its route. */
const MCP_POLICY: GatePolicy = { auth: 'apiKey' };

/** JSON-RPC's implementation-defined server error: a refusal whose v1 body is the error's `data`. */
const REFUSED = -32000;

/**
 * The SDK builds an Ajv instance per server unless given a validator; it only validates elicitation answers, and
 * this server never asks the client for input. One shared refusal, so no request pays for a validator it never uses.
 */
const NO_ELICITATION: jsonSchemaValidator = {
  getValidator: () => () => ({ valid: false, data: undefined, errorMessage: 'this server does not elicit input' }),
};

function jsonRpcError(status: number, code: number, error: AppError, headers: Record<string, string> = {}): Response {
  const body = { jsonrpc: '2.0', id: null, error: { code, message: error.message, data: error.toBody() } };
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers, ...error.headers } });
}

async function readMessage(request: Request): Promise<unknown> {
  const text = await readBodyText(request);
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('invalid_json');
  }
}

export interface McpEndpoint {
  handle(request: Request, context: RequestContext): Promise<Response>;
}

/**
 * `POST /mcp` (decisions §7.3): MCP over Streamable HTTP, stateless, JSON answers, through the SDK's web-standard
 * transport. One Server per request (the SDK's stateless pattern: a server holds one transport at a time), with
 * the tools derived from the route table; a tool call runs its row through the gate and the one executor.
 */
export function createMcpEndpoint(tools: Map<string, ToolRow>, runner: RowRunner): McpEndpoint {
  const rows = [...tools.values()];

  async function callTool(name: string, args: Record<string, unknown>, context: RequestContext): Promise<CallToolResult> {
    const row = tools.get(name);
    if (!row) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    context.log.route = `POST /mcp ${name}`;
    try {
      // The rest of the gate for this route: budget (429) → scope (403); then input (400) → lookup (404), as on /v1.
      await pass(row.route, context);
      const input = await parseRowInput(row.route, rowRequestOf(row, args));
      const answer = await runner.run(row.route, input, context);
      return successResult(answer.body);
    } catch (error) {
      if (error instanceof AppError) {
        // An over-budget call answers HTTP 200 (a tool error), so the request counter cannot see this refusal.
        if (error.code === 'rate_limited') rateLimitRefusals.inc();
        return errorResult(error);
      }
      logger.error({ requestId: context.requestId, route: context.log.route, error: describeError(error) });
      return errorResult(new AppError('internal_error'));
    }
  }

  function serverFor(context: RequestContext): Server {
    const server = new Server(SERVER_INFO, { capabilities: CAPABILITIES, jsonSchemaValidator: NO_ELICITATION });
    server.setRequestHandler(InitializeRequestSchema, () => ({ protocolVersion: MCP_PROTOCOL_VERSION, capabilities: CAPABILITIES, serverInfo: SERVER_INFO }));
    server.setRequestHandler(ListToolsRequestSchema, () => {
      const viewer = context.viewer;
      const scopes = viewer?.kind === 'apiKey' ? viewer.scopes : new Set();
      const visible: Tool[] = rows.filter((row) => row.scope === null || scopes.has(row.scope)).map((row) => row.tool);
      return { tools: visible };
    });
    server.setRequestHandler(CallToolRequestSchema, (request) => callTool(request.params.name, request.params.arguments ?? {}, context));
    return server;
  }

  async function handle(request: Request, context: RequestContext): Promise<Response> {
    context.log.route = `${request.method} /mcp`;
    // Stateless: no session to open a server-sent stream on (GET) or to end (DELETE).
    if (request.method !== 'POST') return jsonRpcError(405, REFUSED, new AppError('method_not_allowed', {}, { headers: { Allow: 'POST' } }));
    try {
      await identify(MCP_POLICY, request.headers, context);
    } catch (error) {
      if (error instanceof AppError) return jsonRpcError(error.status, REFUSED, error);
      throw error;
    }
    let message: unknown;
    try {
      message = await readMessage(request);
    } catch (error) {
      if (error instanceof AppError) return jsonRpcError(error.status, error.code === 'invalid_json' ? ErrorCode.ParseError : ErrorCode.InvalidRequest, error);
      throw error;
    }
    // Protocol 2025-06-18 has no JSON-RPC batches: one message per request, so one tool call per gate pass.
    if (Array.isArray(message)) return jsonRpcError(400, ErrorCode.InvalidRequest, new AppError('validation_failed', { fields: [{ field: '(body)', message: 'one JSON-RPC message, not a batch' }] }));

    const plain = plainToolCall(request, message);
    if (plain && tools.has(plain.name)) {
      const result = await callTool(plain.name, plain.args, context);
      return new Response(plainAnswer(plain.id, result), { status: 200, headers: { 'content-type': 'application/json', ...context.responseHeaders } });
    }
    // Checked only off the plain path: a well-formed call was parsed once, there.
    const malformed = plain ? null : malformedToolCall(message);
    if (malformed !== null) {
      const error = { code: ErrorCode.InvalidParams, message: 'Invalid params: tools/call takes params.name (a string) and params.arguments (an object, optional)' };
      return new Response(JSON.stringify({ jsonrpc: '2.0', id: malformed, error }), { status: 200, headers: { 'content-type': 'application/json', ...context.responseHeaders } });
    }

    const server = serverFor(context);
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
    try {
      await server.connect(transport);
      const answer = await transport.handleRequest(request, { parsedBody: message });
      const headers: Record<string, string> = { ...context.responseHeaders };
      answer.headers.forEach((value, key) => {
        headers[key] = value;
      });
      // The adapter's own Response writes a string body in one call (src/rest/facade.ts jsonResponse).
      return new Response(answer.body ? await answer.text() : null, { status: answer.status, headers });
    } finally {
      await server.close();
    }
  }

  return { handle };
}
