import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../src/errors.js';
import { importFixture, type Fixture } from '../src/fixtures/fixture-import.js';
import { createDemoData, isDatabaseEmpty } from '../src/fixtures/demo.service.js';
import { READ_SCOPES, SCOPES } from '../src/scopes.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { accountFixture, formFixture, seed, seedAccount, siteFixture, testHasher } from './support/seed.js';

const example = JSON.parse(readFileSync(new URL('./fixtures/section3-example.json', import.meta.url), 'utf8')) as Fixture;
const d = (iso: string): Date => new Date(iso);

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.close();
});
beforeEach(async () => {
  await db.truncate();
});

async function validationFields(fixture: unknown): Promise<unknown> {
  const error = await importFixture(db.prisma, testHasher, fixture).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe('validation_failed');
  return (error as AppError).context.fields;
}

describe('import of the contract §3 example', () => {
  it('returns the output map with every ref and the ids in fixture order', async () => {
    const result = await seed(db, example);
    expect(result).toStrictEqual({
      accounts: {
        acme: {
          id: 1,
          apiKeys: { full: { id: 1, key: expect.stringMatching(/^svc_live_[A-Za-z0-9_-]{43}$/) } },
          sites: {
            main: {
              id: 1,
              siteKey: expect.stringMatching(/^svc_site_[A-Za-z0-9_-]{43}$/),
              verificationToken: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
            },
          },
          forms: { contact: { id: 1, submissionIds: [1] }, old: { id: 2, submissionIds: [] } },
          calendarWidgets: { demo: { id: 1, bookingIds: [1] } },
          ecommerceWidgets: { tee: { id: 1, orderIds: [1] } },
          collections: { store: { id: 1, orderIds: [2] } },
        },
      },
    });
  });

  it('stores every field, the hidden ones included, and sets the counters to the imported children', async () => {
    const before = new Date();
    const result = await seed(db, example);
    const after = new Date();
    const acme = result.accounts.acme!;
    const p = db.prisma;

    const [account] = await p.account.findMany();
    expect(account).toStrictEqual({
      id: acme.id,
      name: 'Acme',
      kind: 'organization',
      plan: 'pro',
      ownerEmail: 'owner@acme.example',
      webhookSigningSecret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      createdAt: expect.any(Date),
      updatedAt: account!.createdAt,
    });
    // Without createdAt an object is stamped with the import time.
    expect(account!.createdAt.getTime()).toBeGreaterThanOrEqual(before.getTime());
    expect(account!.createdAt.getTime()).toBeLessThanOrEqual(after.getTime());
    const importedAt = account!.createdAt;

    expect(await p.apiKey.findMany()).toStrictEqual([
      {
        id: acme.apiKeys.full!.id,
        accountId: acme.id,
        name: null,
        keyHash: testHasher.hash(acme.apiKeys.full!.key),
        lastFour: acme.apiKeys.full!.key.slice(-4),
        scopes: ['read:forms', 'write:forms'],
        expiresAt: null,
        revokedAt: null,
        rateLimitPerHour: 100,
        lastUsedAt: null,
        createdAt: importedAt,
      },
    ]);

    expect(await p.site.findMany()).toStrictEqual([
      {
        id: acme.sites.main!.id,
        accountId: acme.id,
        hostname: 'acme.example',
        environment: 'production',
        archivedAt: null,
        siteKeyHash: testHasher.hash(acme.sites.main!.siteKey),
        verificationToken: acme.sites.main!.verificationToken,
        verified: true,
        method: 'dns_txt',
        verifiedAt: d('2026-01-01T00:00:00.000Z'),
        lastCheckedAt: null,
        failedChecks: 0,
        demo: false,
        createdAt: importedAt,
        updatedAt: importedAt,
      },
    ]);

    expect(await p.form.findMany({ orderBy: { id: 'asc' } })).toStrictEqual([
      {
        id: acme.forms.contact!.id,
        accountId: acme.id,
        siteId: acme.sites.main!.id,
        name: 'Contact',
        type: 'standard',
        fields: [{ id: 'name', type: 'text', label: 'Name' }],
        webhookUrl: 'https://hidden-form-hook.example/h/SECRET-FORM-HOOK-7c1e',
        phi: false,
        archivedAt: null,
        submissionCount: 1,
        version: 1,
        createdAt: d('2026-01-02T09:00:00.000Z'),
        updatedAt: d('2026-01-02T09:00:00.000Z'),
      },
      {
        id: acme.forms.old!.id,
        accountId: acme.id,
        siteId: null,
        name: 'Old form',
        type: 'standard',
        fields: [],
        webhookUrl: null,
        phi: false,
        archivedAt: null,
        submissionCount: 0,
        version: 1,
        createdAt: importedAt,
        updatedAt: importedAt,
      },
    ]);

    expect(await p.submission.findMany()).toStrictEqual([
      {
        id: acme.forms.contact!.submissionIds[0],
        accountId: acme.id,
        formId: acme.forms.contact!.id,
        formData: { Name: 'Ada' },
        formDataCiphertext: null,
        formDataKeyId: null,
        sourceDomain: 'acme.example',
        createdAt: d('2026-01-03T10:00:00.000Z'),
      },
    ]);

    expect(await p.calendarWidget.findMany()).toStrictEqual([
      {
        id: acme.calendarWidgets.demo!.id,
        accountId: acme.id,
        siteId: acme.sites.main!.id,
        name: 'Demo call',
        settings: { durationMinutes: 30, webhookUrl: 'https://hidden.example/hook/SECRET-CAL-HOOK-2b9d' },
        appearance: {},
        behavior: {},
        archivedAt: null,
        bookingCount: 1,
        createdAt: d('2026-01-04T09:00:00.000Z'),
        updatedAt: d('2026-01-04T09:00:00.000Z'),
      },
    ]);

    expect(await p.booking.findMany()).toStrictEqual([
      {
        id: acme.calendarWidgets.demo!.bookingIds[0],
        accountId: acme.id,
        calendarWidgetId: acme.calendarWidgets.demo!.id,
        inviteeName: 'Ada',
        inviteeEmail: 'ada@example.com',
        slotIso: '2026-02-01T10:00:00.000Z',
        slotDisplay: 'Sun 1 Feb, 10:00',
        inviteeTimezone: 'Europe/London',
        status: 'scheduled',
        customFields: {},
        videoCallUrl: 'https://meet.example/x',
        cancellationToken: 'HIDDEN-CANCEL-TOKEN-91f3',
        providerEventId: 'HIDDEN-PROVIDER-EVENT-5d20',
        assignedHost: 'HIDDEN-ASSIGNED-HOST-e7a4',
        createdAt: d('2026-01-05T09:00:00.000Z'),
      },
    ]);

    expect(await p.ecommerceWidget.findMany()).toStrictEqual([
      {
        id: acme.ecommerceWidgets.tee!.id,
        accountId: acme.id,
        siteId: acme.sites.main!.id,
        name: 'Tee',
        type: 'one_time',
        productName: 'T-shirt',
        description: '',
        priceCents: 2500,
        currency: 'usd',
        fulfilmentType: 'physical',
        imageUrl: 'https://cdn.acme.example/tee.png',
        imageUrls: [],
        interval: null,
        trialDays: null,
        providerPriceId: 'HIDDEN-PRICE-ID-0c6b',
        downloadUrl: 'https://hidden-download.example/SECRET-DOWNLOAD-URL-3a8f',
        archivedAt: null,
        // The collection's order is not the widget's.
        orderCount: 1,
        createdAt: d('2026-01-06T09:00:00.000Z'),
        updatedAt: d('2026-01-06T09:00:00.000Z'),
      },
    ]);

    expect(await p.collection.findMany()).toStrictEqual([
      {
        id: acme.collections.store!.id,
        accountId: acme.id,
        siteId: acme.sites.main!.id,
        name: 'Store',
        createdAt: importedAt,
        updatedAt: importedAt,
      },
    ]);

    expect(await p.order.findMany({ orderBy: { id: 'asc' } })).toStrictEqual([
      {
        id: acme.ecommerceWidgets.tee!.orderIds[0],
        accountId: acme.id,
        ecommerceWidgetId: acme.ecommerceWidgets.tee!.id,
        collectionId: null,
        customerName: 'Ada',
        customerEmail: 'ada@example.com',
        customerPhone: null,
        amountCents: 2500,
        currency: 'usd',
        status: 'paid',
        shippingAddress: null,
        trackingNumber: null,
        trackingCarrier: null,
        shippedAt: null,
        providerPaymentId: 'HIDDEN-PAYMENT-ID-8e15',
        downloadToken: 'HIDDEN-DOWNLOAD-TOKEN-b472',
        createdAt: d('2026-01-07T09:00:00.000Z'),
      },
      {
        id: acme.collections.store!.orderIds[0],
        accountId: acme.id,
        ecommerceWidgetId: null,
        collectionId: acme.collections.store!.id,
        customerName: 'Grace',
        customerEmail: 'grace@example.com',
        customerPhone: '+44 20 7946 0000',
        amountCents: 4200,
        currency: 'gbp',
        status: 'shipped',
        shippingAddress: { name: 'Grace', line1: '1 High St', line2: null, city: 'London', state: null, postalCode: 'N1 1AA', country: 'GB' },
        trackingNumber: 'TRK123',
        trackingCarrier: 'Royal Mail',
        shippedAt: d('2026-01-09T12:00:00.000Z'),
        providerPaymentId: 'HIDDEN-PAYMENT-ID-COLLECTION-66d1',
        downloadToken: 'HIDDEN-DOWNLOAD-TOKEN-COLLECTION-19ac',
        createdAt: d('2026-01-08T09:00:00.000Z'),
      },
    ]);
  });

  it('costs a fixed number of statements however many rows it writes', async () => {
    const many = (n: number): Fixture => ({
      accounts: [
        accountFixture({
          sites: [siteFixture({ forms: [formFixture({ submissions: Array.from({ length: n }, (_, i) => ({ formData: { n: i } })) })] })],
        }),
      ],
    });
    db.resetQueryCount();
    await seed(db, many(1));
    const small = db.queries.length;
    await db.truncate();
    db.resetQueryCount();
    await seed(db, many(300));
    expect(db.queries.length).toBe(small);
  });
});

describe('import of other shapes', () => {
  it('maps ids back in fixture order across several accounts and children', async () => {
    const result = await seed(db, {
      accounts: [
        accountFixture({
          ref: 'one',
          sites: [
            siteFixture({
              forms: [
                formFixture({ ref: 'a', submissions: [{ formData: { v: 'a1' } }, { formData: { v: 'a2' } }] }),
                formFixture({ ref: 'b', submissions: [{ formData: { v: 'b1' } }] }),
              ],
            }),
          ],
          legacyForms: [formFixture({ ref: 'legacy', submissions: [{ formData: { v: 'l1' } }] })],
        }),
        accountFixture({ ref: 'two', apiKeys: [{ ref: 'ro' }], sites: [siteFixture({ ref: 'x', domain: 'two.example', forms: [formFixture({ ref: 'a' })] })] }),
      ],
    });
    const one = result.accounts.one!;
    const two = result.accounts.two!;
    expect(one.id).not.toBe(two.id);
    for (const [ref, values] of [
      ['a', ['a1', 'a2']],
      ['b', ['b1']],
      ['legacy', ['l1']],
    ] as const) {
      const form = one.forms[ref]!;
      const rows = await db.prisma.submission.findMany({ where: { id: { in: form.submissionIds } }, orderBy: { id: 'asc' } });
      expect(rows.map((row) => [row.id, row.formId, row.accountId, row.formData])).toStrictEqual(
        values.map((v, i) => [form.submissionIds[i], form.id, one.id, { v }]),
      );
    }
    const legacy = await db.prisma.form.findUniqueOrThrow({ where: { id: one.forms.legacy!.id } });
    expect([legacy.siteId, legacy.submissionCount]).toStrictEqual([null, 1]);
    const roKey = await db.prisma.apiKey.findUniqueOrThrow({ where: { id: two.apiKeys.ro!.id } });
    expect([roKey.accountId, roKey.scopes]).toStrictEqual([two.id, READ_SCOPES]);
    const twoForm = await db.prisma.form.findUniqueOrThrow({ where: { id: two.forms.a!.id } });
    expect([twoForm.accountId, twoForm.siteId]).toStrictEqual([two.id, two.sites.x!.id]);
  });

  it('stores revoked keys, archived sites, forms and widgets, and defaults updatedAt to createdAt', async () => {
    const result = await seed(db, {
      accounts: [
        accountFixture({
          createdAt: '2025-05-01T00:00:00.000Z',
          apiKeys: [{ ref: 'old', revoked: true, expiresAt: '2030-01-01T00:00:00Z', name: 'ci', lastUsedAt: '2025-06-01T00:00:00Z' }],
          sites: [
            siteFixture({
              archived: true,
              verified: false,
              method: 'wp_plugin',
              lastCheckedAt: '2025-07-01T00:00:00.000Z',
              failedChecks: 2,
              verificationToken: 'TOKEN-fixed-for-verify-tests-032',
              updatedAt: '2025-08-01T00:00:00.000Z',
              forms: [formFixture({ archived: true, type: 'multi-step', phi: true, createdAt: new Date('2025-05-02T00:00:00Z') })],
              calendarWidgets: [{ ref: 'cal', name: 'Cal', archived: true }],
              ecommerceWidgets: [
                {
                  ref: 'sub',
                  name: 'Sub',
                  type: 'subscription',
                  productName: 'Club',
                  currency: 'eur',
                  fulfilmentType: 'service',
                  interval: 'month',
                  trialDays: 14,
                  imageUrls: ['https://cdn.example/a.png', 'https://cdn.example/b.png'],
                },
              ],
            }),
          ],
        }),
      ],
    });
    const acme = result.accounts.acme!;
    expect(acme.sites.main!.verificationToken).toBe('TOKEN-fixed-for-verify-tests-032');
    const account = await db.prisma.account.findFirstOrThrow();
    expect([account.createdAt, account.updatedAt]).toStrictEqual([d('2025-05-01T00:00:00.000Z'), d('2025-05-01T00:00:00.000Z')]);
    const key = await db.prisma.apiKey.findFirstOrThrow();
    expect(key.revokedAt).toBeInstanceOf(Date);
    expect([key.name, key.expiresAt, key.lastUsedAt]).toStrictEqual(['ci', d('2030-01-01T00:00:00Z'), d('2025-06-01T00:00:00Z')]);
    const site = await db.prisma.site.findFirstOrThrow();
    expect([site.archivedAt, site.verified, site.method, site.verifiedAt, site.lastCheckedAt, site.failedChecks]).toStrictEqual([
      d('2025-08-01T00:00:00.000Z'),
      false,
      'wp_plugin',
      null,
      d('2025-07-01T00:00:00.000Z'),
      2,
    ]);
    const form = await db.prisma.form.findFirstOrThrow();
    expect([form.type, form.phi, form.archivedAt, form.createdAt, form.updatedAt]).toStrictEqual([
      'multi_step',
      true,
      d('2025-05-02T00:00:00Z'),
      d('2025-05-02T00:00:00Z'),
      d('2025-05-02T00:00:00Z'),
    ]);
    expect((await db.prisma.calendarWidget.findFirstOrThrow()).archivedAt).toBeInstanceOf(Date);
    const shop = await db.prisma.ecommerceWidget.findFirstOrThrow();
    expect([shop.interval, shop.trialDays, shop.imageUrls, shop.description, shop.priceCents, shop.orderCount]).toStrictEqual([
      'month',
      14,
      ['https://cdn.example/a.png', 'https://cdn.example/b.png'],
      null,
      null,
      0,
    ]);
  });

  it('seals PHI submissions with the given encrypter and keeps no plain formData', async () => {
    const result = await seed(
      db,
      { accounts: [accountFixture({ sites: [siteFixture({ forms: [formFixture({ phi: true, submissions: [{ formData: { Name: 'Ada' } }] })] })] })] },
      { sealFormData: (data) => ({ ciphertext: new Uint8Array(Buffer.from(`sealed:${JSON.stringify(data)}`)), keyId: 'k1' }) },
    );
    const row = await db.prisma.submission.findUniqueOrThrow({ where: { id: result.accounts.acme!.forms.contact!.submissionIds[0]! } });
    expect([row.formData, row.formDataKeyId, Buffer.from(row.formDataCiphertext!).toString()]).toStrictEqual([
      null,
      'k1',
      'sealed:{"Name":"Ada"}',
    ]);
  });

  it('writes nothing when any row fails: the import is one transaction', async () => {
    const fixture = JSON.parse(JSON.stringify(example)) as { accounts: [{ sites: [{ collections: [{ orders: [{ trackingNumber: string }] }] }] }] };
    // PostgreSQL refuses NUL in text, and the orders are the last statement of the import.
    fixture.accounts[0].sites[0].collections[0].orders[0].trackingNumber = 'bad\u0000value';
    await expect(importFixture(db.prisma, testHasher, fixture)).rejects.toThrow();
    for (const count of await Promise.all([db.prisma.account.count(), db.prisma.form.count(), db.prisma.submission.count(), db.prisma.booking.count()])) {
      expect(count).toBe(0);
    }
  });

  it('builds the typical account through seedAccount', async () => {
    const acme = await seedAccount(db, { plan: 'starter' });
    const key = await db.prisma.apiKey.findUniqueOrThrow({ where: { id: acme.apiKeys.full!.id } });
    expect(key.scopes).toStrictEqual([...SCOPES]);
    expect((await db.prisma.account.findUniqueOrThrow({ where: { id: acme.id } })).plan).toBe('starter');
    expect(Object.keys(acme.forms)).toStrictEqual(['contact']);
  });
});

describe('import of bad fixtures', () => {
  it('refuses a fixture that is not an object', async () => {
    expect(await validationFields([1, 2])).toStrictEqual([{ field: 'fixture', message: expect.any(String) }]);
  });

  it('names each bad field by its path', async () => {
    const fields = await validationFields({
      accounts: [
        {
          ref: 'a',
          name: '',
          kind: 'company',
          plan: 'pro',
          apiKeys: [{ ref: 'k', scopes: ['admin:all'] }],
          sites: [{ ref: 's', domain: 'not a host', verifiedAt: 'yesterday', forms: [{ ref: 'f', name: 'F', colour: 'red' }] }],
        },
      ],
    });
    expect(fields).toStrictEqual(
      expect.arrayContaining([
        { field: 'accounts[0].name', message: expect.any(String) },
        { field: 'accounts[0].kind', message: expect.any(String) },
        { field: 'accounts[0].apiKeys[0].scopes[0]', message: expect.any(String) },
        { field: 'accounts[0].sites[0].domain', message: 'must be a hostname such as example.com' },
        { field: 'accounts[0].sites[0].verifiedAt', message: expect.any(String) },
        { field: 'accounts[0].sites[0].forms[0]', message: expect.stringContaining('colour') },
      ]),
    );
    expect(fields).toHaveLength(6);
  });

  it('refuses JSON values that could not be stored as written, naming their field, and writes nothing', async () => {
    // An unpaired surrogate failed jsonb at the write (one transaction: nothing written, but a database error instead
    // of the field); Infinity (a 1e400 in the file) is refused by the JSON schema itself.
    const form = formFixture({
      fields: [{ id: 'name', type: 'text', label: 'Name \ud800' }],
      submissions: [{ formData: { Age: Infinity } }, { formData: { Name: 'Ada' } }, { formData: { ['\udc00']: 'x' } }],
    });
    const fields = await validationFields({ accounts: [accountFixture({ sites: [siteFixture({ forms: [form] })] })] });
    expect(fields).toStrictEqual([
      { field: 'accounts[0].sites[0].forms[0].fields[0].label', message: 'must not contain unpaired surrogates (\\uD800-\\uDFFF without their pair)' },
      { field: 'accounts[0].sites[0].forms[0].submissions[0].formData.Age', message: expect.any(String) },
      { field: 'accounts[0].sites[0].forms[0].submissions[2].formData.\udc00', message: 'must not contain unpaired surrogates (\\uD800-\\uDFFF without their pair)' },
    ]);
    expect(await db.prisma.submission.count()).toBe(0);
  });

  it('refuses duplicate refs, a legacy form sharing a site form ref included', async () => {
    const fields = await validationFields({
      accounts: [
        accountFixture({ legacyForms: [formFixture({ ref: 'contact' })] }),
        accountFixture({ sites: [siteFixture(), siteFixture()] }),
      ],
    });
    expect(fields).toStrictEqual([
      { field: 'accounts[1].ref', message: 'duplicate ref "acme"' },
      { field: 'accounts[0].legacyForms[0].ref', message: 'duplicate ref "contact"' },
      { field: 'accounts[1].sites[1].ref', message: 'duplicate ref "main"' },
      { field: 'accounts[1].sites[1].forms[0].ref', message: 'duplicate ref "contact"' },
    ]);
    expect(await db.prisma.account.count()).toBe(0);
  });

  it('lets the same ref name a form and a widget of one account, and two accounts reuse refs', async () => {
    const result = await seed(db, {
      accounts: [
        accountFixture({ sites: [siteFixture({ calendarWidgets: [{ ref: 'contact', name: 'Call' }] })] }),
        accountFixture({ ref: 'other' }),
      ],
    });
    expect(result.accounts.acme!.calendarWidgets.contact!.id).toBe(1);
    expect(result.accounts.other!.forms.contact!.id).toBe(2);
  });
});

describe('demo data', () => {
  it('creates a pro account, a verified production demo site with forms and widgets, and an all-scope key on an empty database', async () => {
    expect(await isDatabaseEmpty(db.prisma)).toBe(true);
    const demo = await createDemoData(db.prisma, testHasher);
    expect(await isDatabaseEmpty(db.prisma)).toBe(false);
    expect(demo).toStrictEqual({
      accountId: 1,
      apiKey: expect.stringMatching(/^svc_live_/),
      siteKey: expect.stringMatching(/^svc_site_/),
      siteId: 1,
      formId: 1,
    });
    const account = await db.prisma.account.findUniqueOrThrow({ where: { id: demo.accountId } });
    expect(account.plan).toBe('pro');
    const site = await db.prisma.site.findUniqueOrThrow({ where: { id: demo.siteId } });
    expect([site.hostname, site.environment, site.verified, site.method, site.demo, site.siteKeyHash]).toStrictEqual([
      'demo.widgets.example',
      'production',
      true,
      'dns_txt',
      true,
      testHasher.hash(demo.siteKey),
    ]);
    expect(site.verifiedAt).toBeInstanceOf(Date);
    const key = await db.prisma.apiKey.findFirstOrThrow({ where: { accountId: demo.accountId } });
    expect([key.keyHash, key.scopes]).toStrictEqual([testHasher.hash(demo.apiKey), [...SCOPES]]);
    const form = await db.prisma.form.findUniqueOrThrow({ where: { id: demo.formId } });
    expect([form.name, form.siteId, (form.fields as unknown[]).length]).toStrictEqual(['Contact us', demo.siteId, 4]);
    // Counters match the rows, as an ingest would have left them.
    const forms = await db.prisma.form.findMany({ orderBy: { id: 'asc' }, select: { submissionCount: true, _count: { select: { submissions: true } } } });
    expect(forms.map((f) => [f.submissionCount, f._count.submissions])).toStrictEqual([[18, 18], [12, 12], [9, 9]]);
    expect(await db.prisma.booking.count()).toBe(12);
    expect(await db.prisma.order.count({ where: { collectionId: null } })).toBe(10);
    expect(await db.prisma.order.count({ where: { collectionId: { not: null } } })).toBe(6);
  });
});
