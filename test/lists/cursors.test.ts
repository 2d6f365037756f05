import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportedAccount } from '../../src/fixtures/fixture-import.js';
import { encodeCursor } from '../../src/domain/list-cursor.js';
import { submissionsListKey } from '../../src/domain/submissions/submissions.service.js';
import { bookingsListKey } from '../../src/domain/widgets/calendars.service.js';
import { createTestApp, type TestApp, type TestResponse } from '../support/app.js';
import { accountFixture, formFixture, seed, seedAccount, siteFixture } from '../support/seed.js';

/* Decisions §7.6: `after` cursors on the submissions, bookings, orders and events lists; the cursor envelope; `Link`
   on every 200 of those lists; walks that never repeat or skip under concurrent writes; cursors bound to their list
   and filters; counts once per request (page mode) and none in cursor mode, in bounded statements. */

const day = (d: number, hour = 0): string => new Date(Date.UTC(2026, 0, d, hour)).toISOString();
const BOOKING_STATUSES = ['scheduled', 'cancelled', 'no_show', 'completed', 'failed'] as const;

let t: TestApp;
let acme: ImportedAccount;
let key: string;
let formId: number;
let otherFormId: number;
let calendarId: number;
let shopId: number;

beforeAll(async () => {
  t = await createTestApp();
  // 30 submissions on days 1..30, plus 4 sharing one instant (day 15 at noon): the id breaks that tie.
  const submissions = [
    ...Array.from({ length: 30 }, (_, i) => ({ formData: { Name: `S${i + 1}` }, createdAt: day(i + 1, 12) })),
    ...Array.from({ length: 4 }, (_, i) => ({ formData: { Name: `T${i}` }, createdAt: day(15, 12) })),
  ];
  const fixture = accountFixture({
    sites: [
      siteFixture({
        forms: [formFixture({ submissions }), formFixture({ ref: 'other', name: 'Other', submissions: [{ formData: { Name: 'O' }, createdAt: day(1) }] })],
        calendarWidgets: [
          {
            ref: 'cal',
            name: 'Cal',
            bookings: Array.from({ length: 23 }, (_, i) => ({
              inviteeName: `I${i}`, inviteeEmail: `i${i}@example.com`, slotIso: day(1), slotDisplay: 's', inviteeTimezone: 'UTC',
              status: BOOKING_STATUSES[i % 5]!, createdAt: day(1 + (i % 12)),
            })),
          },
        ],
        ecommerceWidgets: [
          {
            ref: 'shop', name: 'Shop', type: 'one_time', productName: 'p', currency: 'usd', fulfilmentType: 'digital',
            orders: Array.from({ length: 17 }, (_, i) => ({ customerEmail: `o${i}@example.com`, amountCents: i, currency: 'usd', status: 'paid' as const, createdAt: day(1 + (i % 5)) })),
          },
        ],
      }),
    ],
  });
  acme = (await seed(t.db, { accounts: [fixture] })).accounts.acme!;
  key = acme.apiKeys.full!.key;
  formId = acme.forms.contact!.id;
  otherFormId = acme.forms.other!.id;
  calendarId = acme.calendarWidgets.cal!.id;
  shopId = acme.ecommerceWidgets.shop!.id;
});
afterAll(async () => t.close());

const get = (path: string) => t.request('GET', path, { key });
const ids = (res: TestResponse): number[] => res.body.data.map((row: { id: number }) => row.id);
/** The `Link` header's target, or null when there is none. */
const linkOf = (res: TestResponse): string | null => /^<(.+)>; rel="next"$/.exec(res.headers.get('link') ?? '')?.[1] ?? null;

/** Every id of a list in page mode, page after page. */
async function pageWalk(path: string, limit: number): Promise<(number | string)[]> {
  const all: (number | string)[] = [];
  for (let page = 1; ; page++) {
    const res = await get(`${path}${path.includes('?') ? '&' : '?'}limit=${limit}&page=${page}`);
    expect(res.status).toBe(200);
    all.push(...res.body.data.map((row: { id: number | string }) => row.id));
    if (page >= res.body.pagination.pages) return all;
  }
}

/** Every id of a list walked by cursor: page 1, then each `Link` (checked against `pagination.next`) until none. */
async function cursorWalk(path: string, limit: number, between?: () => Promise<void>): Promise<(number | string)[]> {
  let res = await get(`${path}${path.includes('?') ? '&' : '?'}limit=${limit}`);
  const all: (number | string)[] = [];
  for (;;) {
    expect(res.status).toBe(200);
    all.push(...res.body.data.map((row: { id: number | string }) => row.id));
    const link = linkOf(res);
    const next = res.body.pagination.next ?? null;
    if ('page' in res.body.pagination) expect(Object.keys(res.body.pagination)).toStrictEqual(['page', 'limit', 'total', 'pages']);
    else {
      expect(Object.keys(res.body)).toStrictEqual(['data', 'pagination']);
      expect(res.body.pagination).toStrictEqual({ limit, next: link === null ? null : expect.any(String) });
      expect(link === null ? null : new URL(link, 'http://x').searchParams.get('after')).toBe(next);
    }
    if (link === null) return all;
    await between?.();
    res = await get(link);
  }
}

describe('GET /v1/forms/{id}/submissions?after=', () => {
  it('walks by cursor exactly the rows the page walk reads, ties on createdAt included, with and without a window', async () => {
    for (const filter of ['', `?createdFrom=${day(3)}&createdBefore=${day(28)}`, `?createdBefore=${day(20)}`]) {
      const path = `/v1/forms/${formId}/submissions${filter}`;
      const pages = await pageWalk(path, 7);
      expect(pages.length).toBeGreaterThan(14);
      expect(await cursorWalk(path, 7)).toStrictEqual(pages);
    }
  });

  it('answers a cursor page with the cursor envelope and the Link of the page after it, the whole header exact', async () => {
    const first = await get(`/v1/forms/${formId}/submissions?createdFrom=${day(3)}&limit=4`);
    const pageOne = ids(first);
    const lastOfPageOne = first.body.data[3];
    const cursor = encodeCursor(submissionsListKey(acme.id, formId, { createdFrom: new Date(day(3)), createdBefore: null }), { createdAt: new Date(lastOfPageOne.createdAt), id: lastOfPageOne.id });
    // Page 1 in page mode: its v1 body as ever, and the first cursor in its Link (the filters as given, limit kept).
    expect(Object.keys(first.body.pagination)).toStrictEqual(['page', 'limit', 'total', 'pages']);
    expect(first.headers.get('link')).toBe(`</v1/forms/${formId}/submissions?createdFrom=${encodeURIComponent(day(3))}&limit=4&after=${cursor}>; rel="next"`);

    const second = await get(`/v1/forms/${formId}/submissions?createdFrom=${day(3)}&limit=4&after=${cursor}`);
    expect(second.status).toBe(200);
    const last = second.body.data[3];
    const next = encodeCursor(submissionsListKey(acme.id, formId, { createdFrom: new Date(day(3)), createdBefore: null }), { createdAt: new Date(last.createdAt), id: last.id });
    expect(second.body).toStrictEqual({ data: second.body.data, pagination: { limit: 4, next } });
    expect(second.body.data).toHaveLength(4);
    expect(ids(second)).toStrictEqual((await pageWalk(`/v1/forms/${formId}/submissions?createdFrom=${day(3)}`, 4)).slice(4, 8));
    expect(ids(second).some((id) => pageOne.includes(id))).toBe(false);
    expect(second.headers.get('link')).toBe(`</v1/forms/${formId}/submissions?createdFrom=${encodeURIComponent(day(3))}&limit=4&after=${next}>; rel="next"`);
    expect(second.headers.get('etag')).toMatch(/^"/);
  });

  it('sends no Link on the last page, in either mode, and next: null after the last row', async () => {
    const lastPage = await get(`/v1/forms/${formId}/submissions?limit=10&page=4`);
    expect(lastPage.body.data).toHaveLength(4);
    expect(lastPage.headers.get('link')).toBeNull();
    const onePage = await get(`/v1/forms/${otherFormId}/submissions`);
    expect(onePage.headers.get('link')).toBeNull();
    const page3 = await get(`/v1/forms/${formId}/submissions?limit=10&page=3`);
    const tail = await get(linkOf(page3)!);
    expect(tail.body).toStrictEqual({ data: tail.body.data, pagination: { limit: 10, next: null } });
    expect(ids(tail)).toStrictEqual(ids(lastPage));
    expect(tail.headers.get('link')).toBeNull();
  });

  it('refuses page with after (validation_failed), and a malformed cursor or one of another list or other filters (invalid_cursor)', async () => {
    const first = await get(`/v1/forms/${formId}/submissions?limit=5`);
    const after = new URL(linkOf(first)!, 'http://x').searchParams.get('after')!;
    const both = await get(`/v1/forms/${formId}/submissions?page=2&after=${after}`);
    expect(both.status).toBe(400);
    expect(both.body).toStrictEqual({ error: 'The request is invalid', code: 'validation_failed', fields: [{ field: 'after', message: 'cannot be combined with page' }] });
    const invalid = { error: 'after is not a cursor this list issued for these filters: start again from page 1', code: 'invalid_cursor' };
    for (const path of [
      `/v1/forms/${formId}/submissions?after=nonsense`,
      `/v1/forms/${formId}/submissions?after=`,
      `/v1/forms/${formId}/submissions?after=${after.slice(0, -2)}${after.endsWith('AA') ? 'AB' : 'AA'}`,
      `/v1/forms/${otherFormId}/submissions?after=${after}`,
      `/v1/forms/${formId}/submissions?createdBefore=${day(20)}&after=${after}`,
      `/v1/calendar-widgets/${calendarId}/bookings?after=${after}`,
      `/v1/events?after=${after}`,
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(400);
      expect(res.body, path).toStrictEqual(invalid);
    }
    // Another limit keeps the walk: the cursor names a position, not a page size.
    expect((await get(`/v1/forms/${formId}/submissions?limit=3&after=${after}`)).status).toBe(200);
    // Input before lookup: an unknown form with a cursor of another form is still the cursor's 400.
    expect((await get(`/v1/forms/999999/submissions?after=${after}`)).body.code).toBe('invalid_cursor');
  });

  it("refuses another account's cursor on the same list path as invalid_cursor, before the lookup (not the lookup's 404)", async () => {
    const stranger = (await seedAccount(t.db, { ref: 'stranger', name: 'Stranger' })).apiKeys.full!.key;
    for (const list of [`/v1/forms/${formId}/submissions`, `/v1/calendar-widgets/${calendarId}/bookings`, `/v1/ecommerce-widgets/${shopId}/orders`]) {
      const after = new URL(linkOf(await get(`${list}?limit=1`))!, 'http://x').searchParams.get('after')!;
      const res = await t.request('GET', `${list}?limit=1&after=${after}`, { key: stranger });
      expect([list, res.status, res.body.code]).toStrictEqual([list, 400, 'invalid_cursor']);
    }
  });

  it('never repeats or skips a row while submissions arrive during the walk, and a cursor outlives the erasure of its row', async () => {
    const before = await pageWalk(`/v1/forms/${formId}/submissions`, 100);
    let n = 0;
    const ingestTwo = async () => {
      for (let i = 0; i < 2; i++) {
        const res = await t.request('POST', `/v1/forms/${formId}/submissions`, { key, body: { formData: { Name: `new${n++}` } } });
        expect(res.status).toBe(201);
      }
    };
    const walked = await cursorWalk(`/v1/forms/${formId}/submissions`, 5, ingestTwo);
    // Page 1 was read before the first new row: the walk is exactly the rows of its start.
    expect(walked).toStrictEqual(before);
    expect(n).toBeGreaterThan(10);

    const page = await get(`/v1/forms/${formId}/submissions?limit=5&page=2`);
    const erased = page.body.data[4].id;
    expect((await t.request('DELETE', `/v1/submissions/${erased}`, { key })).status).toBe(204);
    const after = await get(linkOf(page)!);
    expect(after.status).toBe(200);
    expect(ids(after)).toStrictEqual((await pageWalk(`/v1/forms/${formId}/submissions`, 100)).slice(9, 14));
  });
});

describe('GET /v1/calendar-widgets/{id}/bookings, /v1/ecommerce-widgets/{id}/orders and /v1/events by cursor', () => {
  it('walks bookings and orders by cursor as the page walk does, with status and window filters kept in the Link', async () => {
    for (const path of [`/v1/calendar-widgets/${calendarId}/bookings`, `/v1/calendar-widgets/${calendarId}/bookings?status=cancelled&createdFrom=${day(2)}`, `/v1/ecommerce-widgets/${shopId}/orders`]) {
      expect(await cursorWalk(path, 3)).toStrictEqual(await pageWalk(path, 3));
    }
    const first = await get(`/v1/calendar-widgets/${calendarId}/bookings?status=scheduled&limit=2`);
    const last = first.body.data[1];
    const cursor = encodeCursor(bookingsListKey(acme.id, calendarId, { status: 'scheduled', page: 1, limit: 2, after: null }), { createdAt: new Date(last.createdAt), id: last.id });
    expect(first.headers.get('link')).toBe(`</v1/calendar-widgets/${calendarId}/bookings?status=scheduled&limit=2&after=${cursor}>; rel="next"`);
  });

  it('walks the events by cursor as the page walk does', async () => {
    const expected = await pageWalk('/v1/events', 4);
    expect(expected.length).toBeGreaterThan(8);
    expect(await cursorWalk('/v1/events', 4)).toStrictEqual(expected);
    expect(await cursorWalk('/v1/events?type=submission.created', 3)).toStrictEqual(await pageWalk('/v1/events?type=submission.created', 3));
  });
});

describe('GraphQL after / cursor', () => {
  it('walks formSubmissions by cursor { next } and refuses page with after', async () => {
    const query = `query ($id: Int!, $after: String) { formSubmissions(formId: $id, limit: 10, after: $after) { data { id } cursor { limit next } } }`;
    const all: number[] = [];
    let after: string | null = null;
    do {
      const res = await t.graphql(query, { id: formId, after }, key);
      expect(res.body.errors).toBeUndefined();
      all.push(...res.body.data.formSubmissions.data.map((row: { id: number }) => row.id));
      after = res.body.data.formSubmissions.cursor.next;
    } while (after !== null);
    expect(all).toStrictEqual(await pageWalk(`/v1/forms/${formId}/submissions`, 100));
    const both = await t.graphql(`{ formSubmissions(formId: ${formId}, page: 2, after: "x") { data { id } } }`, {}, key);
    expect(both.body.errors[0].extensions.code).toBe('validation_failed');
    const bad = await t.graphql(`{ events(after: "x") { data { id } } }`, {}, key);
    expect(bad.body.errors[0].extensions.code).toBe('invalid_cursor');
  });
});

describe('statements and counts', () => {
  /** Statements one request sent besides authentication, after a warm-up request. */
  async function statements(path: string): Promise<string[]> {
    await get(path);
    t.db.resetQueryCount();
    const res = await get(path);
    expect(res.status, path).toBe(200);
    return t.db.queries.filter((sql) => !/"ApiKey"/.test(sql));
  }

  it('reads a page of submissions in one statement whatever the window, counting once (a materialized CTE, never per row), and a cursor page in one without a count', async () => {
    const base = `/v1/forms/${formId}/submissions?limit=5`;
    expect(await statements(base)).toHaveLength(1);
    for (const window of [`&createdFrom=${day(3)}`, `&createdBefore=${day(20)}`, `&createdFrom=${day(3)}&createdBefore=${day(20)}`]) {
      const sqls = await statements(base + window);
      expect(sqls, window).toHaveLength(1);
      // The window's total: the day counts and at most two edge ranges (window-total.ts), in one materialized CTE.
      expect(sqls[0]!.match(/materialized/g), window).toHaveLength(1);
      expect(sqls[0], window).toMatch(/^with "t" as materialized \(select \(select coalesce\(sum\("d"\."count"\), 0\)::int as "n" from "FormSubmissionDay"/);
    }
    const page1 = await get(base);
    const cursorPage = await statements(linkOf(page1)!.replace(/^\/v1/, '/v1'));
    expect(cursorPage).toHaveLength(1);
    expect(cursorPage[0]).not.toMatch(/count\(/);
  });

  it('reads a cursor page of bookings, orders or events in no more statements than page 1', async () => {
    for (const path of [`/v1/calendar-widgets/${calendarId}/bookings?limit=3&createdFrom=${day(2)}`, `/v1/ecommerce-widgets/${shopId}/orders?limit=3&status=paid`, '/v1/events?limit=3']) {
      const page1 = await statements(path);
      const cursorPage = await statements(linkOf(await get(path))!);
      expect(cursorPage.length, path).toBeLessThanOrEqual(page1.length);
      expect(cursorPage.join('\n'), path).not.toMatch(/count\(/i);
    }
  });
});
