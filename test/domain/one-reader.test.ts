import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_COLUMNS, getFormWithSiteOrThrow, listForms } from '../../src/domain/forms/forms.service.js';
import { getSubmissionOrThrow, listFormSubmissions } from '../../src/domain/submissions/submissions.service.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { accountFixture, formFixture, seed, siteFixture } from '../support/seed.js';

/**
 * Forms and submissions have one reader each (src/domain/README.md): a get answers the row its list answers, field
 * for field, through the same mapper, and both answer what Prisma's client reads for that row (the shape the rest of
 * the service was written against), except a form's write-only `webhookUrl`, which no read carries, and its site,
 * which a form carries as v1 names it (`domain: { id, domain }`, src/domain/verification/site-domain.ts).
 */

let db: TestDatabase;
let accountId: number;
let otherAccountId: number;
let formIds: { withDomain: number; legacy: number; phi: number; archived: number };

beforeAll(async () => {
  db = await createTestDatabase();
  await db.truncate();
  const result = await seed(db, {
    accounts: [
      accountFixture({
        plan: 'business',
        sites: [
          siteFixture({
            forms: [
              formFixture({
                ref: 'withDomain',
                name: 'With domain',
                type: 'multi-step',
                fields: [{ id: 'q', type: 'select', label: 'Q', required: true, options: ['a', 'b'] }],
                webhookUrl: 'https://hooks.example.com/forms',
                submissions: [{ formData: { n: 1, nested: { a: [1, 'x'] } }, sourceDomain: 'shop.example.com' }, { formData: { n: 2 } }],
              }),
              formFixture({ ref: 'phi', name: 'Sealed', phi: true, submissions: [{ formData: { secret: 'yes' } }] }),
              formFixture({ ref: 'archived', name: 'Archived', archived: true }),
            ],
          }),
        ],
        legacyForms: [formFixture({ ref: 'legacy', name: 'No domain' })],
      }),
      accountFixture({ ref: 'other', ownerEmail: 'other@example.com' }),
    ],
  });
  const acme = result.accounts.acme!;
  accountId = acme.id;
  otherAccountId = result.accounts.other!.id;
  formIds = { withDomain: acme.forms.withDomain!.id, legacy: acme.forms.legacy!.id, phi: acme.forms.phi!.id, archived: acme.forms.archived!.id };
});
afterAll(async () => db.close());

describe('one reader per hot resource', () => {
  it('a form: get = its list entry = what Prisma reads, with or without a domain', async () => {
    const page = await listForms(db, accountId, { page: 1, limit: 100, columns: FORM_COLUMNS });
    expect(page.data.map((form) => form.id).sort()).toStrictEqual([formIds.withDomain, formIds.legacy, formIds.phi].sort());
    for (const listed of page.data) {
      const got = await getFormWithSiteOrThrow(db, accountId, listed.id);
      expect(got).toEqual(listed);
      expect(Object.keys(got).sort()).toStrictEqual(Object.keys(listed).sort());
      const prisma = await db.prisma.form.findFirstOrThrow({ where: { id: listed.id }, include: { site: { select: { id: true, hostname: true } } } });
      expect(got.webhookUrl).toBeNull();
      const { site, ...columns } = prisma;
      expect({ ...got, webhookUrl: prisma.webhookUrl }).toEqual({ ...columns, domain: site && { id: site.id, domain: site.hostname } });
      expect(Object.keys(got).sort()).toStrictEqual([...Object.keys(columns), 'domain'].sort());
    }
    expect((await getFormWithSiteOrThrow(db, accountId, formIds.legacy)).domain).toBeNull();
  });

  it('an archived form, another account\'s form and an absent id are not found', async () => {
    for (const [account, id] of [
      [accountId, formIds.archived],
      [otherAccountId, formIds.withDomain],
      [accountId, 2_000_000_000],
    ] as const) {
      await expect(getFormWithSiteOrThrow(db, account, id)).rejects.toMatchObject({ code: 'not_found' });
    }
  });

  it('a submission: get = its list entry = what Prisma reads, plain and sealed', async () => {
    const reader = { accountId, apiKeyId: null };
    for (const formId of [formIds.withDomain, formIds.phi]) {
      const page = await listFormSubmissions(db, reader, formId, { page: 1, limit: 100, after: null, createdFrom: null, createdBefore: null });
      expect(page.data.length).toBeGreaterThan(0);
      for (const listed of page.data) {
        const got = await getSubmissionOrThrow(db, reader, listed.id);
        expect(got).toEqual(listed);
        expect(Object.keys(got).sort()).toStrictEqual(Object.keys(listed).sort());
        const prisma = await db.prisma.submission.findUniqueOrThrow({ where: { id: listed.id } });
        // bytea: pg answers a Buffer, Prisma a Uint8Array; the bytes are what must match.
        const bytes = (value: Uint8Array | null) => (value === null ? null : [...value]);
        expect(bytes(got.formDataCiphertext)).toStrictEqual(bytes(prisma.formDataCiphertext));
        expect({ ...got, formDataCiphertext: null }).toEqual({ ...prisma, formDataCiphertext: null });
        expect(Object.keys(got).sort()).toStrictEqual(Object.keys(prisma).sort());
      }
    }
    const sealed = (await listFormSubmissions(db, reader, formIds.phi, { page: 1, limit: 1, after: null, createdFrom: null, createdBefore: null })).data[0]!;
    expect(sealed.formData).toBeNull();
    expect(sealed.formDataCiphertext).not.toBeNull();
    const [anyId] = (await listFormSubmissions(db, reader, formIds.withDomain, { page: 1, limit: 1, after: null, createdFrom: null, createdBefore: null })).data.map((s) => s.id);
    await expect(getSubmissionOrThrow(db, { accountId: otherAccountId, apiKeyId: null }, anyId!)).rejects.toMatchObject({ code: 'not_found' });
  });
});
