import type { PrismaClient } from '../generated/prisma/client.js';
import { SCOPES } from '../scopes.js';
import { importFixture } from './fixtures.service.js';
import type { KeyHasher } from './secrets.service.js';

export const DEMO_HOSTNAME = 'demo.widgets.example';

/** "Empty" means no account at all: demo data is only ever added to a database nobody has used yet. */
export async function isDatabaseEmpty(prisma: PrismaClient): Promise<boolean> {
  return (await prisma.account.findFirst({ select: { id: true } })) === null;
}

export interface DemoData {
  accountId: number;
  /** Shown once at first start; only its hash is stored. */
  apiKey: string;
  siteKey: string;
  siteId: number;
  formId: number;
}

/** The first-start demo of decisions §1, written through the fixture import so it lands in one transaction. */
export async function createDemoData(prisma: PrismaClient, hasher: KeyHasher): Promise<DemoData> {
  const result = await importFixture(prisma, hasher, {
    accounts: [
      {
        ref: 'demo',
        name: 'Demo account',
        kind: 'organization',
        plan: 'pro',
        ownerEmail: `owner@${DEMO_HOSTNAME}`,
        apiKeys: [{ ref: 'demo', name: 'Demo key (all scopes)', scopes: [...SCOPES] }],
        sites: [
          {
            ref: 'demo',
            domain: DEMO_HOSTNAME,
            environment: 'production',
            verified: true,
            method: 'dns_txt',
            forms: [
              {
                ref: 'contact',
                name: 'Contact us',
                type: 'standard',
                fields: [
                  { id: 'name', type: 'text', label: 'Name', required: true },
                  { id: 'email', type: 'email', label: 'Email', required: true },
                  { id: 'message', type: 'textarea', label: 'Message' },
                ],
              },
            ],
          },
        ],
      },
    ],
  });
  const account = result.accounts.demo;
  const key = account?.apiKeys.demo;
  const site = account?.sites.demo;
  const form = account?.forms.contact;
  if (!account || !key || !site || !form) throw new Error('demo import returned an incomplete map');
  return { accountId: account.id, apiKey: key.key, siteKey: site.siteKey, siteId: site.id, formId: form.id };
}
