import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { ImportedAccount } from '../../src/fixtures/fixture-import.js';
import { createKeyHasher } from '../../src/infra/keyring.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { seedAccount, siteFixture, TEST_SECRET_KEY } from '../support/seed.js';

/*
 * The gate reads keys through the driver, and writes them the same way: a key's lastUsedAt and the re-hash of a key
 * issued under a previous SECRET_KEY. Prisma builds its query compiler (WebAssembly, ~15-20 MB of RSS) at its first
 * query, so a gateway serving only the hot paths never pays for it (docs/operator-guide.md, Memory).
 */
const B = randomBytes(32);
let db: TestDatabase;
let account: ImportedAccount;
let rotated: TestApp;

beforeAll(async () => {
  db = await createTestDatabase();
  account = await seedAccount(db, { sites: [siteFixture()] });
  rotated = await createTestApp({ db, secrets: { secretKey: B, previousSecretKeys: [TEST_SECRET_KEY] } });
});
afterAll(async () => {
  await rotated?.close();
  await db?.close();
});

it("a key's first use and the re-hash of an API key and a site key are written without asking Prisma", async () => {
  const { id, key } = account.apiKeys.full!;
  const { id: siteId, siteKey } = account.sites.main!;
  const prisma = db.prisma;
  const asked: string[] = [];
  db.prisma = new Proxy(prisma, { get: (target, property, receiver) => (asked.push(String(property)), Reflect.get(target, property, receiver)) });
  try {
    expect((await rotated.request('GET', '/v1/forms', { key })).status).toBe(200);
    expect((await rotated.request('GET', '/v1/site-catalog', { siteKey })).status).toBe(200);
    await vi.waitFor(async () => expect((await prisma.apiKey.findUniqueOrThrow({ where: { id } })).lastUsedAt).not.toBeNull());
  } finally {
    db.prisma = prisma;
  }
  expect(asked).toStrictEqual([]);
  const underB = createKeyHasher({ secretKey: B, previousSecretKeys: [] });
  expect((await prisma.apiKey.findUniqueOrThrow({ where: { id } })).keyHash).toBe(underB.hash(key));
  expect((await prisma.site.findUniqueOrThrow({ where: { id: siteId } })).siteKeyHash).toBe(underB.hash(siteKey));
});
