import { Ajv2020 } from 'ajv/dist/2020.js';
import { getNamedType, isObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/domain/validation.js';
import type { RequestContext } from '../../src/context.js';
import { createRowRunner } from '../../src/execution/run-row.js';
import { admit } from '../../src/gate/gate.js';
import { routes } from '../../src/execution/routes.js';
import { isStreamRoute } from '../../src/execution/route.js';
import { toSchema } from '../../src/schema/index.js';
import type { ImportedAccount } from '../../src/fixtures/fixture-import.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { seedAccount } from '../support/seed.js';

describe('the route table', () => {
  const schema = toSchema();
  const runner = createRowRunner(schema, routes);

  it('declares auth on every route, and a scope on every API-key route except the webhook and event ones the contract exempts (their scope follows the event kind) and GET /rate_limit (§7.1: no scope)', () => {
    for (const route of runner.routes) {
      expect(['apiKey', 'siteKey'], `${route.method} ${route.path}`).toContain(route.auth);
      if (route.auth === 'apiKey' && !/^\/(webhooks|events|rate_limit)(\/|$)/.test(route.path)) expect(route.scope, `${route.method} ${route.path}`).not.toBeNull();
      if (route.auth === 'siteKey') expect(route.scope).toBeNull();
      if (route.planGate === false) expect(`${route.method} ${route.path}`).toBe('DELETE /webhooks/{id}');
    }
  });

  it('reads each operation row\'s scope from its root field\'s authScopes, never from the row (one scope, declared on the field)', () => {
    const scopes = Object.fromEntries(runner.routes.map((route) => [`${route.method} ${route.path}`, route.scope]));
    expect(scopes).toMatchObject({
      'GET /forms': 'read:forms',
      'POST /forms': 'write:forms',
      'POST /forms/{id}/submissions': 'write:submissions',
      'GET /submissions/{id}': 'read:submissions',
      'GET /webhooks': null,
      'GET /site-catalog': null,
      // A streamed row has no root field: it names its own.
      'GET /forms/{id}/submissions/export': 'read:submissions',
    });
    for (const route of routes) if (!isStreamRoute(route)) expect(route.scope, `${route.method} ${route.path} writes a scope`).toBeUndefined();
  });

  it('refuses to admit a row that did not go through compileRoutes (no scope read yet), before reading any header', async () => {
    const raw = routes.find((route) => route.method === 'GET' && route.path === '/forms');
    if (!raw) throw new Error('GET /forms missing');
    await expect(admit(raw, new Headers(), {} as RequestContext)).rejects.toThrow(/without its scope/);
  });

  it('has one row per method and path', () => {
    const keys = routes.map((route) => `${route.method} ${route.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('the GraphQL schema', () => {
  it('guards every root field with scope-auth', () => {
    const schema = toSchema();
    const unguarded: string[] = [];
    for (const root of [schema.getQueryType(), schema.getMutationType()]) {
      for (const field of Object.values(root?.getFields() ?? {})) {
        const options = (field.extensions as { pothosOptions?: { authScopes?: unknown } }).pothosOptions;
        if (!options?.authScopes) unguarded.push(`${root?.name}.${field.name}`);
      }
    }
    expect(unguarded).toEqual([]);
  });

  it('exposes no hidden column as a field', () => {
    const schema = toSchema();
    const hidden = /^(keyHash|siteKeyHash|secret|webhookUrl|webhookSigningSecret|verificationToken|cancellationToken|providerEventId|assignedHost|providerPriceId|downloadUrl|providerPaymentId|downloadToken|formDataCiphertext)$/;
    const leaks: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith('__')) continue;
      for (const field of Object.values(type.getFields())) {
        // `secret` exists once by design: the webhook subscription's, shown on creation only.
        if (hidden.test(field.name) && !(type.name === 'CreateWebhookResult' && field.name === 'secret')) leaks.push(`${type.name}.${field.name}: ${getNamedType(field.type).name}`);
      }
    }
    expect(leaks).toEqual([]);
  });
});

describe('GET /v1/openapi.json', () => {
  let t: TestApp;
  let acme: ImportedAccount;
  beforeAll(async () => {
    t = await createTestApp();
    acme = await seedAccount(t.db);
  });
  afterAll(async () => t.close());

  it('is served without authentication and documents every route of the table', async () => {
    const res = await t.request('GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.info.version).toBe('1.0.0');
    const documented = Object.entries(res.body.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());
  });

  it('says what each route of the table requires: credentials, id, pagination, body and its limits', async () => {
    const doc = (await t.request('GET', '/v1/openapi.json')).body;
    for (const route of createRowRunner(toSchema(), routes).routes) {
      const name = `${route.method} ${route.path}`;
      const operation = doc.paths[route.path][route.method.toLowerCase()];
      const parameters = (operation.parameters as { name: string; in: string }[]).map((p) => `${p.in}:${p.name}`);
      expect(operation.security, name).toStrictEqual([route.auth === 'apiKey' ? { apiKey: [] } : { siteKey: [] }]);
      expect(operation['x-required-scope'], name).toBe(route.scope ?? undefined);
      expect(Object.keys(operation.responses), name).toContain(String(route.success.status));
      expect(parameters.includes('path:id'), name).toBe(route.path.includes('{id}'));
      expect(parameters.includes('query:page') && parameters.includes('query:limit'), name).toBe(Boolean(route.paginated));
      expect(Boolean(operation.requestBody), name).toBe(Boolean(route.body));
      if (route.body) expect(operation.requestBody.description, name).toContain(`nest at most ${MAX_JSON_DEPTH} levels`);
    }
    // The documented body schema is the one that validates: it accepts what the service accepts and refuses the rest.
    const ajv = new Ajv2020({ strict: false });
    const createForm = ajv.compile(doc.paths['/forms'].post.requestBody.content['application/json'].schema);
    expect(createForm({ name: 'N', fields: [{ type: 'text', label: 'L' }] })).toBe(true);
    expect(createForm({ name: 'N', fields: [{ type: 'text', label: 'L' }], phi: true })).toBe(false);
    expect(createForm({ name: 1, fields: [] })).toBe(false);
  });

  it('describes the live responses: each checked against its documented schema', async () => {
    const doc = (await t.request('GET', '/v1/openapi.json')).body;
    const ajv = new Ajv2020({ strict: false });
    const key = acme.apiKeys.full!.key;
    const formId = acme.forms.contact!.id;
    const created = await t.request('POST', `/v1/forms/${formId}/submissions`, { key, body: { formData: { Name: 'Ada' } } });
    const checks: [string, string, number, { status: number; body: unknown }][] = [
      ['/forms', 'get', 200, await t.request('GET', '/v1/forms', { key })],
      ['/forms/{id}', 'get', 200, await t.request('GET', `/v1/forms/${formId}`, { key })],
      ['/forms/{id}/submissions', 'get', 200, await t.request('GET', `/v1/forms/${formId}/submissions`, { key })],
      ['/forms/{id}/submissions', 'post', 201, created],
      ['/submissions/{id}', 'get', 200, await t.request('GET', `/v1/submissions/${created.body.id}`, { key })],
      ['/forms', 'post', 201, await t.request('POST', '/v1/forms', { key, body: { name: 'N', fields: [{ type: 'text', label: 'L' }] } })],
    ];
    for (const [path, method, status, res] of checks) {
      expect(res.status, `${method} ${path}`).toBe(status);
      const schema = doc.paths[path][method].responses[String(status)].content['application/json'].schema;
      const validate = ajv.compile(schema);
      expect(validate(res.body), `${method} ${path}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    const error = await t.request('GET', '/v1/forms/999999', { key });
    const errorSchema = ajv.compile({ ...doc.components.schemas.Error });
    expect(errorSchema(error.body)).toBe(true);
  });
});
