import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import { CallToolRequestSchema, JSONRPCRequestSchema, type CallToolResult, type RequestId } from '@modelcontextprotocol/sdk/types.js';

export interface PlainToolCall {
  id: RequestId;
  name: string;
  args: Record<string, unknown>;
}

/**
 * A `tools/call` that needs nothing of the SDK's transport but the call itself: headers as its checks want them
 * (Accept of JSON and server-sent events, a JSON body, no other protocol version than ours) and a well-formed
 * request, checked by the SDK's own schemas. Anything else returns null and goes through the SDK, which answers it.
 *
 * Why a call skips the SDK's Server and transport: per call they build a server, then test the message against
 * schemas it is not (initialize, error and result responses: each failing zod parse builds an error) and serialize
 * the body a second time. Measured on PostgreSQL (process CPU per call, list_forms at limit 100, 4 rounds of 150
 * calls, 2026-11-28, a busy machine): GET /v1/forms 1.23-2.24 ms, tools/call through the SDK 1.83-2.29 ms (about
 * +0.6 ms), this path 1.14-1.90 ms; `npm run bench -- --stages mcp` gave 0.896 x the REST list's req/s through the
 * SDK, against a target of 0.9. initialize, ping, tools/list, notifications and every refusal stay the SDK's.
 */
export function plainToolCall(request: Request, message: unknown): PlainToolCall | null {
  if (typeof message !== 'object' || message === null || (message as { method?: unknown }).method !== 'tools/call') return null;
  const accept = request.headers.get('accept') ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream') || !isJsonContentType(request.headers.get('content-type'))) return null;
  const version = request.headers.get('mcp-protocol-version');
  if (version !== null && version !== '2025-06-18') return null;
  const envelope = JSONRPCRequestSchema.safeParse(message);
  const call = CallToolRequestSchema.safeParse(message);
  if (!envelope.success || !call.success || call.data.params.task) return null;
  return { id: envelope.data.id, name: call.data.params.name, args: call.data.params.arguments ?? {} };
}

/**
 * The id of a well-formed JSON-RPC request for `tools/call` whose params are not a call (no string `name`, arguments
 * not an object), else null. JSON-RPC answers it -32602 Invalid params; the SDK would answer -32603 with its schema
 * library's issue list as the message.
 */
export function malformedToolCall(message: unknown): RequestId | null {
  const envelope = JSONRPCRequestSchema.safeParse(message);
  if (!envelope.success || envelope.data.method !== 'tools/call') return null;
  return CallToolRequestSchema.safeParse(message).success ? null : envelope.data.id;
}

/**
 * The JSON-RPC answer's text. A result whose one text content is its structuredContent's JSON (tool-call.ts makes
 * every result so) reuses that text for structuredContent instead of serializing the body again.
 */
export function plainAnswer(id: RequestId, result: CallToolResult): string {
  const [only, ...others] = result.content;
  const reusable = result.structuredContent !== undefined && only?.type === 'text' && others.length === 0;
  const body = reusable
    ? `{"content":[{"type":"text","text":${JSON.stringify(only.text)}}],${result.isError ? '"isError":true,' : ''}"structuredContent":${only.text}}`
    : JSON.stringify(result);
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${body}}`;
}
