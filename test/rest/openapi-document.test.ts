import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportedAccount } from '../../src/fixtures/fixture-import.js';
import { routes } from '../../src/execution/routes.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { seedAccount } from '../support/seed.js';

/**
 * Decisions §7.3: every /v1 API-key route's operationId, verb-first kebab-case (MCP's tool names derive from them);
 * the site-key routes, the export and the event stream, which are no tools, named the same way.
 */
const OPERATION_IDS: Record<string, string> = {
  'GET /forms': 'list-forms',
  'GET /forms/{id}': 'get-form',
  'POST /forms': 'create-form',
  'PATCH /forms/{id}': 'update-form',
  'DELETE /forms/{id}': 'archive-form',
  'GET /forms/{id}/submissions': 'list-form-submissions',
  'POST /forms/{id}/submissions': 'ingest-submission',
  'GET /submissions/{id}': 'get-submission',
  'DELETE /submissions/{id}': 'delete-submission',
  'GET /calendar-widgets': 'list-calendar-widgets',
  'GET /calendar-widgets/{id}': 'get-calendar-widget',
  'GET /calendar-widgets/{id}/bookings': 'list-calendar-widget-bookings',
  'GET /bookings/{id}': 'get-booking',
  'GET /ecommerce-widgets': 'list-ecommerce-widgets',
  'GET /ecommerce-widgets/{id}': 'get-ecommerce-widget',
  'GET /ecommerce-widgets/{id}/orders': 'list-ecommerce-widget-orders',
  'GET /orders/{id}': 'get-order',
  'POST /webhooks': 'create-webhook',
  'GET /webhooks': 'list-webhooks',
  'GET /webhooks/{id}': 'get-webhook',
  'PATCH /webhooks/{id}': 'update-webhook',
  'DELETE /webhooks/{id}': 'delete-webhook',
  'GET /webhooks/{id}/deliveries': 'list-webhook-deliveries',
  'GET /webhooks/{id}/deliveries/{deliveryId}': 'get-webhook-delivery',
  'POST /webhooks/{id}/deliveries/{deliveryId}/redeliver': 'redeliver-webhook-delivery',
  'POST /webhooks/{id}/replay': 'replay-webhook',
  'POST /webhooks/{id}/ping': 'ping-webhook',
  'GET /events': 'list-events',
  'GET /events/{eventId}': 'get-event',
  'POST /erasure-requests': 'create-erasure-request',
  'GET /erasure-requests/{id}': 'get-erasure-request',
  'GET /rate_limit': 'get-rate-limit',
  'GET /api-keys': 'list-api-keys',
  'GET /api-keys/{id}': 'get-api-key',
  'POST /api-keys': 'create-api-key',
  'POST /api-keys/{id}/roll': 'roll-api-key',
  'DELETE /api-keys/{id}': 'revoke-api-key',
  // Not tools (site keys, streamed bodies):
  'GET /forms/{id}/submissions/export': 'export-form-submissions',
  'GET /events/stream': 'stream-events',
  'GET /site-catalog': 'list-site-catalog',
  'GET /site-verification': 'get-site-verification',
  'POST /site-verification/attempt': 'attempt-site-verification',
};

interface Operation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  parameters: { name: string; in: string; schema: Record<string, unknown>; description?: string }[];
}

let t: TestApp;
let acme: ImportedAccount;
let doc: { tags: { name: string; description: string }[]; paths: Record<string, Record<string, Operation>> };
const operations = (): [string, Operation][] =>
  Object.entries(doc.paths).flatMap(([path, byMethod]) => Object.entries(byMethod).map(([method, operation]): [string, Operation] => [`${method.toUpperCase()} ${path}`, operation]));

beforeAll(async () => {
  t = await createTestApp();
  acme = await seedAccount(t.db);
  doc = (await t.request('GET', '/v1/openapi.json')).body;
});
afterAll(async () => t.close());

describe('GET /v1/openapi.json', () => {
  it("names every route's operation as decisions §7.3 lists it: verb-first kebab-case, from the route row", () => {
    for (const route of routes) expect(route.operationId, `${route.method} ${route.path}`).toBe(OPERATION_IDS[`${route.method} ${route.path}`]);
    expect(Object.fromEntries(operations().map(([name, operation]) => [name, operation.operationId]))).toStrictEqual(
      Object.fromEntries(routes.map((route) => [`${route.method} ${route.path}`, route.operationId])),
    );
  });

  it('gives every operation a short summary and a description to choose it by, and declares every tag it uses', () => {
    const declared = doc.tags.map((tag) => tag.name);
    for (const tag of doc.tags) expect(tag.description.length, tag.name).toBeGreaterThan(20);
    for (const [name, operation] of operations()) {
      expect(operation.summary.length, name).toBeLessThanOrEqual(40);
      expect(operation.description.length, name).toBeGreaterThan(60);
      expect(operation.description, name).not.toBe(operation.summary);
      expect(declared, name).toEqual(expect.arrayContaining(operation.tags));
    }
  });

  it('declares no maximum for limit, which the service clamps to 100 rather than refuses', async () => {
    const limit = doc.paths['/forms']!.get!.parameters.find((parameter) => parameter.name === 'limit')!;
    expect(limit).toStrictEqual({ name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, default: 20 }, description: 'page size; values above 100 are clamped to 100' });
    const res = await t.request('GET', '/v1/forms?limit=500', { key: acme.apiKeys.full!.key });
    expect(res.status).toBe(200);
    expect(res.body.pagination.limit).toBe(100);
  });

  it('carries a strong ETag and answers 304 with no body to If-None-Match (decisions §6.2)', async () => {
    const first = await t.request('GET', '/v1/openapi.json');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]{22}"$/);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    const again = await t.request('GET', '/v1/openapi.json', { headers: { 'If-None-Match': `"other", ${etag}` } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect((await t.request('GET', '/v1/openapi.json', { headers: { 'If-None-Match': '"other"' } })).status).toBe(200);
    const head = await t.request('HEAD', '/v1/openapi.json', { headers: { 'If-None-Match': etag } });
    expect(head.status).toBe(304);
  });
});
