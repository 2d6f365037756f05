import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CalendarWidgetFixture, EcommerceWidgetFixture, ImportedAccount, OrderFixture } from '../../src/fixtures/fixture-import.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { seed } from '../support/seed.js';
import { at, BOOKING_STATUSES } from './fixture.js';

/* Lists cost a constant number of SQL statements: counts are counter columns, domains one batched read, pages
   one read. Measured after a warm-up request (the key's lastUsedAt bookkeeping write happens at most once a
   minute), without the one authentication statement. */

let t: TestApp;
let big: ImportedAccount;
let small: ImportedAccount;

const bookings = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    inviteeName: `I${i}`, inviteeEmail: `i${i}@example.com`, slotIso: at(1), slotDisplay: 's', inviteeTimezone: 'UTC',
    status: BOOKING_STATUSES[i % BOOKING_STATUSES.length]!, cancellationToken: 'c', createdAt: at(1 + (i % 20)),
  }));
const orders = (count: number): OrderFixture[] =>
  Array.from({ length: count }, (_, i) => ({ customerEmail: `o${i}@example.com`, amountCents: i, currency: 'usd', status: 'paid', createdAt: at(1 + (i % 20)) }));
const calendars = (count: number, each: number): CalendarWidgetFixture[] =>
  Array.from({ length: count }, (_, i) => ({ ref: `c${i}`, name: `C${i}`, settings: { webhookUrl: 'x', a: i }, bookings: bookings(i === 0 ? 150 : each) }));
const shops = (count: number, each: number): EcommerceWidgetFixture[] =>
  Array.from({ length: count }, (_, i) => ({ ref: `e${i}`, name: `E${i}`, type: 'one_time', productName: 'p', currency: 'usd', fulfilmentType: 'digital', orders: orders(i === 0 ? 150 : each) }));

beforeAll(async () => {
  t = await createTestApp();
  const result = await seed(t.db, {
    accounts: [
      { ref: 'big', name: 'Big', kind: 'organization', plan: 'business', apiKeys: [{ ref: 'k' }],
        sites: [
          { ref: 'a', domain: 'a.example', verified: true, calendarWidgets: calendars(50, 3), ecommerceWidgets: shops(50, 3) },
          { ref: 'b', domain: 'b.example', verified: true, calendarWidgets: calendars(50, 2).map((c) => ({ ...c, ref: `b${c.ref}` })), ecommerceWidgets: shops(50, 2).map((e) => ({ ...e, ref: `b${e.ref}` })) },
        ] },
      { ref: 'small', name: 'Small', kind: 'personal', plan: 'pro', apiKeys: [{ ref: 'k' }],
        sites: [{ ref: 'a', domain: 'small.example', verified: true, calendarWidgets: [{ ref: 'c0', name: 'C0', bookings: bookings(1) }], ecommerceWidgets: shops(1, 1) }] },
    ],
  });
  big = result.accounts.big!;
  small = result.accounts.small!;
});
afterAll(async () => t.close());

/** Statements one request sent besides authentication, after a warm-up request. */
async function statements(path: string, key: string): Promise<string[]> {
  await t.request('GET', path, { key });
  t.db.resetQueryCount();
  const res = await t.request('GET', path, { key });
  expect(res.status, path).toBe(200);
  return t.db.queries.filter((sql) => !/"ApiKey"/.test(sql));
}

describe('statement counts', () => {
  it('listing 100 calendar widgets with bookingCount and domains costs at most 3 statements, as many as listing 1, and never reads bookings', async () => {
    const many = await statements('/v1/calendar-widgets?limit=100', big.apiKeys.k!.key);
    const one = await statements('/v1/calendar-widgets?limit=100', small.apiKeys.k!.key);
    expect(many.length).toBeLessThanOrEqual(3);
    expect(many.length).toBe(one.length);
    expect(many.join('\n')).not.toMatch(/"Booking"/);
    const res = await t.request('GET', '/v1/calendar-widgets?limit=100', { key: big.apiKeys.k!.key });
    expect(res.body.data).toHaveLength(100);
    expect(res.body.data.reduce((sum: number, w: { bookingCount: number }) => sum + w.bookingCount, 0)).toBe(150 + 49 * 3 + 150 + 49 * 2);
  });

  it('listing 100 shop widgets with orderCount and domains costs at most 3 statements, as many as listing 1, and never reads orders', async () => {
    const many = await statements('/v1/ecommerce-widgets?limit=100', big.apiKeys.k!.key);
    const one = await statements('/v1/ecommerce-widgets?limit=100', small.apiKeys.k!.key);
    expect(many.length).toBeLessThanOrEqual(3);
    expect(many.length).toBe(one.length);
    expect(many.join('\n')).not.toMatch(/"Order"/);
  });

  it('listing 100 bookings or 100 orders of a widget costs at most 2 statements (the widget with its counter, the page)', async () => {
    const key = big.apiKeys.k!.key;
    const calendar = big.calendarWidgets.c0!;
    const shop = big.ecommerceWidgets.e0!;
    const manyBookings = await statements(`/v1/calendar-widgets/${calendar.id}/bookings?limit=100`, key);
    const oneBooking = await statements(`/v1/calendar-widgets/${small.calendarWidgets.c0!.id}/bookings?limit=100`, small.apiKeys.k!.key);
    expect(manyBookings.length).toBeLessThanOrEqual(2);
    expect(manyBookings.length).toBe(oneBooking.length);
    const manyOrders = await statements(`/v1/ecommerce-widgets/${shop.id}/orders?limit=100`, key);
    expect(manyOrders.length).toBeLessThanOrEqual(2);
    const page = await t.request('GET', `/v1/ecommerce-widgets/${shop.id}/orders?limit=100&page=2`, { key });
    expect(page.body.data).toHaveLength(50);
    expect(page.body.pagination).toStrictEqual({ page: 2, limit: 100, total: 150, pages: 2 });
  });

  it('the same GraphQL lists cost the same constant', async () => {
    const key = big.apiKeys.k!.key;
    const query = `{
      calendarWidgets(limit: 100) { data { id name bookingCount domain { id domain } settings } }
      ecommerceWidgets(limit: 100) { data { id name orderCount domain { id domain } imageUrls } }
    }`;
    await t.graphql(query, {}, key);
    t.db.resetQueryCount();
    const res = await t.graphql(query, {}, key);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.calendarWidgets.data).toHaveLength(100);
    expect(t.db.queries.filter((sql) => !/"ApiKey"/.test(sql)).length).toBeLessThanOrEqual(6);
  });
});
