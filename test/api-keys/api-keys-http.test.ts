import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ImportedAccount } from '../../src/fixtures/fixture-import.js';
import { READ_SCOPES, SCOPES } from '../../src/scopes.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { seedAccount } from '../support/seed.js';

/*
 * Decisions §7.4 through both transports, on two app instances over one database (replicas): keys made, rolled
 * and revoked through the API, never granting more than the acting key holds, shown once, hashed, audited.
 */

let a: TestApp;
let b: TestApp;
let acme: ImportedAccount;
let other: ImportedAccount;
let admin: string;

const iso = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const liveKey = expect.stringMatching(/^svc_live_[A-Za-z0-9_-]{43}$/);

beforeAll(async () => {
  a = await createTestApp();
  b = await createTestApp({ db: a.db });
});
afterAll(async () => {
  await b.close();
  await a.close();
});
beforeEach(async () => {
  await a.db.truncate();
  acme = await seedAccount(a.db, {
    apiKeys: [
      { ref: 'admin', name: 'Admin', scopes: ['manage:api_keys', ...READ_SCOPES, 'write:forms'] },
      { ref: 'reader', scopes: ['read:forms'] },
      { ref: 'all', scopes: [...SCOPES] },
    ],
  });
  other = await seedAccount(a.db, { ref: 'other', name: 'Other' });
  admin = acme.apiKeys.admin!.key;
});

const keyRow = (id: number) => a.db.prisma.apiKey.findUniqueOrThrow({ where: { id } });
const audit = () => a.db.prisma.auditEvent.findMany({ where: { resource: 'api_key' }, orderBy: { id: 'asc' } });

describe('manage:api_keys', () => {
  it('is needed by every route and GraphQL field: 403 insufficient_scope with required', async () => {
    const reader = acme.apiKeys.reader!.key;
    const id = acme.apiKeys.admin!.id;
    const forbidden = { error: expect.any(String), code: 'insufficient_scope', required: 'manage:api_keys' };
    for (const [method, path, body] of [
      ['GET', '/v1/api-keys', undefined],
      ['GET', `/v1/api-keys/${id}`, undefined],
      ['POST', '/v1/api-keys', {}],
      ['POST', `/v1/api-keys/${id}/roll`, {}],
      ['DELETE', `/v1/api-keys/${id}`, undefined],
    ] as const) {
      const res = await a.request(method, path, { key: reader, body });
      expect([method, path, res.status, res.body]).toStrictEqual([method, path, 403, forbidden]);
    }
    const res = await a.graphql('{ apiKeys { data { id } } }', {}, reader);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'insufficient_scope', required: 'manage:api_keys' });
    expect((await keyRow(id)).revokedAt).toBeNull();
  });

  it('is a scope of the demo key, the CLI and the fixture import', () => {
    expect(SCOPES).toContain('manage:api_keys');
    expect(READ_SCOPES).not.toContain('manage:api_keys');
  });
});

describe('POST /v1/api-keys', () => {
  it('creates a key: 201, shown once, Location, read scopes by default, stored only as a keyed hash', async () => {
    const res = await a.request('POST', '/v1/api-keys', { key: admin, body: { name: 'CI' } });
    expect(res.status).toBe(201);
    expect(res.body).toStrictEqual({ id: expect.any(Number), name: 'CI', key: liveKey, scopes: READ_SCOPES, lastFour: res.body.key.slice(-4), createdAt: iso, expiresAt: null });
    expect(res.headers.get('location')).toBe(`/v1/api-keys/${res.body.id}`);
    const row = await keyRow(res.body.id);
    expect(row.keyHash).toBe(a.deps.hasher.hash(res.body.key));
    expect(JSON.stringify(row)).not.toContain(res.body.key);
    // It works, on the other replica too, and no read shows it again.
    expect((await b.request('GET', '/v1/forms', { key: res.body.key })).status).toBe(200);
    const read = await a.request('GET', `/v1/api-keys/${res.body.id}`, { key: admin });
    expect(read.body).toStrictEqual({ id: res.body.id, name: 'CI', scopes: READ_SCOPES, lastFour: res.body.lastFour, createdAt: res.body.createdAt, expiresAt: null, revokedAt: null, lastUsedAt: expect.toBeOneOf([null, iso]) });
  });

  it('creates one from no body at all, every field being optional; a route with required fields still answers an empty body invalid_json', async () => {
    const res = await a.request('POST', '/v1/api-keys', { key: admin });
    expect(res.status, res.text).toBe(201);
    expect(res.body.scopes).toStrictEqual(READ_SCOPES);
    const form = await a.request('POST', '/v1/forms', { key: admin });
    expect([form.status, form.body.code]).toStrictEqual([400, 'invalid_json']);
  });

  it('refuses a scope the calling key lacks (403 with required), an unknown scope and a past expiresAt (400)', async () => {
    const before = await a.db.prisma.apiKey.count();
    const escalate = await a.request('POST', '/v1/api-keys', { key: admin, body: { scopes: ['read:forms', 'write:submissions'] } });
    expect(escalate.status).toBe(403);
    expect(escalate.body).toStrictEqual({ error: expect.any(String), code: 'insufficient_scope', required: 'write:submissions' });
    const viaGraphql = await a.graphql('mutation { createApiKey(input: { scopes: ["manage:api_keys", "write:submissions"] }) { id key } }', {}, admin);
    expect(viaGraphql.body.data).toBeNull();
    expect(viaGraphql.body.errors[0].extensions).toMatchObject({ code: 'insufficient_scope', required: 'write:submissions' });
    const unknown = await a.request('POST', '/v1/api-keys', { key: admin, body: { scopes: ['read:everything'] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('validation_failed');
    const past = await a.request('POST', '/v1/api-keys', { key: admin, body: { expiresAt: '2020-01-01T00:00:00Z' } });
    expect(past.status).toBe(400);
    expect(past.body).toStrictEqual({ error: expect.any(String), code: 'validation_failed', fields: [{ field: 'expiresAt', message: 'expiresAt must be in the future' }] });
    expect(await a.db.prisma.apiKey.count()).toBe(before);
  });
});

describe('GET /v1/api-keys', () => {
  it("lists the account's keys newest first, revoked ones included, never a hash or a key; another account's key is 404", async () => {
    await a.request('DELETE', `/v1/api-keys/${acme.apiKeys.reader!.id}`, { key: admin });
    const res = await a.request('GET', '/v1/api-keys', { key: admin });
    expect(res.status).toBe(200);
    expect(res.body.pagination).toStrictEqual({ page: 1, limit: 20, total: 3, pages: 1 });
    expect(res.body.data.map((k: { id: number }) => k.id)).toStrictEqual([acme.apiKeys.all!.id, acme.apiKeys.reader!.id, acme.apiKeys.admin!.id].sort((x, y) => y - x));
    expect(Object.keys(res.body.data[0])).toStrictEqual(['id', 'name', 'scopes', 'lastFour', 'createdAt', 'expiresAt', 'revokedAt', 'lastUsedAt']);
    expect(res.body.data.find((k: { id: number }) => k.id === acme.apiKeys.reader!.id).revokedAt).toEqual(iso);
    expect(res.text).not.toMatch(/svc_live_|keyHash/);
    const foreign = await a.request('GET', `/v1/api-keys/${other.apiKeys.full!.id}`, { key: admin });
    const absent = await a.request('GET', '/v1/api-keys/999999', { key: admin });
    expect(foreign.status).toBe(404);
    expect(foreign.text).toBe(absent.text);
    expect(foreign.body).toStrictEqual({ error: expect.any(String), code: 'not_found', resource: 'api_key' });
  });
});

describe('POST /v1/api-keys/{id}/roll', () => {
  it('gives a new key of the same name and scopes; the rolled one works during its overlap and answers 401 one second after, on another replica', async () => {
    const target = acme.apiKeys.reader!;
    const res = await a.request('POST', `/v1/api-keys/${target.id}/roll`, { key: admin, body: { expiresInSeconds: 1 } });
    expect(res.status).toBe(201);
    expect(res.body).toStrictEqual({ id: expect.any(Number), name: null, key: liveKey, scopes: ['read:forms'], lastFour: res.body.key.slice(-4), createdAt: iso, expiresAt: null });
    const end = (await keyRow(target.id)).expiresAt!;
    expect(end.getTime() - Date.parse(res.body.createdAt)).toBeLessThanOrEqual(1000);
    expect((await b.request('GET', '/v1/forms', { key: target.key })).status).toBe(200);
    expect((await b.request('GET', '/v1/forms', { key: res.body.key })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, end.getTime() + 1000 - Date.now())));
    const after = await b.request('GET', '/v1/forms', { key: target.key });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('invalid_api_key');
    expect((await b.request('GET', '/v1/forms', { key: res.body.key })).status).toBe(200);
  });

  it('revokes the rolled key at once by default, and refuses to roll a revoked key or one with more scopes than the caller', async () => {
    const target = acme.apiKeys.reader!;
    // No body at all: every field is optional, so it reads as {} (expiresInSeconds 0).
    const res = await a.request('POST', `/v1/api-keys/${target.id}/roll`, { key: admin });
    expect(res.status).toBe(201);
    expect((await b.request('GET', '/v1/forms', { key: target.key })).status).toBe(401);
    const again = await a.request('POST', `/v1/api-keys/${target.id}/roll`, { key: admin, body: {} });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('validation_failed');
    const escalate = await a.request('POST', `/v1/api-keys/${acme.apiKeys.all!.id}/roll`, { key: admin, body: {} });
    expect(escalate.status).toBe(403);
    expect(escalate.body.code).toBe('insufficient_scope');
    expect((await keyRow(acme.apiKeys.all!.id)).revokedAt).toBeNull();
    for (const expiresInSeconds of [-1, 604801, 1.5, '60']) {
      const bad = await a.request('POST', `/v1/api-keys/${acme.apiKeys.admin!.id}/roll`, { key: admin, body: { expiresInSeconds } });
      expect([expiresInSeconds, bad.status, bad.body.code]).toStrictEqual([expiresInSeconds, 400, 'validation_failed']);
    }
  });
});

describe('DELETE /v1/api-keys/{id}', () => {
  it('revokes at once on every replica; a key may revoke itself', async () => {
    const target = acme.apiKeys.reader!;
    expect((await b.request('GET', '/v1/forms', { key: target.key })).status).toBe(200);
    const res = await a.request('DELETE', `/v1/api-keys/${target.id}`, { key: admin });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await b.request('GET', '/v1/forms', { key: target.key })).status).toBe(401);
    const self = await b.graphql(`mutation { revokeApiKey(id: ${acme.apiKeys.admin!.id}) }`, {}, admin);
    expect(self.body).toMatchObject({ data: { revokeApiKey: true } });
    expect((await a.request('GET', '/v1/api-keys', { key: admin })).status).toBe(401);
  });
});

describe('audit log', () => {
  it('records who, which key, what and when for every key action, never the key', async () => {
    const created = await a.request('POST', '/v1/api-keys', { key: admin, body: { scopes: ['read:forms'] } });
    const rolled = await a.graphql('mutation($id: Int!) { rollApiKey(id: $id, expiresInSeconds: 60) { id key } }', { id: created.body.id }, admin);
    await a.request('DELETE', `/v1/api-keys/${created.body.id}`, { key: admin });
    const adminId = acme.apiKeys.admin!.id;
    const rows = await audit();
    expect(rows.map(({ apiKeyId, action, resourceId, accountId }) => ({ apiKeyId, action, resourceId, accountId }))).toStrictEqual([
      { apiKeyId: adminId, action: 'api_key.created', resourceId: created.body.id, accountId: acme.id },
      { apiKeyId: adminId, action: 'api_key.rolled', resourceId: created.body.id, accountId: acme.id },
      { apiKeyId: adminId, action: 'api_key.created', resourceId: rolled.body.data.rollApiKey.id, accountId: acme.id },
      { apiKeyId: adminId, action: 'api_key.revoked', resourceId: created.body.id, accountId: acme.id },
    ]);
    for (const row of rows) expect(Math.abs(row.createdAt.getTime() - Date.now())).toBeLessThan(60_000);
    const text = JSON.stringify(rows);
    expect(text).not.toContain(created.body.key);
    expect(text).not.toContain(rolled.body.data.rollApiKey.key);
  });
});
