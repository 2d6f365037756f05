import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey } from '../../src/domain/accounts/api-keys.service.js';
import { rewrapPhi } from '../../src/domain/secrets/phi-rewrap.service.js';
import type { ImportedAccount } from '../../src/fixtures/fixture-import.js';
import { createKeyHasher } from '../../src/infra/keyring.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { formFixture, seedAccount, siteFixture, TEST_SECRET_KEY, testHasher } from '../support/seed.js';

/* SECRET_KEY rotation on the request path: A is the key everything was written under (the tests' own), B the new one. */
const A = TEST_SECRET_KEY;
const B = randomBytes(32);
const VALUES = { Name: 'Zelda Quixote', Email: 'zelda@example.com' };

let db: TestDatabase;
let account: ImportedAccount;
let submissionId: number;
let onlyB: TestApp;
let rotated: TestApp;

beforeAll(async () => {
  db = await createTestDatabase();
  account = await seedAccount(db, {
    sites: [siteFixture({ forms: [formFixture({ phi: true, submissions: [{ formData: VALUES }] })] })],
  });
  submissionId = account.forms.contact!.submissionIds[0]!;
  onlyB = await createTestApp({ db, secrets: { secretKey: B } });
  rotated = await createTestApp({ db, secrets: { secretKey: B, previousSecretKeys: [A] } });
});
afterAll(async () => {
  await onlyB?.close();
  await rotated?.close();
  await db?.close();
});

const keyHashOf = async (id: number): Promise<string> => (await db.prisma.apiKey.findUniqueOrThrow({ where: { id } })).keyHash;

describe('SECRET_KEY rotation: API keys and site keys', () => {
  it('an API key issued under A is refused under B alone', async () => {
    const res = await onlyB.request('GET', '/v1/forms', { key: account.apiKeys.full!.key });
    expect([res.status, res.body.code]).toStrictEqual([401, 'invalid_api_key']);
  });

  it('authenticates under B with A previous, is re-hashed to B, then authenticates under B alone', async () => {
    const { id, key } = account.apiKeys.full!;
    expect(await keyHashOf(id)).toBe(testHasher.hash(key));
    expect((await rotated.request('GET', '/v1/forms', { key })).status).toBe(200);
    expect(await keyHashOf(id)).toBe(createKeyHasher({ secretKey: B, previousSecretKeys: [] }).hash(key));
    expect((await onlyB.request('GET', '/v1/forms', { key })).status).toBe(200);
  });

  it('a site key issued under A works under B with A previous, then under B alone', async () => {
    const { id, siteKey } = account.sites.main!;
    const before = await db.prisma.site.findUniqueOrThrow({ where: { id } });
    expect((await onlyB.request('GET', '/v1/site-catalog', { siteKey })).status).toBe(404);
    expect((await rotated.request('GET', '/v1/site-catalog', { siteKey })).status).toBe(200);
    expect((await onlyB.request('GET', '/v1/site-catalog', { siteKey })).status).toBe(200);
    // Re-hashing is no change of the site: its updatedAt stays.
    const after = await db.prisma.site.findUniqueOrThrow({ where: { id } });
    expect(after.siteKeyHash).not.toBe(before.siteKeyHash);
    expect(after.updatedAt).toStrictEqual(before.updatedAt);
  });

  it('a current key costs the same statements with previous keys configured as without; an unknown one costs one more', async () => {
    const { key } = await issueApiKey(db.prisma, createKeyHasher({ secretKey: B, previousSecretKeys: [] }), {
      accountId: account.id, scopes: ['read:forms'], expiresAt: null, rateLimitPerHour: null, name: null,
    });
    const statements = async (app: TestApp, presented: string): Promise<string[]> => {
      await app.request('GET', '/v1/forms', { key: presented });
      db.resetQueryCount();
      await app.request('GET', '/v1/forms', { key: presented });
      return [...db.queries];
    };
    // Its lastUsedAt write (off the request's path, once a minute) must land before counting, not inside the count.
    await onlyB.useKeyOnce(key);
    const withoutPrevious = await statements(onlyB, key);
    const withPrevious = await statements(rotated, key);
    expect(withPrevious).toStrictEqual(withoutPrevious);
    expect(withPrevious.filter((sql) => /"ApiKey"/.test(sql))).toHaveLength(1);

    const unknown = `svc_live_${randomBytes(32).toString('base64url')}`;
    const missWithout = await statements(onlyB, unknown);
    const missWith = await statements(rotated, unknown);
    expect([missWithout.length, missWith.length]).toStrictEqual([1, 2]);
    // Malformed: no statement at all, rotation or not.
    expect(await statements(rotated, 'svc_live_short')).toStrictEqual([]);
  });
});

describe('SECRET_KEY rotation: PHI', () => {
  it('a PHI submission written under A reads under B with A previous', async () => {
    const res = await rotated.request('GET', `/v1/submissions/${submissionId}`, { key: account.apiKeys.full!.key });
    expect([res.status, res.body.formData]).toStrictEqual([200, VALUES]);
  });

  it('under B alone it is refused with a clear 503, not an internal error', async () => {
    const res = await onlyB.request('GET', `/v1/submissions/${submissionId}`, { key: account.apiKeys.full!.key });
    expect([res.status, res.body.code]).toStrictEqual([503, 'phi_key_unavailable']);
  });

  it('rewrap in batches of one moves it (and a second PHI row) to B, after which B alone reads both', async () => {
    const second = await seedAccount(db, {
      ref: 'other', apiKeys: [{ ref: 'full', scopes: ['read:submissions'] }],
      sites: [siteFixture({ domain: 'other.example', forms: [formFixture({ phi: true, submissions: [{ formData: VALUES }] })] })],
    });
    expect(await rewrapPhi(db, rotated.deps.phi, 1)).toStrictEqual({ rewrapped: 2, remaining: 0 });
    expect(await rewrapPhi(db, rotated.deps.phi, 1)).toStrictEqual({ rewrapped: 0, remaining: 0 });
    const read = await onlyB.request('GET', `/v1/submissions/${submissionId}`, { key: account.apiKeys.full!.key });
    expect([read.status, read.body.formData]).toStrictEqual([200, VALUES]);
    const other = second.forms.contact!.submissionIds[0]!;
    const rows = await db.prisma.submission.findMany({ where: { id: { in: [submissionId, other] } }, select: { formDataKeyId: true } });
    expect(rows.map((row) => row.formDataKeyId)).toStrictEqual([onlyB.deps.phi.keyId, onlyB.deps.phi.keyId]);
  });
});
