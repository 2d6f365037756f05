import type { Database } from '../../src/infra/db.js';
import {
  importFixture,
  type AccountFixture,
  type Fixture,
  type FormFixture,
  type ImportedAccount,
  type ImportOptions,
  type ImportResult,
  type SiteFixture,
} from '../../src/fixtures/fixture-import.js';
import { PhiCipher } from '../../src/infra/phi-crypto.js';
import { KeyHasher } from '../../src/infra/secrets.js';
import { SCOPES } from '../../src/scopes.js';

/** The SECRET_KEY of every test: an app under test must be built with it for seeded keys to authenticate. */
export const TEST_SECRET_KEY = Buffer.alloc(32, 7);
export const testHasher = new KeyHasher(TEST_SECRET_KEY);
export const testPhi = new PhiCipher(TEST_SECRET_KEY);

/** Every test builds its data through the one import path the CLI uses (contract §3). */
export function seed(db: Pick<Database, 'prisma'>, fixture: Fixture, options?: ImportOptions): Promise<ImportResult> {
  return importFixture(db.prisma, testHasher, fixture, { sealFormData: (formData) => testPhi.encrypt(formData), ...options });
}

export function formFixture(overrides: Partial<FormFixture> = {}): FormFixture {
  return {
    ref: 'contact',
    name: 'Contact',
    type: 'standard',
    fields: [
      { id: 'name', type: 'text', label: 'Name' },
      { id: 'email', type: 'email', label: 'Email' },
    ],
    ...overrides,
  };
}

/** A verified production site with one form. */
export function siteFixture(overrides: Partial<SiteFixture> = {}): SiteFixture {
  return {
    ref: 'main',
    domain: 'acme.example',
    environment: 'production',
    verified: true,
    method: 'dns_txt',
    forms: [formFixture()],
    ...overrides,
  };
}

/** A typical account: plan pro, one key with every scope (ref `full`), one verified site `main` with form `contact`. */
export function accountFixture(overrides: Partial<AccountFixture> = {}): AccountFixture {
  return {
    ref: 'acme',
    name: 'Acme',
    kind: 'organization',
    plan: 'pro',
    ownerEmail: 'owner@acme.example',
    apiKeys: [{ ref: 'full', scopes: [...SCOPES] }],
    sites: [siteFixture()],
    ...overrides,
  };
}

/** Seeds one account (the typical one unless overridden) and returns its part of the output map. */
export async function seedAccount(db: Pick<Database, 'prisma'>, overrides: Partial<AccountFixture> = {}): Promise<ImportedAccount> {
  const fixture = accountFixture(overrides);
  const result = await seed(db, { accounts: [fixture] });
  const account = result.accounts[fixture.ref];
  if (!account) throw new Error('seeded account missing from the output map');
  return account;
}
