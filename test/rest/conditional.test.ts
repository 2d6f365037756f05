import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportedAccount } from '../../src/fixtures/fixture-import.js';
import { createTestApp, type TestApp, type TestResponse } from '../support/app.js';
import { accountFixture, formFixture, seed, siteFixture } from '../support/seed.js';
import { widgetsSite } from '../widgets/fixture.js';

/* Decisions §6.2: a strong ETag on every 200 GET under /v1; If-None-Match answers 304 with the same tag, the
   rate-limit headers and no budget used; the tag changes with every write the body shows; the forms area
   decides its 304s from a version column without building the body. */

let t: TestApp;
let acme: ImportedAccount;
let key: string;
let formId: number;

beforeAll(async () => {
  t = await createTestApp();
  const fixture = accountFixture({
    apiKeys: [{ ref: 'full', scopes: ['read:forms', 'write:forms', 'read:submissions', 'write:submissions', 'read:calendars', 'read:bookings', 'read:ecommerce', 'read:orders'] }, { ref: 'tiny', rateLimitPerHour: 3 }],
    sites: [
      siteFixture({
        ...widgetsSite({ ref: 'main', domain: 'acme.example' }),
        forms: [
          formFixture({ submissions: [{ formData: { Name: 'Ada' } }] }),
          formFixture({ ref: 'other', name: 'Other' }),
          formFixture({ ref: 'phi', name: 'Intake', phi: true, submissions: [{ formData: { Name: 'Pat' } }] }),
        ],
      }),
    ],
  });
  acme = (await seed(t.db, { accounts: [fixture] })).accounts.acme!;
  key = acme.apiKeys.full!.key;
  formId = acme.forms.contact!.id;
});
afterAll(async () => t.close());

const get = (path: string, headers: Record<string, string> = {}, as = key) => t.request('GET', path, { key: as, headers });
const ifNoneMatch = (etag: string) => ({ 'If-None-Match': etag });

function expectCacheable(res: TestResponse): string {
  const etag = res.headers.get('etag');
  expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
  expect(res.headers.get('cache-control')).toBe('private, no-cache');
  expect(res.headers.get('vary')).toBe('Authorization, X-Service-Site-Key');
  return etag!;
}

/** 200, then the same GET with its tag: 304, empty, same tag, rate-limit headers, the budget untouched. */
async function revalidates(path: string, options: { siteKey?: string } = {}): Promise<void> {
  const send = (headers: Record<string, string> = {}) =>
    options.siteKey ? t.request('GET', path, { siteKey: options.siteKey, headers }) : get(path, headers);
  const first = await send();
  expect(first.status, path).toBe(200);
  const etag = expectCacheable(first);
  const before = Number(first.headers.get('x-ratelimit-remaining'));
  const again = await send(ifNoneMatch(etag));
  expect(again.status, path).toBe(304);
  expect(again.text).toBe('');
  expect(again.headers.get('etag')).toBe(etag);
  expect(again.headers.get('x-ratelimit-limit')).not.toBeNull();
  expect(again.headers.get('x-ratelimit-reset')).not.toBeNull();
  expect(Number(again.headers.get('x-ratelimit-remaining')), path).toBe(before);
  expectCacheable(again);
  // Once more: the fast path (this process remembered the tag against the version).
  const third = await send(ifNoneMatch(etag));
  expect(third.status).toBe(304);
  expect(Number(third.headers.get('x-ratelimit-remaining'))).toBe(before);
  const charged = await send();
  expect(Number(charged.headers.get('x-ratelimit-remaining'))).toBe(before - 1);
}

describe('ETag and If-None-Match on every GET under /v1', () => {
  it.each([
    ['/v1/forms'],
    ['/v1/forms?archived=true'],
    ['/v1/forms/{form}'],
    ['/v1/forms/{form}/submissions'],
    ['/v1/forms/{form}/submissions?createdBefore=2099-01-01T00:00:00Z'],
    ['/v1/submissions/{submission}'],
    ['/v1/calendar-widgets'],
    ['/v1/calendar-widgets/{calendar}'],
    ['/v1/calendar-widgets/{calendar}/bookings?status=scheduled'],
    ['/v1/bookings/{booking}'],
    ['/v1/ecommerce-widgets'],
    ['/v1/ecommerce-widgets/{shop}'],
    ['/v1/ecommerce-widgets/{shop}/orders'],
    ['/v1/orders/{order}'],
    ['/v1/webhooks'],
  ])('GET %s answers 200 with a strong ETag, then 304 without using budget', async (template) => {
    const path = template
      .replace('{form}', String(formId))
      .replace('{submission}', String(acme.forms.contact!.submissionIds[0]))
      .replace('{calendar}', String(acme.calendarWidgets.demo!.id))
      .replace('{booking}', String(acme.calendarWidgets.demo!.bookingIds[0]))
      .replace('{shop}', String(Object.values(acme.ecommerceWidgets)[0]!.id))
      .replace('{order}', String(Object.values(acme.ecommerceWidgets)[0]!.orderIds[0]));
    await revalidates(path);
  });

  it('does the same for the site-key GETs', async () => {
    await revalidates('/v1/site-verification', { siteKey: acme.sites.main!.siteKey });
    await revalidates('/v1/site-catalog', { siteKey: acme.sites.main!.siteKey });
  });

  it('matches one tag of a list, a weak form of the tag, or *; another tag gets the 200 and is charged', async () => {
    const first = await get('/v1/forms');
    const etag = expectCacheable(first);
    expect((await get('/v1/forms', { 'If-None-Match': `"nope", W/${etag}, "other"` })).status).toBe(304);
    expect((await get('/v1/forms', { 'If-None-Match': '*' })).status).toBe(304);
    const before = Number((await get('/v1/forms', { 'If-None-Match': '"stale"' })).headers.get('x-ratelimit-remaining'));
    const miss = await get('/v1/forms', { 'If-None-Match': '"stale"' });
    expect(miss.status).toBe(200);
    expect(miss.headers.get('etag')).toBe(etag);
    expect(Number(miss.headers.get('x-ratelimit-remaining'))).toBe(before - 1);
  });

  it('still charges a conditional GET that fails (404) and refuses with 429 once the budget is spent, tag or not', async () => {
    const tiny = acme.apiKeys.tiny!.key;
    const first = await get('/v1/forms', {}, tiny);
    const etag = first.headers.get('etag')!;
    const missing = await get('/v1/forms/999999', ifNoneMatch(etag), tiny);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-ratelimit-remaining')).toBe('1');
    expect((await get('/v1/forms', ifNoneMatch(etag), tiny)).headers.get('x-ratelimit-remaining')).toBe('1');
    expect((await get('/v1/forms', {}, tiny)).headers.get('x-ratelimit-remaining')).toBe('0');
    const refused = await get('/v1/forms', ifNoneMatch(etag), tiny);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('rate_limited');
  });

  it('leaves POST answers and error answers without an ETag', async () => {
    const created = await t.request('POST', `/v1/forms/${formId}/submissions`, { key, body: { formData: { Name: 'x' } } });
    expect(created.status).toBe(201);
    expect(created.headers.get('etag')).toBeNull();
    expect((await get('/v1/forms/999999')).headers.get('etag')).toBeNull();
  });
});

describe('the tag changes with every write the body shows', () => {
  const tagOf = async (path: string, headers: Record<string, string> = {}) => (await get(path, headers)).headers.get('etag');

  it('a new submission changes the forms list (submissionCount) and the submissions list, not the form', async () => {
    const list = await tagOf('/v1/forms');
    const submissions = await tagOf(`/v1/forms/${formId}/submissions`);
    const form = await tagOf(`/v1/forms/${formId}`);
    // Warm the fast path first, so that a stale remembered tag would show.
    expect((await get('/v1/forms', ifNoneMatch(list!))).status).toBe(304);
    expect((await get(`/v1/forms/${formId}/submissions`, ifNoneMatch(submissions!))).status).toBe(304);
    await t.request('POST', `/v1/forms/${formId}/submissions`, { key, body: { formData: { Name: 'Grace' } } });
    const listAfter = await get('/v1/forms', ifNoneMatch(list!));
    expect(listAfter.status).toBe(200);
    expect(listAfter.headers.get('etag')).not.toBe(list);
    expect((await get(`/v1/forms/${formId}/submissions`, ifNoneMatch(submissions!))).status).toBe(200);
    expect((await get(`/v1/forms/${formId}`, ifNoneMatch(form!))).status).toBe(304);
  });

  it('a PATCH changes the form and the list; an archive removes the form from the list and 404s it', async () => {
    const other = acme.forms.other!.id;
    const form = (await tagOf(`/v1/forms/${other}`))!;
    const list = (await tagOf('/v1/forms'))!;
    expect((await get(`/v1/forms/${other}`, ifNoneMatch(form))).status).toBe(304);
    expect((await t.request('PATCH', `/v1/forms/${other}`, { key, body: { name: 'Renamed' } })).status).toBe(200);
    const renamed = await get(`/v1/forms/${other}`, ifNoneMatch(form));
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Renamed');
    const listRenamed = await get('/v1/forms', ifNoneMatch(list));
    expect(listRenamed.status).toBe(200);
    expect((await get('/v1/forms', ifNoneMatch(listRenamed.headers.get('etag')!))).status).toBe(304);
    expect((await t.request('DELETE', `/v1/forms/${other}`, { key })).status).toBe(204);
    const listArchived = await get('/v1/forms', ifNoneMatch(listRenamed.headers.get('etag')!));
    expect(listArchived.status).toBe(200);
    expect(listArchived.body.data.map((f: { id: number }) => f.id)).not.toContain(other);
    expect((await get(`/v1/forms/${other}`, ifNoneMatch(renamed.headers.get('etag')!))).status).toBe(404);
  });

  it('a verification change changes the site-verification status', async () => {
    const siteKey = acme.sites.main!.siteKey;
    const first = await t.request('GET', '/v1/site-verification', { siteKey });
    const etag = first.headers.get('etag')!;
    await t.db.prisma.site.update({ where: { id: acme.sites.main!.id }, data: { verified: false, verifiedAt: null } });
    const after = await t.request('GET', '/v1/site-verification', { siteKey, headers: ifNoneMatch(etag) });
    expect(after.status).toBe(200);
    expect(after.body.verified).toBe(false);
    expect(after.headers.get('etag')).not.toBe(etag);
  });
});

describe('PHI', () => {
  it('audits every revalidation of a PHI form’s submissions: its 304s are decided from the body, never from the version alone', async () => {
    const path = `/v1/forms/${acme.forms.phi!.id}/submissions`;
    const audits = () => t.db.prisma.auditEvent.count({ where: { accountId: acme.id } });
    const etag = (await get(path)).headers.get('etag')!;
    const before = await audits();
    expect((await get(path, ifNoneMatch(etag))).status).toBe(304);
    expect((await get(path, ifNoneMatch(etag))).status).toBe(304);
    expect(await audits()).toBe(before + 2);
  });
});

describe('statement counts of a 304', () => {
  /** Statements one request sent besides authentication. */
  async function statementsOf(path: string, headers: Record<string, string>): Promise<{ status: number; sql: string[] }> {
    t.db.resetQueryCount();
    const res = await get(path, headers);
    return { status: res.status, sql: t.db.queries.filter((sql) => !/"ApiKey"/.test(sql)) };
  }

  it.each([['/v1/forms?limit=100'], ['/v1/forms/{form}'], ['/v1/forms/{form}/submissions?limit=100']])(
    'GET %s answers a repeated If-None-Match with ONE statement (the version) and never reads the body',
    async (template) => {
      const path = template.replace('{form}', String(formId));
      await t.useKeyOnce(key);
      const etag = (await get(path)).headers.get('etag')!;
      await get(path, ifNoneMatch(etag));
      const { status, sql } = await statementsOf(path, ifNoneMatch(etag));
      expect(status).toBe(304);
      expect(sql).toHaveLength(1);
      expect(sql[0]).toMatch(/"version"/);
      expect(sql[0]).not.toMatch(/"Submission"|"Site"/);
    },
  );
});

describe('GET /v1/openapi.json', () => {
  it('documents the list filters, If-None-Match, the 304 and the ETag on every GET but the streamed rows', async () => {
    const doc = (await t.request('GET', '/v1/openapi.json')).body;
    const names = (path: string) => doc.paths[path].get.parameters.map((p: { name: string }) => p.name);
    expect(names('/forms/{id}/submissions')).toEqual(expect.arrayContaining(['createdFrom', 'createdBefore', 'If-None-Match']));
    expect(names('/calendar-widgets/{id}/bookings')).toEqual(expect.arrayContaining(['status', 'createdFrom', 'createdBefore']));
    expect(names('/ecommerce-widgets/{id}/orders')).toEqual(expect.arrayContaining(['status', 'createdFrom', 'createdBefore']));
    const status = doc.paths['/ecommerce-widgets/{id}/orders'].get.parameters.find((p: { name: string }) => p.name === 'status');
    expect(status.schema.enum).toStrictEqual(['paid', 'shipped', 'refunded', 'failed']);
    for (const [path, operations] of Object.entries(doc.paths as Record<string, Record<string, { responses: Record<string, { headers?: object }> }>>)) {
      const getOperation = operations.get;
      // The streamed rows (the export, the event stream) are the GETs without a tag: their bodies do not exist before they are sent.
      if (!getOperation || path.endsWith('/export') || path === '/events/stream') continue;
      expect(getOperation.responses['304'], path).toBeDefined();
      expect(getOperation.responses['200']?.headers, path).toHaveProperty('ETag');
    }
  });
});
