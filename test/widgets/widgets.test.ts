import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportedAccount } from '../../src/fixtures/fixture-import.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { seed } from '../support/seed.js';
import { at, BOOKING_STATUSES, fullAddress, widgetsAccount } from './fixture.js';

/* Contract tests of the calendar, booking, shop widget and order routes: whole bodies with toStrictEqual, so a
   missing or extra key fails. The data is read-only, so it is seeded once for the file. */

let t: TestApp;
let acme: ImportedAccount;
let other: ImportedAccount;
let key: string;

beforeAll(async () => {
  t = await createTestApp();
  const result = await seed(t.db, {
    accounts: [
      widgetsAccount(),
      widgetsAccount({
        ref: 'other',
        name: 'Other',
        apiKeys: [{ ref: 'full', scopes: ['read:calendars', 'read:bookings', 'read:ecommerce', 'read:orders'] }],
        sites: [{ ref: 'main', domain: 'other.example', verified: true, method: 'dns_txt',
          calendarWidgets: [{ ref: 'theirs', name: 'Theirs', bookings: [{ inviteeName: 'X', inviteeEmail: 'x@example.com', slotIso: at(1), slotDisplay: 'x', inviteeTimezone: 'UTC', status: 'scheduled' }] }],
          ecommerceWidgets: [{ ref: 'theirs', name: 'Theirs', type: 'one_time', productName: 'P', currency: 'usd', fulfilmentType: 'digital',
            orders: [{ customerEmail: 'x@example.com', amountCents: 1, currency: 'usd', status: 'paid' }] }],
          collections: [{ ref: 'theirs', name: 'Theirs', orders: [{ customerEmail: 'y@example.com', amountCents: 2, currency: 'usd', status: 'paid' }] }] }],
      }),
    ],
  });
  acme = result.accounts.acme!;
  other = result.accounts.other!;
  key = acme.apiKeys.full!.key;
});
afterAll(async () => t.close());

const main = () => ({ id: acme.sites.main!.id, domain: 'acme.example' });
const second = () => ({ id: acme.sites.second!.id, domain: 'second.example' });
const cal = (ref: string) => acme.calendarWidgets[ref]!;
const shop = (ref: string) => acme.ecommerceWidgets[ref]!;
const page = (total: number, limit = 20, p = 1) => ({ page: p, limit, total, pages: Math.ceil(total / limit) });
const empty = { data: [], pagination: page(0) };

function bookingBody(i: number) {
  return {
    id: cal('demo').bookingIds[i],
    calendarWidgetId: cal('demo').id,
    inviteeName: `Invitee ${i}`,
    inviteeEmail: `invitee${i}@example.com`,
    slotIso: `2026-02-0${i + 1}T10:00:00.000Z`,
    slotDisplay: `Slot ${i}`,
    inviteeTimezone: 'Europe/London',
    status: BOOKING_STATUSES[i],
    customFields: i === 0 ? { company: 'Acme' } : {},
    videoCallUrl: i === 0 ? 'https://meet.example/x' : null,
    createdAt: at(10 + i),
  };
}

const teeBase = () => ({
  id: shop('tee').id, name: 'Tee', type: 'one_time', productName: 'T-shirt', description: 'Cotton', priceCents: 2500, currency: 'usd',
  fulfilmentType: 'physical', imageUrl: 'https://img.example/tee.png', domain: main(), createdAt: at(2), updatedAt: at(2),
});
const subBase = () => ({
  id: shop('sub').id, name: 'Sub', type: 'subscription', productName: 'Club', description: 'Monthly', priceCents: 900, currency: 'eur',
  fulfilmentType: 'digital', imageUrl: null, domain: main(), createdAt: at(3), updatedAt: at(3),
});
const giveBase = () => ({
  id: shop('give').id, name: 'Give', type: 'donation', productName: 'Donation', description: null, priceCents: null, currency: 'usd',
  fulfilmentType: 'service', imageUrl: null, domain: main(), createdAt: at(4), updatedAt: at(4),
});

const bareOrder = (i: number, email: string, status: string) => ({
  id: shop('tee').orderIds[i], ecommerceWidgetId: shop('tee').id, collectionId: null, customerName: null, customerEmail: email, customerPhone: null,
  amountCents: 2500, currency: 'usd', status, shippingAddress: null, trackingNumber: null, trackingCarrier: null, shippedAt: null, createdAt: at(20 + i + 1),
});
const shippedOrder = () => ({
  id: shop('tee').orderIds[0], ecommerceWidgetId: shop('tee').id, collectionId: null, customerName: 'Ada', customerEmail: 'ada@example.com',
  customerPhone: '+441234', amountCents: 2500, currency: 'usd', status: 'shipped', shippingAddress: fullAddress, trackingNumber: 'TRK1',
  trackingCarrier: 'ups', shippedAt: at(21), createdAt: at(20),
});

async function expectIdentical404(path: (id: number) => string, foreignId: number, resource: string, k = key) {
  const absent = await t.request('GET', path(2_000_000_000), { key: k });
  const foreign = await t.request('GET', path(foreignId), { key: k });
  expect(absent.status).toBe(404);
  expect(absent.body).toStrictEqual({ error: 'Not found', code: 'not_found', resource });
  expect(foreign.status).toBe(404);
  expect(foreign.text).toBe(absent.text);
}

describe('GET /v1/calendar-widgets', () => {
  it('lists the account’s widgets newest first with bookingCount and without settings, appearance or behavior', async () => {
    const res = await t.request('GET', '/v1/calendar-widgets', { key });
    expect(res.status).toBe(200);
    expect(res.body).toStrictEqual({
      data: [
        { id: cal('other').id, name: 'Other site', domain: second(), bookingCount: 0, createdAt: at(6), updatedAt: at(6) },
        { id: cal('empty').id, name: 'Empty', domain: main(), bookingCount: 0, createdAt: at(3), updatedAt: at(3) },
        { id: cal('demo').id, name: 'Demo call', domain: main(), bookingCount: 5, createdAt: at(2), updatedAt: at(2) },
      ],
      pagination: page(3),
    });
  });

  it('narrows by domainId; another account’s domain matches nothing', async () => {
    const res = await t.request('GET', `/v1/calendar-widgets?domainId=${second().id}`, { key });
    expect(res.body.data.map((w: { id: number }) => w.id)).toStrictEqual([cal('other').id]);
    const foreign = await t.request('GET', `/v1/calendar-widgets?domainId=${other.sites.main!.id}`, { key });
    expect(foreign.body).toStrictEqual(empty);
  });

  it('refuses a domainId that is not a canonical positive integer with 400 validation_failed and fields', async () => {
    for (const bad of ['0', '-1', '01', '+1', 'abc', '1.0', '1e3', '2147483648', '']) {
      const res = await t.request('GET', `/v1/calendar-widgets?domainId=${encodeURIComponent(bad)}`, { key });
      expect(res.status, bad).toBe(400);
      expect(res.body).toStrictEqual({ error: expect.any(String), code: 'validation_failed', fields: [{ field: 'domainId', message: expect.any(String) }] });
    }
  });

  it('pages with page and limit', async () => {
    const res = await t.request('GET', '/v1/calendar-widgets?page=2&limit=2', { key });
    expect(res.body.data.map((w: { id: number }) => w.id)).toStrictEqual([cal('demo').id]);
    expect(res.body.pagination).toStrictEqual(page(3, 2, 2));
    expect((await t.request('GET', '/v1/calendar-widgets?limit=0', { key })).body.code).toBe('invalid_pagination');
  });
});

describe('GET /v1/calendar-widgets/{id}', () => {
  it('returns settings, appearance and behavior with every webhook key removed at any depth, and no bookingCount', async () => {
    const res = await t.request('GET', `/v1/calendar-widgets/${cal('demo').id}`, { key });
    expect(res.status).toBe(200);
    expect(res.body).toStrictEqual({
      id: cal('demo').id,
      name: 'Demo call',
      domain: main(),
      settings: { durationMinutes: 30, nested: { keep: [{ ok: 1 }] } },
      appearance: { color: '#123456' },
      behavior: { bufferMinutes: 5 },
      createdAt: at(2),
      updatedAt: at(2),
    });
  });

  it('shows empty objects for a widget imported without them', async () => {
    const res = await t.request('GET', `/v1/calendar-widgets/${cal('empty').id}`, { key });
    expect(res.body).toStrictEqual({ id: cal('empty').id, name: 'Empty', domain: main(), settings: {}, appearance: {}, behavior: {}, createdAt: at(3), updatedAt: at(3) });
  });

  it('answers an absent, an archived and another account’s widget with byte-identical 404s', async () => {
    await expectIdentical404((id) => `/v1/calendar-widgets/${id}`, other.calendarWidgets.theirs!.id, 'calendar_widget');
    const archived = await t.request('GET', `/v1/calendar-widgets/${cal('gone').id}`, { key });
    expect(archived.status).toBe(404);
    expect(archived.body).toStrictEqual({ error: 'Not found', code: 'not_found', resource: 'calendar_widget' });
  });

  it('refuses malformed ids with 400 invalid_id', async () => {
    for (const bad of ['0', '01', '1e3', 'abc', '2147483648']) {
      const res = await t.request('GET', `/v1/calendar-widgets/${bad}`, { key });
      expect(res.status, bad).toBe(400);
      expect(res.body.code).toBe('invalid_id');
    }
  });
});

describe('GET /v1/calendar-widgets/{id}/bookings', () => {
  it('lists bookings of every status newest first, with nulls and without hidden fields', async () => {
    const res = await t.request('GET', `/v1/calendar-widgets/${cal('demo').id}/bookings`, { key });
    expect(res.status).toBe(200);
    expect(res.body).toStrictEqual({ data: [4, 3, 2, 1, 0].map(bookingBody), pagination: page(5) });
  });

  it('pages, and answers an empty widget with an empty page', async () => {
    const res = await t.request('GET', `/v1/calendar-widgets/${cal('demo').id}/bookings?page=3&limit=2`, { key });
    expect(res.body).toStrictEqual({ data: [bookingBody(0)], pagination: page(5, 2, 3) });
    const none = await t.request('GET', `/v1/calendar-widgets/${cal('empty').id}/bookings`, { key });
    expect(none.body).toStrictEqual(empty);
  });

  it('keeps the bookings of an archived widget readable, like an archived form’s submissions', async () => {
    const res = await t.request('GET', `/v1/calendar-widgets/${cal('gone').id}/bookings`, { key });
    expect(res.status).toBe(200);
    expect(res.body).toStrictEqual(empty);
  });

  it('answers another account’s widget like an absent one: 404 calendar_widget', async () => {
    await expectIdentical404((id) => `/v1/calendar-widgets/${id}/bookings`, other.calendarWidgets.theirs!.id, 'calendar_widget');
  });
});

describe('GET /v1/bookings/{id}', () => {
  it('returns each booking status exactly', async () => {
    for (const i of [0, 1, 2, 3, 4]) {
      const res = await t.request('GET', `/v1/bookings/${cal('demo').bookingIds[i]}`, { key });
      expect(res.status).toBe(200);
      expect(res.body).toStrictEqual(bookingBody(i));
    }
  });

  it('answers an absent and another account’s booking with byte-identical 404s', async () => {
    await expectIdentical404((id) => `/v1/bookings/${id}`, other.calendarWidgets.theirs!.bookingIds[0]!, 'booking');
  });
});

describe('GET /v1/ecommerce-widgets', () => {
  it('lists shop widgets of every type newest first with orderCount and without imageUrls, interval or trialDays', async () => {
    const res = await t.request('GET', '/v1/ecommerce-widgets', { key });
    expect(res.status).toBe(200);
    expect(res.body).toStrictEqual({
      data: [{ ...giveBase(), orderCount: 0 }, { ...subBase(), orderCount: 0 }, { ...teeBase(), orderCount: 4 }],
      pagination: page(3),
    });
  });

  it('narrows by domainId and validates it', async () => {
    expect((await t.request('GET', `/v1/ecommerce-widgets?domainId=${second().id}`, { key })).body).toStrictEqual(empty);
    expect((await t.request('GET', `/v1/ecommerce-widgets?domainId=${main().id}`, { key })).body.pagination.total).toBe(3);
    expect((await t.request('GET', `/v1/ecommerce-widgets?domainId=${other.sites.main!.id}`, { key })).body).toStrictEqual(empty);
    const bad = await t.request('GET', '/v1/ecommerce-widgets?domainId=01', { key });
    expect(bad.status).toBe(400);
    expect(bad.body).toStrictEqual({ error: expect.any(String), code: 'validation_failed', fields: [{ field: 'domainId', message: expect.any(String) }] });
  });
});

describe('GET /v1/ecommerce-widgets/{id}', () => {
  it('returns imageUrls, interval and trialDays and no orderCount, for each type', async () => {
    expect((await t.request('GET', `/v1/ecommerce-widgets/${shop('tee').id}`, { key })).body).toStrictEqual({
      ...teeBase(), imageUrls: ['https://img.example/tee.png', 'https://img.example/tee2.png'], interval: null, trialDays: null,
    });
    expect((await t.request('GET', `/v1/ecommerce-widgets/${shop('sub').id}`, { key })).body).toStrictEqual({
      ...subBase(), imageUrls: [], interval: 'month', trialDays: 14,
    });
    expect((await t.request('GET', `/v1/ecommerce-widgets/${shop('give').id}`, { key })).body).toStrictEqual({
      ...giveBase(), imageUrls: [], interval: null, trialDays: null,
    });
  });

  it('answers an absent, an archived and another account’s widget with byte-identical 404s', async () => {
    await expectIdentical404((id) => `/v1/ecommerce-widgets/${id}`, other.ecommerceWidgets.theirs!.id, 'ecommerce_widget');
    const archived = await t.request('GET', `/v1/ecommerce-widgets/${shop('old').id}`, { key });
    expect(archived.body).toStrictEqual({ error: 'Not found', code: 'not_found', resource: 'ecommerce_widget' });
  });
});

describe('GET /v1/ecommerce-widgets/{id}/orders', () => {
  it('lists the widget’s orders of every status newest first, with nulls and the shipping address', async () => {
    const res = await t.request('GET', `/v1/ecommerce-widgets/${shop('tee').id}/orders`, { key });
    expect(res.status).toBe(200);
    expect(res.body).toStrictEqual({
      data: [bareOrder(3, 'di@example.com', 'failed'), bareOrder(2, 'cy@example.com', 'refunded'), bareOrder(1, 'bob@example.com', 'paid'), shippedOrder()],
      pagination: page(4),
    });
  });

  it('answers another account’s widget like an absent one: 404 ecommerce_widget', async () => {
    await expectIdentical404((id) => `/v1/ecommerce-widgets/${id}/orders`, other.ecommerceWidgets.theirs!.id, 'ecommerce_widget');
  });
});

describe('GET /v1/orders/{id}', () => {
  it('returns a widget-mode order with ecommerceWidgetId set and collectionId null', async () => {
    const res = await t.request('GET', `/v1/orders/${shop('tee').orderIds[0]}`, { key });
    expect(res.body).toStrictEqual(shippedOrder());
  });

  it('returns a collection order with collectionId set, ecommerceWidgetId null and the address keys as stored', async () => {
    const store = acme.collections.store!;
    const res = await t.request('GET', `/v1/orders/${store.orderIds[0]}`, { key });
    expect(res.status).toBe(200);
    expect(res.body).toStrictEqual({
      id: store.orderIds[0], ecommerceWidgetId: null, collectionId: store.id, customerName: null, customerEmail: 'cart@example.com', customerPhone: null,
      amountCents: 4200, currency: 'gbp', status: 'paid', shippingAddress: { name: 'Cart', line1: '2 Road', city: 'Leeds', postalCode: 'LS1', country: 'GB' },
      trackingNumber: null, trackingCarrier: null, shippedAt: null, createdAt: at(25),
    });
  });

  it('answers an absent order and another account’s widget or collection order with byte-identical 404s', async () => {
    await expectIdentical404((id) => `/v1/orders/${id}`, other.ecommerceWidgets.theirs!.orderIds[0]!, 'order');
    await expectIdentical404((id) => `/v1/orders/${id}`, other.collections.theirs!.orderIds[0]!, 'order');
  });
});

describe('scopes', () => {
  const cases = () => [
    { path: '/v1/calendar-widgets', scope: 'read:calendars' },
    { path: `/v1/calendar-widgets/${cal('demo').id}`, scope: 'read:calendars' },
    { path: `/v1/calendar-widgets/${cal('demo').id}/bookings`, scope: 'read:bookings' },
    { path: `/v1/bookings/${cal('demo').bookingIds[0]}`, scope: 'read:bookings' },
    { path: '/v1/ecommerce-widgets', scope: 'read:ecommerce' },
    { path: `/v1/ecommerce-widgets/${shop('tee').id}`, scope: 'read:ecommerce' },
    { path: `/v1/ecommerce-widgets/${shop('tee').id}/orders`, scope: 'read:orders' },
    { path: `/v1/orders/${shop('tee').orderIds[0]}`, scope: 'read:orders' },
  ];

  it('each route needs its own scope and no other: a key with only one read scope gets 403 insufficient_scope elsewhere', async () => {
    const byScope: Record<string, string> = {
      'read:calendars': acme.apiKeys.calendars!.key,
      'read:bookings': acme.apiKeys.bookings!.key,
      'read:ecommerce': acme.apiKeys.ecommerce!.key,
      'read:orders': acme.apiKeys.orders!.key,
    };
    for (const { path, scope } of cases()) {
      for (const [held, heldKey] of Object.entries(byScope)) {
        const res = await t.request('GET', path, { key: heldKey });
        if (held === scope) {
          expect(res.status, `${path} with ${held}`).toBe(200);
        } else {
          expect(res.status, `${path} with ${held}`).toBe(403);
          expect(res.body).toStrictEqual({ error: 'Insufficient scope', code: 'insufficient_scope', required: scope });
        }
      }
    }
  });

  it('checks the scope before the lookup: a missing scope on an absent id is 403, not 404', async () => {
    const res = await t.request('GET', '/v1/orders/2000000000', { key: acme.apiKeys.calendars!.key });
    expect(res.status).toBe(403);
  });

  it('refuses a site key on the API-key routes with 401 invalid_api_key', async () => {
    for (const { path } of cases()) {
      const res = await t.request('GET', path, { siteKey: acme.sites.main!.siteKey });
      expect(res.status).toBe(401);
      expect(res.body).toStrictEqual({ error: 'Unauthorized', code: 'invalid_api_key' });
    }
  });
});
