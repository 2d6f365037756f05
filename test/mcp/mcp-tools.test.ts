import { Ajv2020 } from 'ajv/dist/2020.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isToolRoute, toolName } from '../../src/mcp/tools.js';
import { routes } from '../../src/execution/routes.js';
import { keyOf, startMcpFixture, type AgentClient, type McpFixture } from './mcp-support.js';

let fx: McpFixture;
let agent: AgentClient;
let tools: Map<string, Tool>;
const ajv = new Ajv2020({ strict: false, allErrors: true }).addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
const validators = new Map<string, (value: unknown) => boolean>();

beforeAll(async () => {
  fx = await startMcpFixture();
  agent = await fx.connect(fx.demo.apiKey);
  tools = new Map((await agent.client.listTools()).tools.map((tool) => [tool.name, tool]));
});
afterAll(async () => {
  await agent.close();
  await fx.close();
});

/** The tool of a row, by the row's name everywhere ('GET /forms/{id}'), so renamed operationIds flow through. */
function toolOf(row: string): string {
  const route = routes.filter(isToolRoute).find((candidate) => `${candidate.method} ${candidate.path}` === row);
  if (!route) throw new Error(`no tool row ${row}`);
  return toolName(route);
}

/** A successful call: its structuredContent validated against the tool's outputSchema, and the text the same JSON. */
async function success(row: string, args: Record<string, unknown>): Promise<unknown> {
  const name = toolOf(row);
  const result: CallToolResult = await agent.call(name, args);
  expect(result.isError, `${name}: ${JSON.stringify(result.structuredContent)}`).toBeFalsy();
  if (result.structuredContent === undefined) {
    expect(result.content).toStrictEqual([]);
    expect(tools.get(name)?.outputSchema).toBeUndefined();
    return undefined;
  }
  expect(result.content).toStrictEqual([{ type: 'text', text: JSON.stringify(result.structuredContent) }]);
  const validate = validators.get(name) ?? ajv.compile(tools.get(name)?.outputSchema ?? {});
  validators.set(name, validate);
  expect(validate(result.structuredContent), `${name}: ${ajv.errorsText((validate as unknown as { errors: never }).errors)}`).toBe(true);
  return result.structuredContent;
}

/** A v1 error as a tool error: isError, the v1 body as structuredContent and as the one text. */
async function failure(name: string, args: Record<string, unknown>, key?: string): Promise<unknown> {
  const caller = key ? await fx.connect(key) : agent;
  const result = await caller.call(name, args);
  if (key) await caller.close();
  expect(result.isError).toBe(true);
  expect(result.content).toStrictEqual([{ type: 'text', text: JSON.stringify(result.structuredContent) }]);
  return result.structuredContent;
}

/** Values a request makes anew (ids, times, shown-once secrets): a twin request on /v1 makes other ones. */
function made(value: unknown): unknown {
  if (value === undefined || value === null) return undefined;
  return JSON.parse(
    JSON.stringify(value, (key, inner: unknown) => (['id', 'createdAt', 'updatedAt', 'secret', 'webhookId', 'formId', 'eventId', 'nextAttemptAt', 'lastAttemptAt', 'key', 'lastFour'].includes(key) && inner !== null ? `<${key}>` : inner)),
  );
}

const rest = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) => fx.app.request(method, `/v1${path}`, { key: fx.demo.apiKey, body, headers });

describe('MCP tools: one per API-key row, derived', () => {
  it('has a tool for every API-key operation of the OpenAPI document but the streamed ones, and no other', async () => {
    const document = (await fx.app.request('GET', '/v1/openapi.json')).body as { paths: Record<string, Record<string, { operationId: string; security: Record<string, unknown>[]; responses: Record<string, { content?: Record<string, unknown> }> }>> };
    const expected: string[] = [];
    for (const operations of Object.values(document.paths)) {
      for (const operation of Object.values(operations)) {
        if (!operation.security.some((scheme) => 'apiKey' in scheme)) continue;
        // A streamed answer (NDJSON, CSV, server-sent events) is no single result: no tool (decisions §7.3).
        const media = Object.values(operation.responses).flatMap((response) => Object.keys(response.content ?? {}));
        if (media.some((type) => type !== 'application/json')) continue;
        expected.push(operation.operationId.replaceAll('-', '_'));
      }
    }
    expect([...tools.keys()].sort()).toStrictEqual(expected.sort());
  });

  it('describes every tool with valid JSON Schemas of object type, its row’s summary, description and hints', () => {
    for (const route of routes.filter(isToolRoute)) {
      const tool = tools.get(toolName(route));
      if (!tool) throw new Error(`no tool for ${route.method} ${route.path}`);
      expect(tool.title).toBe(route.summary);
      expect(tool.description).toBe(route.description);
      expect(tool.description?.length).toBeGreaterThan(20);
      expect(tool.inputSchema.type).toBe('object');
      expect(() => ajv.compile(tool.inputSchema)).not.toThrow();
      if (tool.outputSchema) {
        expect(tool.outputSchema.type).toBe('object');
        expect(() => ajv.compile(tool.outputSchema ?? {})).not.toThrow();
      } else {
        expect(route.success.status).toBe(204);
      }
      expect(tool.annotations?.readOnlyHint).toBe(route.method === 'GET');
      expect(tool.annotations?.idempotentHint).toBe(route.method !== 'POST');
    }
    expect(tools.get(toolOf('GET /forms'))?.inputSchema.properties).toMatchObject({ page: { type: 'integer' }, limit: { type: 'integer' }, domainId: {}, archived: {} });
    expect(tools.get(toolOf('POST /forms/{id}/submissions'))?.inputSchema).toMatchObject({ properties: { id: { type: 'integer' }, formData: { type: 'object' }, idempotencyKey: { type: 'string' } }, required: ['id', 'formData'] });
    expect(tools.get(toolOf('DELETE /forms/{id}'))?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    expect(tools.get(toolOf('POST /erasure-requests'))?.annotations).toMatchObject({ destructiveHint: true, idempotentHint: false });
    expect(tools.get(toolOf('PATCH /forms/{id}'))?.annotations).toMatchObject({ destructiveHint: false, idempotentHint: true });
    expect(tools.get(toolOf('POST /forms'))?.annotations).toMatchObject({ destructiveHint: false, idempotentHint: false });
  });
});

describe('MCP tools/call answers what /v1 answers', () => {
  it('reads: each read tool’s structuredContent is the REST body of its route, byte for byte', async () => {
    const forms = (await rest('GET', '/forms?limit=100')).body;
    const submission = (await rest('GET', `/forms/${fx.demo.formId}/submissions?limit=1`)).body.data[0];
    const calendar = (await rest('GET', '/calendar-widgets')).body.data[0];
    const booking = (await rest('GET', `/calendar-widgets/${calendar.id}/bookings`)).body.data[0];
    const shop = (await rest('GET', '/ecommerce-widgets')).body.data[0];
    const order = (await rest('GET', `/ecommerce-widgets/${shop.id}/orders`)).body.data[0];
    const webhook = (await rest('POST', '/webhooks', { url: 'https://hooks.example.com/reads', event: 'form.created' })).body;
    const delivery = (await rest('POST', `/webhooks/${webhook.id}/ping`)).body;
    await rest('PATCH', `/forms/${fx.demo.formId}`, { name: 'Contact us' });
    const event = (await rest('GET', '/events')).body.data[0];
    const erasure = (await rest('POST', '/erasure-requests', { email: 'nobody@example.com' })).body;
    const apiKey = (await rest('GET', '/api-keys')).body.data[0];
    const reads: [string, Record<string, unknown>, string][] = [
      ['GET /forms', { limit: 100 }, '/forms?limit=100'],
      ['GET /forms', { archived: true, page: 1, limit: 5 }, '/forms?archived=true&page=1&limit=5'],
      ['GET /forms/{id}', { id: forms.data[0].id }, `/forms/${forms.data[0].id}`],
      ['GET /forms/{id}/submissions', { id: fx.demo.formId, limit: 3 }, `/forms/${fx.demo.formId}/submissions?limit=3`],
      ['GET /submissions/{id}', { id: submission.id }, `/submissions/${submission.id}`],
      ['GET /calendar-widgets', {}, '/calendar-widgets'],
      ['GET /calendar-widgets/{id}', { id: calendar.id }, `/calendar-widgets/${calendar.id}`],
      ['GET /calendar-widgets/{id}/bookings', { id: calendar.id, status: booking.status }, `/calendar-widgets/${calendar.id}/bookings?status=${booking.status}`],
      ['GET /bookings/{id}', { id: booking.id }, `/bookings/${booking.id}`],
      ['GET /ecommerce-widgets', { domainId: forms.data[0].domain.id }, `/ecommerce-widgets?domainId=${forms.data[0].domain.id}`],
      ['GET /ecommerce-widgets/{id}', { id: shop.id }, `/ecommerce-widgets/${shop.id}`],
      ['GET /ecommerce-widgets/{id}/orders', { id: shop.id }, `/ecommerce-widgets/${shop.id}/orders`],
      ['GET /orders/{id}', { id: order.id }, `/orders/${order.id}`],
      ['GET /webhooks', {}, '/webhooks'],
      ['GET /webhooks/{id}', { id: webhook.id }, `/webhooks/${webhook.id}`],
      ['GET /webhooks/{id}/deliveries', { id: webhook.id }, `/webhooks/${webhook.id}/deliveries`],
      ['GET /webhooks/{id}/deliveries/{deliveryId}', { id: webhook.id, deliveryId: delivery.id }, `/webhooks/${webhook.id}/deliveries/${delivery.id}`],
      ['GET /events', { type: 'form.updated' }, '/events?type=form.updated'],
      ['GET /events/{eventId}', { eventId: event.id }, `/events/${event.id}`],
      ['GET /erasure-requests/{id}', { id: erasure.id }, `/erasure-requests/${erasure.id}`],
      ['GET /rate_limit', {}, '/rate_limit'],
      ['GET /api-keys', {}, '/api-keys'],
      ['GET /api-keys/{id}', { id: apiKey.id }, `/api-keys/${apiKey.id}`],
    ];
    const covered = new Set<string>();
    for (const [row, args, path] of reads) {
      const expected = await rest('GET', path);
      expect(expected.status, path).toBe(200);
      expect(await success(row, args), row).toStrictEqual(expected.body);
      covered.add(toolOf(row));
    }
    const readTools = routes.filter(isToolRoute).filter((route) => route.method === 'GET').map(toolName);
    expect([...covered].sort()).toStrictEqual([...new Set(readTools)].sort());
  });

  it('writes: each write tool answers the body its route answers to the same request (ids and times aside)', async () => {
    const domainId = (await rest('GET', `/forms/${fx.demo.formId}`)).body.domain.id;
    const form = { name: 'Agent form', domainId, fields: [{ id: 'email', type: 'email', label: 'Email' }] };
    const covered = new Set<string>();
    // Each pair: the REST request, then the tool call on a twin resource; compared with made values masked.
    const pair = async (row: string, restRequest: [string, string, unknown?, Record<string, string>?], args: Record<string, unknown>) => {
      const [method, path, body, headers] = restRequest;
      const expected = await rest(method, path, body, headers);
      expect(expected.status, `${method} ${path}: ${expected.text}`).toBeLessThan(300);
      const actual = await success(row, args);
      expect(made(actual), row).toStrictEqual(expected.status === 204 ? undefined : made(expected.body));
      covered.add(toolOf(row));
      return { rest: expected.body, mcp: actual as Record<string, number> };
    };
    const created = await pair('POST /forms', ['POST', '/forms', form], form);
    const url = 'https://hooks.example.com/agent';
    const hooks = await pair('POST /webhooks', ['POST', '/webhooks', { url, event: 'submission.created', formId: created.rest.id }], { url, event: 'submission.created', formId: created.mcp.id });
    await pair('PATCH /webhooks/{id}', ['PATCH', `/webhooks/${hooks.rest.id}`, { active: false }], { id: hooks.mcp.id, active: false });
    await pair('PATCH /webhooks/{id}', ['PATCH', `/webhooks/${hooks.rest.id}`, { active: true }], { id: hooks.mcp.id, active: true });
    const pings = await pair('POST /webhooks/{id}/ping', ['POST', `/webhooks/${hooks.rest.id}/ping`], { id: hooks.mcp.id });
    await pair('POST /webhooks/{id}/deliveries/{deliveryId}/redeliver', ['POST', `/webhooks/${hooks.rest.id}/deliveries/${pings.rest.id}/redeliver`], { id: hooks.mcp.id, deliveryId: pings.mcp.id });
    const window = { createdFrom: new Date(Date.now() - 3_600_000).toISOString(), createdBefore: new Date(Date.now() + 3_600_000).toISOString() };
    await pair('POST /webhooks/{id}/replay', ['POST', `/webhooks/${hooks.rest.id}/replay`, window], { id: hooks.mcp.id, ...window });
    await pair('DELETE /webhooks/{id}', ['DELETE', `/webhooks/${hooks.rest.id}`], { id: hooks.mcp.id });
    await pair('PATCH /forms/{id}', ['PATCH', `/forms/${created.rest.id}`, { name: 'Renamed' }], { id: created.mcp.id, name: 'Renamed' });
    await pair('POST /forms/{id}/submissions', ['POST', `/forms/${created.rest.id}/submissions`, { formData: { email: 'a@example.com' } }, { 'Idempotency-Key': 'rest-1' }], {
      id: created.mcp.id,
      formData: { email: 'a@example.com' },
      idempotencyKey: 'mcp-1',
    });
    const submissions = (await rest('GET', `/forms/${created.rest.id}/submissions`)).body.data;
    const mcpSubmissions = (await rest('GET', `/forms/${created.mcp.id}/submissions`)).body.data;
    await pair('DELETE /submissions/{id}', ['DELETE', `/submissions/${submissions[0].id}`], { id: mcpSubmissions[0].id });
    await pair('POST /erasure-requests', ['POST', '/erasure-requests', { email: 'b@example.com' }], { email: 'b@example.com' });
    await pair('DELETE /forms/{id}', ['DELETE', `/forms/${created.rest.id}`], { id: created.mcp.id });
    const keys = await pair('POST /api-keys', ['POST', '/api-keys', { name: 'Agent', scopes: ['read:forms'] }], { name: 'Agent', scopes: ['read:forms'] });
    const rolled = await pair('POST /api-keys/{id}/roll', ['POST', `/api-keys/${keys.rest.id}/roll`, { expiresInSeconds: 60 }], { id: keys.mcp.id, expiresInSeconds: 60 });
    await pair('DELETE /api-keys/{id}', ['DELETE', `/api-keys/${rolled.rest.id}`], { id: rolled.mcp.id });
    const writeTools = routes.filter(isToolRoute).filter((route) => route.method !== 'GET').map(toolName);
    expect([...covered].sort()).toStrictEqual([...new Set(writeTools)].sort());
  });

  it('ingests once for two calls with one idempotencyKey, answering the same submission', async () => {
    const before = (await rest('GET', `/forms/${fx.demo.formId}/submissions?limit=1`)).body.pagination.total;
    const args = { id: fx.demo.formId, formData: { name: 'Twice', email: 'twice@example.com' }, idempotencyKey: `agent-${Math.random()}` };
    const first = await success('POST /forms/{id}/submissions', args);
    const second = await success('POST /forms/{id}/submissions', args);
    expect(second).toStrictEqual(first);
    expect((await rest('GET', `/forms/${fx.demo.formId}/submissions?limit=1`)).body.pagination.total).toBe(before + 1);
    // The same key on /v1, with the same body: a replay of the same submission.
    const replay = await rest('POST', `/forms/${fx.demo.formId}/submissions`, { formData: args.formData }, { 'Idempotency-Key': args.idempotencyKey });
    expect(replay.status).toBe(200);
    expect(replay.body).toStrictEqual(first);
  });
});

describe('MCP tools/call: v1 errors are tool errors with the v1 body', () => {
  it('answers an absent form 404 not_found, as /v1 does', async () => {
    const expected = await rest('GET', '/forms/2147483647');
    expect(await failure(toolOf('GET /forms/{id}'), { id: 2147483647 })).toStrictEqual(expected.body);
    expect(expected.body).toStrictEqual({ error: expect.any(String), code: 'not_found', resource: 'form' });
  });

  it('answers a key without the scope 403 insufficient_scope, as /v1 does', async () => {
    const key = keyOf(fx.agents, 'forms');
    const expected = await fx.app.request('GET', '/v1/submissions/1', { key });
    expect(expected.status).toBe(403);
    expect(await failure(toolOf('GET /submissions/{id}'), { id: 1 }, key)).toStrictEqual(expected.body);
  });

  it('answers bad arguments with the route’s 400', async () => {
    expect(await failure(toolOf('GET /forms/{id}'), { id: 'abc' })).toStrictEqual((await rest('GET', '/forms/abc')).body);
    expect(await failure(toolOf('GET /forms/{id}'), { id: 1.5 })).toStrictEqual((await rest('GET', '/forms/1.5')).body);
    expect(await failure(toolOf('GET /forms'), { limit: 'many' })).toStrictEqual((await rest('GET', '/forms?limit=many')).body);
    expect(await failure(toolOf('GET /forms'), { domainId: '01' })).toStrictEqual((await rest('GET', '/forms?domainId=01')).body);
    const bad = await failure(toolOf('POST /forms'), { name: '', extra: 1 });
    expect(bad).toStrictEqual((await rest('POST', '/forms', { name: '', extra: 1 })).body);
    expect(bad).toMatchObject({ code: 'validation_failed' });
    const key = await failure(toolOf('POST /forms/{id}/submissions'), { id: fx.demo.formId, formData: {}, idempotencyKey: 7 });
    expect(key).toMatchObject({ code: 'validation_failed', fields: [{ field: 'idempotencyKey' }] });
  });

  it('refuses an unknown tool as a JSON-RPC error, without spending budget', async () => {
    await expect(agent.call('no_such_tool', {})).rejects.toMatchObject({ code: -32602 });
  });
});
