import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportedAccount } from '../../src/fixtures/fixture-import.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { seed } from '../support/seed.js';
import { at, widgetsAccount, widgetsSite } from './fixture.js';

let t: TestApp;
let acme: ImportedAccount;
let siteKey: string;

beforeAll(async () => {
  t = await createTestApp();
  const result = await seed(t.db, {
    accounts: [
      widgetsAccount({
        sites: [
          widgetsSite({
            forms: [
              { ref: 'contact', name: 'Contact', type: 'standard', fields: [], createdAt: at(1) },
              { ref: 'wizard', name: 'Wizard', type: 'multi-step', fields: [], createdAt: at(7), updatedAt: at(8) },
              { ref: 'shelved', name: 'Shelved', fields: [], archived: true, createdAt: at(9) },
            ],
          }),
          { ref: 'second', domain: 'second.example', verified: true, calendarWidgets: [{ ref: 'elsewhere', name: 'Elsewhere', createdAt: at(6) }] },
        ],
        legacyForms: [{ ref: 'legacy', name: 'Legacy', fields: [], createdAt: at(9) }],
      }),
    ],
  });
  acme = result.accounts.acme!;
  siteKey = acme.sites.main!.siteKey;
});
afterAll(async () => t.close());

const embed = (kind: string, id: number) => `<script src="https://widgets.example/embed.js" data-widget="${kind}:${id}" async></script>`;
const entry = (kind: string, id: number, name: string, type: string | null, updatedAt: string) => ({ kind, id, name, type, updatedAt, embedHtml: embed(kind, id) });

// Newest first: wizard (7), give (4), empty (3), sub (3), demo (2), tee (2), contact (1). Equal createdAt: id desc, then kind.
const all = () => {
  const f = acme.forms;
  const c = acme.calendarWidgets;
  const e = acme.ecommerceWidgets;
  const sameDay = (a: [string, number, string, string | null], b: [string, number, string, string | null]) =>
    a[1] > b[1] || (a[1] === b[1] && a[0] < b[0]) ? [a, b] : [b, a];
  return [
    entry('form', f.wizard!.id, 'Wizard', 'multi-step', at(8)),
    entry('ecommerce', e.give!.id, 'Give', 'donation', at(4)),
    ...sameDay(['calendar', c.empty!.id, 'Empty', null], ['ecommerce', e.sub!.id, 'Sub', 'subscription']).map(([k, id, n, ty]) => entry(k, id, n, ty, at(3))),
    ...sameDay(['calendar', c.demo!.id, 'Demo call', null], ['ecommerce', e.tee!.id, 'Tee', 'one_time']).map(([k, id, n, ty]) => entry(k, id, n, ty, at(2))),
    entry('form', f.contact!.id, 'Contact', 'standard', at(1)),
  ];
};

describe('GET /v1/site-catalog', () => {
  it('lists the site’s active forms, calendars and shop widgets newest first with type and embedHtml', async () => {
    const res = await t.request('GET', '/v1/site-catalog', { siteKey });
    expect(res.status).toBe(200);
    expect(res.body).toStrictEqual({ data: all(), pagination: { page: 1, limit: 20, total: 7, pages: 1 } });
  });

  it('narrows by kind', async () => {
    for (const kind of ['form', 'calendar', 'ecommerce']) {
      const res = await t.request('GET', `/v1/site-catalog?kind=${kind}`, { siteKey });
      const expected = all().filter((item) => item.kind === kind);
      expect(res.body).toStrictEqual({ data: expected, pagination: { page: 1, limit: 20, total: expected.length, pages: 1 } });
    }
  });

  it('pages, reporting the total past the last page', async () => {
    const second = await t.request('GET', '/v1/site-catalog?page=2&limit=3', { siteKey });
    expect(second.body).toStrictEqual({ data: all().slice(3, 6), pagination: { page: 2, limit: 3, total: 7, pages: 3 } });
    const past = await t.request('GET', '/v1/site-catalog?page=9&limit=3', { siteKey });
    expect(past.body).toStrictEqual({ data: [], pagination: { page: 9, limit: 3, total: 7, pages: 3 } });
    expect((await t.request('GET', '/v1/site-catalog?page=0', { siteKey })).body.code).toBe('invalid_pagination');
  });

  it('refuses any other kind with 400 validation_failed and fields', async () => {
    for (const bad of ['forms', 'FORM', 'booking', '']) {
      const res = await t.request('GET', `/v1/site-catalog?kind=${bad}`, { siteKey });
      expect(res.status, bad).toBe(400);
      expect(res.body).toStrictEqual({ error: expect.any(String), code: 'validation_failed', fields: [{ field: 'kind', message: expect.any(String) }] });
    }
  });

  it('shows only its own site: another site of the same account has its own catalog', async () => {
    const res = await t.request('GET', '/v1/site-catalog', { siteKey: acme.sites.second!.siteKey });
    expect(res.body).toStrictEqual({
      data: [entry('calendar', acme.calendarWidgets.elsewhere!.id, 'Elsewhere', null, at(6))],
      pagination: { page: 1, limit: 20, total: 1, pages: 1 },
    });
  });

  it('is reachable over the site key only: an API key is 401 missing_site_key (the header is absent)', async () => {
    const res = await t.request('GET', '/v1/site-catalog', { key: acme.apiKeys.full!.key });
    expect(res.status).toBe(401);
    expect(res.body).toStrictEqual({ error: expect.any(String), code: 'missing_site_key' });
    const unknown = await t.request('GET', '/v1/site-catalog', { siteKey: `svc_site_${'A'.repeat(43)}` });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('site_not_found');
  });

  it('costs the same statements for a small and a large site (one catalog statement after authentication) and reads no entries', async () => {
    await t.request('GET', '/v1/site-catalog', { siteKey });
    t.db.resetQueryCount();
    await t.request('GET', '/v1/site-catalog?limit=100', { siteKey });
    const small = t.db.queries.length;
    await seed(t.db, {
      accounts: [
        widgetsAccount({
          ref: 'big',
          apiKeys: [],
          sites: [{
            ref: 'big', domain: 'big.example',
            forms: Array.from({ length: 60 }, (_, i) => ({ ref: `f${i}`, name: `F${i}`, fields: [], submissions: [{ formData: { a: 1 } }] })),
            calendarWidgets: Array.from({ length: 60 }, (_, i) => ({ ref: `c${i}`, name: `C${i}` })),
            ecommerceWidgets: Array.from({ length: 60 }, (_, i) => ({ ref: `e${i}`, name: `E${i}`, type: 'one_time' as const, productName: 'p', currency: 'usd', fulfilmentType: 'digital' as const })),
          }],
        }),
      ],
    }).then(async (result) => {
      const bigKey = result.accounts.big!.sites.big!.siteKey;
      await t.request('GET', '/v1/site-catalog', { siteKey: bigKey });
      t.db.resetQueryCount();
      const res = await t.request('GET', '/v1/site-catalog?limit=100', { siteKey: bigKey });
      expect(res.body.data).toHaveLength(100);
      expect(res.body.pagination.total).toBe(180);
      expect(t.db.queries.length).toBe(small);
      expect(t.db.queries.length).toBeLessThanOrEqual(2);
      // A site key reads no customer data: no statement touches a table of entries.
      expect(t.db.queries.join('\n')).not.toMatch(/"(Submission|Booking|Order)"/);
    });
  });
});

describe('siteCatalog over GraphQL', () => {
  it('is refused to an API key (the field needs the site key)', async () => {
    const res = await t.graphql('{ siteCatalog { data { id } } }', {}, acme.apiKeys.full!.key);
    expect(res.body.data).toBeNull();
    expect(res.body.errors[0].extensions.code).toBe('insufficient_scope');
  });
});
