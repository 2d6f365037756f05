import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ImportedAccount } from '../../src/fixtures/fixture-import.js';
import { rawStatement, sql } from '../../src/infra/sql.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { seedAccount } from '../support/seed.js';

/*
 * The gate (key and site-key authentication, and a key's bookkeeping writes) and the hot routes run on the driver
 * alone. Prisma's first query instantiates its query compiler: ~14 MB of WebAssembly, code and base64 text that a
 * gateway serving only these routes never needs (measured with `npm run bench`: gateway peak RSS). A process that
 * touched Prisma here would fail the Proxy below.
 */

let t: TestApp;
let account: ImportedAccount;
let orderId: number;
const touched: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  account = await seedAccount(t.db, {
    sites: [
      {
        ref: 'main', domain: 'acme.example', environment: 'production', verified: true, method: 'dns_txt',
        forms: [{ ref: 'contact', name: 'Contact', type: 'standard', fields: [{ id: 'name', type: 'text', label: 'Name' }], submissions: [{ formData: { name: 'A' } }] }],
        ecommerceWidgets: [{ ref: 'shop', name: 'Shop', type: 'one_time', productName: 'P', currency: 'usd', fulfilmentType: 'digital', orders: [{ customerEmail: 'o@example.com', amountCents: 100, currency: 'usd', status: 'paid' }] }],
      },
    ],
  });
  [{ id: orderId }] = (await t.db.sql(rawStatement<{ id: number }>(sql`SELECT id FROM "Order"`))) as [{ id: number }];
  const prisma = t.db.prisma;
  t.db.prisma = new Proxy(prisma, {
    get(target, property, receiver) {
      touched.push(String(property));
      return Reflect.get(target, property, receiver);
    },
  });
});
afterAll(async () => t?.close());
beforeEach(() => {
  touched.length = 0;
});

describe('the gate and the hot routes run on the driver, never on Prisma', () => {
  it('serves the bench routes with a key used for the first time (its lastUsedAt write included)', async () => {
    const key = account.apiKeys.full!.key;
    const formId = account.forms.contact!.id;
    const responses = [
      await t.request('GET', '/v1/forms?limit=100', { key }),
      await t.request('GET', `/v1/forms/${formId}/submissions?limit=100`, { key }),
      await t.request('GET', `/v1/orders/${orderId}`, { key }),
      await t.request('POST', `/v1/forms/${formId}/submissions`, { key, body: { formData: { name: 'B' } } }),
      await t.graphql('{ forms(limit: 100) { data { id name submissionCount latestSubmissions(limit: 5) { id createdAt } } } }', {}, key),
    ];
    expect(responses.map((response) => response.status)).toStrictEqual([200, 200, 200, 201, 200]);
    expect(responses[4]!.body.errors).toBeUndefined();
    // The bookkeeping write is off the request's path: wait until it is in the table.
    await expect
      .poll(async () => (await t.db.sql(rawStatement<{ used: boolean }>(sql`SELECT "lastUsedAt" IS NOT NULL AS used FROM "ApiKey"`)))[0]?.used)
      .toBe(true);
    expect(touched).toStrictEqual([]);
  });

  it('authenticates a site key without Prisma', async () => {
    const response = await t.request('GET', '/v1/site-catalog', { siteKey: account.sites.main!.siteKey });
    expect(response.status).toBe(200);
    expect(touched).toStrictEqual([]);
  });
});
