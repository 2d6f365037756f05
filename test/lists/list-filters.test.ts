import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportedAccount } from '../../src/fixtures/fixture-import.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { accountFixture, formFixture, seed, siteFixture } from '../support/seed.js';

/* Decisions §6.1: createdFrom (inclusive) / createdBefore (exclusive) on the submissions, bookings and orders
   lists, status on bookings and orders, the same on REST and GraphQL; totals count the filtered rows; bad values
   are 400 validation_failed with fields; a filtered page costs the statements of an unfiltered one. */

const day = (d: number, hour = 0): string => new Date(Date.UTC(2026, 0, d, hour)).toISOString();
const BOOKING_STATUSES = ['scheduled', 'cancelled', 'no_show', 'completed', 'failed'] as const;
const ORDER_STATUSES = ['paid', 'shipped', 'refunded', 'failed'] as const;

let t: TestApp;
let acme: ImportedAccount;
let key: string;
let formId: number;
let calendarId: number;
let shopId: number;

beforeAll(async () => {
  t = await createTestApp();
  const fixture = accountFixture({
    sites: [
      siteFixture({
        // 30 submissions, one per day 1..30 (at noon), so each day is a window of exactly one.
        forms: [formFixture({ submissions: Array.from({ length: 30 }, (_, i) => ({ formData: { Name: `S${i + 1}` }, createdAt: day(i + 1, 12) })) })],
        calendarWidgets: [
          {
            ref: 'cal',
            name: 'Cal',
            bookings: Array.from({ length: 20 }, (_, i) => ({
              inviteeName: `I${i}`, inviteeEmail: `i${i}@example.com`, slotIso: day(1), slotDisplay: 's', inviteeTimezone: 'UTC',
              status: BOOKING_STATUSES[i % 5]!, createdAt: day(i + 1),
            })),
          },
        ],
        ecommerceWidgets: [
          {
            ref: 'shop', name: 'Shop', type: 'one_time', productName: 'p', currency: 'usd', fulfilmentType: 'digital',
            orders: Array.from({ length: 20 }, (_, i) => ({ customerEmail: `o${i}@example.com`, amountCents: i, currency: 'usd', status: ORDER_STATUSES[i % 4]!, createdAt: day(i + 1) })),
          },
        ],
      }),
    ],
  });
  acme = (await seed(t.db, { accounts: [fixture] })).accounts.acme!;
  key = acme.apiKeys.full!.key;
  formId = acme.forms.contact!.id;
  calendarId = acme.calendarWidgets.cal!.id;
  shopId = acme.ecommerceWidgets.shop!.id;
});
afterAll(async () => t.close());

const get = (path: string) => t.request('GET', path, { key });
const names = (body: { data: { formData: { Name: string } }[] }) => body.data.map((s) => s.formData.Name);

describe('GET /v1/forms/{id}/submissions with createdFrom / createdBefore', () => {
  it('keeps createdFrom inclusive and createdBefore exclusive, newest first, and counts only the window in the total', async () => {
    const res = await get(`/v1/forms/${formId}/submissions?createdFrom=${day(10, 12)}&createdBefore=${day(13, 12)}`);
    expect(res.status).toBe(200);
    expect(names(res.body)).toStrictEqual(['S12', 'S11', 'S10']);
    expect(res.body.pagination).toStrictEqual({ page: 1, limit: 20, total: 3, pages: 1 });
  });

  it('counts a window bounded on one side only, and pages through it', async () => {
    const before = await get(`/v1/forms/${formId}/submissions?createdBefore=${day(26)}&limit=10&page=3`);
    expect(before.body.pagination).toStrictEqual({ page: 3, limit: 10, total: 25, pages: 3 });
    expect(names(before.body)).toStrictEqual(['S5', 'S4', 'S3', 'S2', 'S1']);
    const from = await get(`/v1/forms/${formId}/submissions?createdFrom=${encodeURIComponent('2026-01-25T13:00:00+01:00')}`);
    expect(from.body.pagination.total).toBe(6);
    expect(names(from.body).at(-1)).toBe('S25');
    // The same offset sent unencoded: its `+` arrives as a space and is read as the offset it was.
    const unencoded = await get(`/v1/forms/${formId}/submissions?createdFrom=2026-01-25T13:00:00+01:00`);
    expect(unencoded.body.pagination.total).toBe(6);
  });

  it('answers the same page over GraphQL with the same-named arguments', async () => {
    const query = `query ($id: Int!, $from: DateTime, $before: DateTime) {
      formSubmissions(formId: $id, createdFrom: $from, createdBefore: $before) { data { id formId formData sourceDomain createdAt } pagination { page limit total pages } }
    }`;
    const graphql = await t.graphql(query, { id: formId, from: day(10, 12), before: day(13, 12) }, key);
    const rest = await get(`/v1/forms/${formId}/submissions?createdFrom=${day(10, 12)}&createdBefore=${day(13, 12)}`);
    expect(graphql.body.data.formSubmissions).toStrictEqual(rest.body);
  });

  it.each([
    ['createdFrom=yesterday', 'createdFrom'],
    ['createdBefore=2026-01-10T00:00:00', 'createdBefore'],
    ['createdBefore=2026-02-30T00:00:00Z', 'createdBefore'],
    ['createdFrom=', 'createdFrom'],
    [`createdFrom=${day(5)}&createdBefore=${day(5)}`, 'createdFrom'],
    [`createdFrom=${day(6)}&createdBefore=${day(5)}`, 'createdFrom'],
  ])('answers %s with 400 validation_failed naming %s', async (query, field) => {
    const res = await get(`/v1/forms/${formId}/submissions?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_failed', fields: [{ field }] });
  });

  it('checks the window before the lookup: an unknown form with a bad window is 400, not 404', async () => {
    const res = await get(`/v1/forms/999999/submissions?createdFrom=${day(6)}&createdBefore=${day(5)}`);
    expect(res.status).toBe(400);
  });

  it('refuses a window that ends before it starts over GraphQL too', async () => {
    const query = 'query ($id: Int!, $from: DateTime, $before: DateTime) { formSubmissions(formId: $id, createdFrom: $from, createdBefore: $before) { pagination { total } } }';
    const res = await t.graphql(query, { id: formId, from: day(6), before: day(5) }, key);
    expect(res.body.errors?.[0]?.extensions?.code).toBe('validation_failed');
  });
});

describe("bounds at the calendar's ends (years 1 and 9999 in UTC)", () => {
  const lists = () => [`/v1/forms/${formId}/submissions`, `/v1/calendar-widgets/${calendarId}/bookings`, `/v1/ecommerce-widgets/${shopId}/orders`];

  it('answers a window reaching the last day or the first whole, without a 500 (a bound rounded to its nearer midnight stays in year 9999)', async () => {
    for (const path of lists()) {
      const all = await get(`${path}?createdBefore=9999-12-31T23:59:59Z&createdFrom=0001-01-01T00:00:00Z`);
      expect([path, all.status, all.body.pagination.total]).toStrictEqual([path, 200, path.includes('submissions') ? 30 : 20]);
      const none = await get(`${path}?createdFrom=9999-12-31T12:00:01Z`);
      expect([path, none.status, none.body.pagination.total]).toStrictEqual([path, 200, 0]);
    }
    const query = 'query ($id: Int!, $before: DateTime) { formSubmissions(formId: $id, createdBefore: $before) { pagination { total } } }';
    const res = await t.graphql(query, { id: formId, before: '9999-12-31T23:59:59Z' }, key);
    expect([res.body.data, res.body.errors]).toStrictEqual([{ formSubmissions: { pagination: { total: 30 } } }, undefined]);
  });

  it('refuses with 400 validation_failed a bound whose offset carries it out of the calendar, export included', async () => {
    for (const path of [...lists(), `/v1/forms/${formId}/submissions/export`]) {
      for (const query of ['createdFrom=0001-01-01T00:00:00%2B01:00', 'createdBefore=9999-12-31T23:59:59-01:00']) {
        const res = await get(`${path}?${query}`);
        expect([path, query, res.status, res.body.code, res.body.fields?.[0]?.field]).toStrictEqual([path, query, 400, 'validation_failed', query.split('=')[0]]);
      }
    }
  });
});

describe('GET /v1/calendar-widgets/{id}/bookings and /v1/ecommerce-widgets/{id}/orders with filters', () => {
  it('filters bookings by status and window together, counting the matching ones', async () => {
    const res = await get(`/v1/calendar-widgets/${calendarId}/bookings?status=cancelled&createdFrom=${day(2)}&createdBefore=${day(17)}`);
    expect(res.status).toBe(200);
    // cancelled = i % 5 === 1: days 2, 7, 12 (17 is excluded).
    expect(res.body.data.map((b: { createdAt: string }) => b.createdAt)).toStrictEqual([day(12), day(7), day(2)]);
    expect(res.body.pagination).toStrictEqual({ page: 1, limit: 20, total: 3, pages: 1 });
  });

  it('filters orders by status or by window alone', async () => {
    const refunded = await get(`/v1/ecommerce-widgets/${shopId}/orders?status=refunded`);
    expect(refunded.body.pagination.total).toBe(5);
    expect(refunded.body.data.every((o: { status: string }) => o.status === 'refunded')).toBe(true);
    const before = await get(`/v1/ecommerce-widgets/${shopId}/orders?createdBefore=${day(4)}`);
    expect(before.body.data.map((o: { createdAt: string }) => o.createdAt)).toStrictEqual([day(3), day(2), day(1)]);
    expect(before.body.pagination.total).toBe(3);
  });

  it.each([
    ['bookings', 'status=canceled'],
    ['bookings', 'status=paid'],
    ['orders', 'status=scheduled'],
    ['orders', 'createdFrom=2026-01-01'],
  ])('answers a bad %s filter %s with 400 validation_failed and fields', async (list, query) => {
    const path = list === 'bookings' ? `/v1/calendar-widgets/${calendarId}/bookings` : `/v1/ecommerce-widgets/${shopId}/orders`;
    const res = await get(`${path}?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.fields[0].field).toBe(query.split('=')[0]);
  });
});

describe('statement counts of filtered lists', () => {
  async function statements(path: string): Promise<{ count: number; total: number }> {
    await get(path);
    t.db.resetQueryCount();
    const res = await get(path);
    expect(res.status, path).toBe(200);
    return { count: t.db.queries.filter((sql) => !/"ApiKey"/.test(sql)).length, total: res.body.pagination.total };
  }

  it.each([
    ['submissions', () => `/v1/forms/${formId}/submissions`, `createdFrom=${day(3)}&createdBefore=${day(20)}`],
    ['submissions', () => `/v1/forms/${formId}/submissions`, `createdBefore=${day(20)}`],
    ['bookings', () => `/v1/calendar-widgets/${calendarId}/bookings`, `status=failed&createdFrom=${day(3)}`],
    ['bookings', () => `/v1/calendar-widgets/${calendarId}/bookings`, `createdBefore=${day(20)}`],
    ['orders', () => `/v1/ecommerce-widgets/${shopId}/orders`, `status=paid&createdBefore=${day(20)}`],
    ['orders', () => `/v1/ecommerce-widgets/${shopId}/orders`, `createdFrom=${day(3)}`],
  ])('a filtered %s page costs as many statements as an unfiltered one (%#)', async (_name, path, query) => {
    const unfiltered = await statements(path());
    const filtered = await statements(`${path()}?${query}`);
    // The filter took effect (its total is a count of fewer rows) at no extra statement.
    expect(filtered.total).toBeLessThan(unfiltered.total);
    expect(filtered.count).toBe(unfiltered.count);
    expect(unfiltered.count).toBeLessThanOrEqual(2);
  });
});

describe('stable traversal', () => {
  it('walks a growing list with a fixed createdBefore: no page shifts while new submissions arrive', async () => {
    const cut = new Date(Date.now() - 1000).toISOString();
    const seen: string[] = [];
    for (let page = 1; page <= 4; page++) {
      const res = await get(`/v1/forms/${formId}/submissions?createdBefore=${cut}&limit=8&page=${page}`);
      expect(res.body.pagination.total).toBe(30);
      seen.push(...names(res.body));
      // New submissions land between page reads.
      const ingest = await t.request('POST', `/v1/forms/${formId}/submissions`, { key, body: { formData: { Name: `new${page}` } } });
      expect(ingest.status).toBe(201);
    }
    expect(seen).toStrictEqual(Array.from({ length: 30 }, (_, i) => `S${30 - i}`));
    const unfixed = await get(`/v1/forms/${formId}/submissions?limit=8&page=1`);
    expect(names(unfixed.body).slice(0, 4)).toStrictEqual(['new4', 'new3', 'new2', 'new1']);
  });
});
