import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitRefusals } from '../../src/infra/metrics.js';
import { MCP_PROTOCOL_VERSION } from '../../src/mcp/mcp-endpoint.js';
import { isToolRoute, toolName } from '../../src/mcp/tools.js';
import { routes } from '../../src/execution/routes.js';
import { createRowRunner } from '../../src/execution/run-row.js';
import { toSchema } from '../../src/schema/index.js';
import { keyOf, startMcpFixture, type McpFixture } from './mcp-support.js';

let fx: McpFixture;
beforeAll(async () => {
  fx = await startMcpFixture();
});
afterAll(() => fx.close());

// The compiled table: each row's scope read from its root field, as the endpoint serves it.
const toolRoutes = createRowRunner(toSchema(), routes).routes.filter(isToolRoute);
const namesOf = (tools: { name: string }[]): string[] => tools.map((tool) => tool.name).sort();

/** A raw JSON-RPC POST, for what the SDK client does not show (HTTP status, headers, refusals). */
async function post(key: string | null, message: unknown, extra: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: unknown }> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...extra };
  if (key !== null) headers.authorization = `Bearer ${key}`;
  const response = await fetch(`${fx.baseUrl}/mcp`, { method: 'POST', headers, body: JSON.stringify(message) });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

describe('POST /mcp: initialize', () => {
  it('negotiates protocol 2025-06-18 with the official SDK client and offers tools only', async () => {
    const agent = await fx.connect(fx.demo.apiKey);
    expect(agent.client.getServerVersion()).toStrictEqual({ name: 'widgets-gateway', version: '1.0.0' });
    expect(agent.client.getServerCapabilities()).toStrictEqual({ tools: { listChanged: false } });
    await expect(agent.client.ping()).resolves.toStrictEqual({});
    // Client#callTool checks a success against the outputSchema tools/list gave it (the SDK's own ajv).
    await agent.client.listTools();
    const form = await agent.client.callTool({ name: 'get_form', arguments: { id: fx.demo.formId } });
    expect(form.structuredContent).toMatchObject({ id: fx.demo.formId });
    await agent.close();
  });

  it('answers 2025-06-18 whatever version the client asks for, without a session', async () => {
    const answer = await post(fx.demo.apiKey, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('mcp-session-id')).toBeNull();
    expect(answer.body).toStrictEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { protocolVersion: MCP_PROTOCOL_VERSION, capabilities: { tools: { listChanged: false } }, serverInfo: { name: 'widgets-gateway', version: '1.0.0' } },
    });
  });
});

describe('POST /mcp: tools/list follows the key’s scopes', () => {
  it('lists one tool per API-key operation row for a key with every scope', async () => {
    const agent = await fx.connect(fx.demo.apiKey);
    const { tools } = await agent.client.listTools();
    expect(namesOf(tools)).toStrictEqual(toolRoutes.map(toolName).sort());
    expect(namesOf(tools)).toContain('list_forms');
    await agent.close();
  });

  it('lists no write tool to a key holding only the read scopes', async () => {
    const agent = await fx.connect(keyOf(fx.agents, 'readonly'));
    const { tools } = await agent.client.listTools();
    const expected = toolRoutes.filter((route) => route.scope === null || (route.scope ?? '').startsWith('read:')).map(toolName);
    expect(namesOf(tools)).toStrictEqual(expected.sort());
    for (const name of ['create_form', 'update_form', 'archive_form', 'ingest_submission', 'delete_submission', 'create_erasure_request']) expect(namesOf(tools)).not.toContain(name);
    await agent.close();
  });

  it('lists the form tools and the tools that need no scope to a read:forms key', async () => {
    const agent = await fx.connect(keyOf(fx.agents, 'forms'));
    const { tools } = await agent.client.listTools();
    const expected = toolRoutes.filter((route) => route.scope === null || route.scope === 'read:forms').map(toolName);
    expect(namesOf(tools)).toStrictEqual(expected.sort());
    expect(namesOf(tools)).toEqual(expect.arrayContaining(['list_forms', 'get_form']));
    expect(namesOf(tools)).not.toContain('get_submission');
    await agent.close();
  });
});

describe('POST /mcp: the gate comes before any method', () => {
  for (const method of ['initialize', 'ping', 'tools/list', 'tools/call']) {
    it(`answers ${method} without a valid key 401 invalid_api_key, as a JSON-RPC error`, async () => {
      for (const key of [null, 'svc_live_not-a-key', `svc_live_${'A'.repeat(43)}`]) {
        const answer = await post(key, { jsonrpc: '2.0', id: 7, method, params: {} });
        expect(answer.status).toBe(401);
        expect(answer.headers.get('x-ratelimit-remaining')).toBeNull();
        expect(answer.body).toStrictEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Unauthorized', data: { error: 'Unauthorized', code: 'invalid_api_key' } } });
      }
    });

    it(`answers ${method} with a Free plan's key 402 plan_feature_gated, as a JSON-RPC error`, async () => {
      const answer = await post(fx.freeKey, { jsonrpc: '2.0', id: 7, method, params: {} });
      expect(answer.status).toBe(402);
      expect(answer.body).toStrictEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: 'API access needs a paid plan', data: { error: 'API access needs a paid plan', code: 'plan_feature_gated', feature: 'apiAccess' } },
      });
    });
  }

  it('makes the SDK client fail to connect without a valid key', async () => {
    await expect(fx.connect('svc_live_wrong')).rejects.toMatchObject({ code: 401, message: expect.stringContaining('invalid_api_key') });
    await expect(fx.connect(fx.freeKey)).rejects.toMatchObject({ code: 402, message: expect.stringContaining('plan_feature_gated') });
  });

  it('answers GET and DELETE 405 with Allow: POST (stateless: no stream, no session)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${fx.baseUrl}/mcp`, { method, headers: { authorization: `Bearer ${fx.demo.apiKey}`, accept: 'text/event-stream' } });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      expect((await response.json()).error.data.code).toBe('method_not_allowed');
    }
  });
});

describe('POST /mcp: tools/call through the SDK and without it', () => {
  it('answers the same result whether the SDK server or the plain path (src/mcp/plain-tool-call.ts) runs the call', async () => {
    const call = { jsonrpc: '2.0', id: 'c1', method: 'tools/call', params: { name: 'get_form', arguments: { id: fx.demo.formId } } };
    const plain = await post(fx.demo.apiKey, call, { 'mcp-protocol-version': '2025-06-18' });
    // Another protocol version the SDK supports: the call goes through its Server and transport.
    const sdk = await post(fx.demo.apiKey, call, { 'mcp-protocol-version': '2025-03-26' });
    expect(plain.status).toBe(200);
    expect(sdk.status).toBe(200);
    expect(plain.body).toStrictEqual(sdk.body);
    expect(plain.body).toMatchObject({ jsonrpc: '2.0', id: 'c1', result: { structuredContent: { id: fx.demo.formId } } });
    const missing = { ...call, params: { name: 'get_form', arguments: { id: 2147483647 } } };
    expect((await post(fx.demo.apiKey, missing)).body).toStrictEqual((await post(fx.demo.apiKey, missing, { 'mcp-protocol-version': '2025-03-26' })).body);
  });

  it('leaves what is not a plain call to the SDK: a wrong Accept is 406, an unknown protocol version 400', async () => {
    const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_forms', arguments: {} } };
    expect((await post(fx.demo.apiKey, call, { accept: 'application/json' })).status).toBe(406);
    expect((await post(fx.demo.apiKey, call, { 'mcp-protocol-version': '1999-01-01' })).status).toBe(400);
  });

  it('answers a tools/call whose params are not a call -32602 Invalid params, with its id and no schema dump', async () => {
    for (const params of [{}, { name: 5 }, { name: 'list_forms', arguments: 'x' }, undefined]) {
      const answer = await post(fx.demo.apiKey, { jsonrpc: '2.0', id: 7, method: 'tools/call', ...(params && { params }) });
      expect([answer.status, answer.body]).toStrictEqual([
        200,
        { jsonrpc: '2.0', id: 7, error: { code: -32602, message: 'Invalid params: tools/call takes params.name (a string) and params.arguments (an object, optional)' } },
      ]);
    }
  });
});

describe('POST /mcp: the budget', () => {
  it('moves by 1 point per tools/call and not at all for initialize, ping and tools/list', async () => {
    const agent = await fx.connect(fx.demo.apiKey);
    await agent.call('get_form', { id: fx.demo.formId });
    const remaining = Number(agent.lastHeaders().get('x-ratelimit-remaining'));
    expect(remaining).toBeGreaterThan(0);
    expect(agent.lastHeaders().get('x-ratelimit-limit')).toBe('5000');

    await agent.client.ping();
    expect(agent.lastHeaders().get('x-ratelimit-remaining')).toBeNull();
    await agent.client.listTools();
    await (await fx.connect(fx.demo.apiKey)).close();

    await agent.call('list_forms', { limit: 100 });
    expect(Number(agent.lastHeaders().get('x-ratelimit-remaining'))).toBe(remaining - 1);
    // A failing call is a request like any other on /v1: its point is spent.
    await agent.call('get_form', { id: 2147483647 });
    expect(Number(agent.lastHeaders().get('x-ratelimit-remaining'))).toBe(remaining - 2);
    const rest = await fx.app.request('GET', '/v1/forms?limit=1', { key: fx.demo.apiKey });
    expect(Number(rest.headers.get('x-ratelimit-remaining'))).toBe(remaining - 3);
    await agent.close();
  });

  it('charges a tool what its route costs: get_rate_limit is free (decisions §7.1), as GET /v1/rate_limit', async () => {
    const agent = await fx.connect(fx.demo.apiKey);
    const first = await agent.call('get_rate_limit');
    const second = await agent.call('get_rate_limit');
    expect(second.structuredContent).toStrictEqual(first.structuredContent);
    expect((await fx.app.request('GET', '/v1/rate_limit', { key: fx.demo.apiKey })).body).toStrictEqual(first.structuredContent);
    await agent.close();
  });

  it('answers a call over budget as a tool error with the v1 rate_limited body, and lists tools still', async () => {
    const refusals = async (): Promise<number> => (await rateLimitRefusals.get()).values.reduce((sum, sample) => sum + sample.value, 0);
    const before = await refusals();
    const agent = await fx.connect(keyOf(fx.agents, 'tiny'));
    expect((await agent.call('list_forms')).isError).toBeFalsy();
    expect((await agent.call('list_forms')).isError).toBeFalsy();
    expect(agent.lastHeaders().get('x-ratelimit-remaining')).toBe('0');
    const refused = await agent.call('list_forms');
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toStrictEqual({ error: expect.any(String), code: 'rate_limited', retryAfter: expect.any(Number) });
    expect(agent.lastHeaders().get('x-ratelimit-remaining')).toBe('0');
    expect(await refusals()).toBe(before + 1);
    // 0 points: an agent whose budget is spent still learns what it may call.
    expect((await agent.client.listTools()).tools.length).toBeGreaterThan(0);
    await agent.close();
  });
});
