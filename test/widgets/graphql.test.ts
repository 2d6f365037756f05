import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportedAccount } from '../../src/fixtures/fixture-import.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { seed } from '../support/seed.js';
import { at, widgetsAccount } from './fixture.js';

/* The GraphQL side of the same services: dashboard filters (status, createdAt range), collections, and scopes
   checked per field. */

let t: TestApp;
let acme: ImportedAccount;
let key: string;

beforeAll(async () => {
  t = await createTestApp();
  acme = (await seed(t.db, { accounts: [widgetsAccount()] })).accounts.acme!;
  key = acme.apiKeys.full!.key;
});
afterAll(async () => t.close());

const BOOKINGS = `query ($id: Int!, $status: BookingStatus, $from: DateTime, $before: DateTime, $limit: Int) {
  calendarWidgetBookings(calendarWidgetId: $id, status: $status, createdFrom: $from, createdBefore: $before, limit: $limit) {
    data { id status createdAt } pagination { page limit total pages }
  }
}`;

const ORDERS = `query ($id: Int!, $status: OrderStatus, $from: DateTime, $before: DateTime) {
  ecommerceWidgetOrders(ecommerceWidgetId: $id, status: $status, createdFrom: $from, createdBefore: $before) {
    data { id status } pagination { total pages }
  }
}`;

describe('GraphQL calendarWidgetBookings', () => {
  it('filters by status, counting only the matching bookings', async () => {
    const demo = acme.calendarWidgets.demo!;
    const res = await t.graphql(BOOKINGS, { id: demo.id, status: 'no_show' }, key);
    expect(res.body).toStrictEqual({
      data: { calendarWidgetBookings: { data: [{ id: demo.bookingIds[2], status: 'no_show', createdAt: at(12) }], pagination: { page: 1, limit: 20, total: 1, pages: 1 } } },
      extensions: { cost: expect.any(Object) },
    });
  });

  it('filters by a createdAt range [createdFrom, createdBefore)', async () => {
    const demo = acme.calendarWidgets.demo!;
    const res = await t.graphql(BOOKINGS, { id: demo.id, from: at(11), before: at(13) }, key);
    expect(res.body.data.calendarWidgetBookings.data.map((b: { id: number }) => b.id)).toStrictEqual([demo.bookingIds[2], demo.bookingIds[1]]);
    expect(res.body.data.calendarWidgetBookings.pagination.total).toBe(2);
  });

  it('answers another widget id with a not_found error naming calendar_widget', async () => {
    const res = await t.graphql(BOOKINGS, { id: 2_000_000_000 }, key);
    expect(res.body.data).toBeNull();
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'not_found', resource: 'calendar_widget' });
  });
});

describe('GraphQL orders and collections', () => {
  it('filters widget orders by status and by date', async () => {
    const tee = acme.ecommerceWidgets.tee!;
    const refunded = await t.graphql(ORDERS, { id: tee.id, status: 'refunded' }, key);
    expect(refunded.body.data.ecommerceWidgetOrders).toStrictEqual({ data: [{ id: tee.orderIds[2], status: 'refunded' }], pagination: { total: 1, pages: 1 } });
    const early = await t.graphql(ORDERS, { id: tee.id, before: at(22) }, key);
    expect(early.body.data.ecommerceWidgetOrders).toStrictEqual({ data: [{ id: tee.orderIds[0], status: 'shipped' }], pagination: { total: 1, pages: 1 } });
  });

  it('lists collections with their domain and their cart orders', async () => {
    const store = acme.collections.store!;
    const res = await t.graphql(
      `query ($id: Int!) {
        collections { data { id name domain { id domain } createdAt updatedAt } pagination { total } }
        collection(id: $id) { id name }
        collectionOrders(collectionId: $id) { data { id ecommerceWidgetId collectionId amountCents } pagination { total } }
      }`,
      { id: store.id },
      key,
    );
    expect(res.body).toStrictEqual({
      data: {
        collections: { data: [{ id: store.id, name: 'Store', domain: { id: acme.sites.main!.id, domain: 'acme.example' }, createdAt: at(2), updatedAt: at(2) }], pagination: { total: 1 } },
        collection: { id: store.id, name: 'Store' },
        collectionOrders: { data: [{ id: store.orderIds[0], ecommerceWidgetId: null, collectionId: store.id, amountCents: 4200 }], pagination: { total: 1 } },
      },
      extensions: { cost: expect.any(Object) },
    });
  });
});

describe('GraphQL scopes and stripping', () => {
  it('checks each field’s scope separately: read:calendars does not read bookings', async () => {
    const res = await t.graphql(
      `query ($id: Int!) { calendarWidget(id: $id) { id } booking(id: 1) { id } }`,
      { id: acme.calendarWidgets.demo!.id },
      acme.apiKeys.calendars!.key,
    );
    expect(res.body.data).toBeNull();
    expect(res.body.errors.map((e: { extensions: { code: string; required?: string } }) => e.extensions)).toContainEqual(
      expect.objectContaining({ code: 'insufficient_scope', required: 'read:bookings' }),
    );
    const ok = await t.graphql(`query ($id: Int!) { calendarWidget(id: $id) { id bookingCount } }`, { id: acme.calendarWidgets.demo!.id }, acme.apiKeys.calendars!.key);
    expect(ok.body).toStrictEqual({ data: { calendarWidget: { id: acme.calendarWidgets.demo!.id, bookingCount: 5 } }, extensions: { cost: expect.any(Object) } });
  });

  it('strips webhook keys from settings over GraphQL too', async () => {
    const res = await t.graphql(`query ($id: Int!) { calendarWidget(id: $id) { settings appearance behavior } }`, { id: acme.calendarWidgets.demo!.id }, key);
    expect(res.body).toStrictEqual({
      data: { calendarWidget: { settings: { durationMinutes: 30, nested: { keep: [{ ok: 1 }] } }, appearance: { color: '#123456' }, behavior: { bufferMinutes: 5 } } },
      extensions: { cost: expect.any(Object) },
    });
  });
});
