import {
  buildClientSchema,
  getIntrospectionQuery,
  getNamedType,
  isEnumType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLObjectType,
  type IntrospectionQuery,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../src/execution/routes.js';
import { calendarRoutes } from '../../src/execution/routes/calendars.routes.js';
import { shopRoutes } from '../../src/execution/routes/shop.routes.js';
import { siteCatalogRoutes } from '../../src/execution/routes/site-catalog.routes.js';
import type { ImportedAccount } from '../../src/fixtures/fixture-import.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { seed } from '../support/seed.js';
import { at, widgetsAccount } from './fixture.js';

/* Every hidden value of the fixture carries the marker; no response, REST or GraphQL, may contain it. */

const MARK = 'HIDDEN-SECRET';
let n = 0;
const hidden = (): string => `${MARK}-${++n}`;

/** Webhook keys of every spelling, at every depth, inside arrays and under kept keys. */
const withWebhooks = (kept: Record<string, unknown>) => ({
  ...kept,
  webhookUrl: `https://hooks.example/${hidden()}`,
  WebHookUrl: hidden(),
  WEBHOOK: { url: hidden() },
  nested: { ok: true, onWebhookSecret: hidden(), deeper: [{ my_webhook: hidden(), fine: 1 }, [{ Webhooks: [hidden()] }]] },
  list: [{ WebHookUrl: hidden() }, 'plain'],
});

function hiddenFixture() {
  const booking = (status: 'scheduled' | 'cancelled' | 'no_show' | 'completed' | 'failed', day: number) => ({
    inviteeName: 'Ada', inviteeEmail: 'ada@example.com', slotIso: at(day), slotDisplay: 'slot', inviteeTimezone: 'UTC', status,
    customFields: { note: 'visible' }, videoCallUrl: 'https://meet.example/v',
    cancellationToken: hidden(), providerEventId: hidden(), assignedHost: hidden(), createdAt: at(day),
  });
  const order = (status: 'paid' | 'shipped' | 'refunded' | 'failed', day: number) => ({
    customerName: 'Ada', customerEmail: 'ada@example.com', customerPhone: '+1', amountCents: 100, currency: 'usd', status,
    shippingAddress: { name: 'Ada', line1: '1 St', country: 'GB', providerRef: hidden() },
    trackingNumber: 'T', trackingCarrier: 'C', shippedAt: at(day), providerPaymentId: hidden(), downloadToken: hidden(), createdAt: at(day),
  });
  return widgetsAccount({
    apiKeys: [{ ref: 'full', scopes: ['read:forms', 'read:submissions', 'read:calendars', 'read:bookings', 'read:ecommerce', 'read:orders'] }],
    sites: [{
      ref: 'main', domain: 'acme.example', verified: true, method: 'dns_txt',
      forms: [{ ref: 'contact', name: 'Contact', fields: [{ id: 'name', type: 'text', label: 'Name' }], webhookUrl: `https://hooks.example/${hidden()}`,
        submissions: [{ formData: { Name: 'Ada' } }] }],
      calendarWidgets: [{
        ref: 'cal', name: 'Cal', settings: withWebhooks({ durationMinutes: 30 }), appearance: withWebhooks({ color: 'red' }), behavior: withWebhooks({}),
        bookings: [booking('scheduled', 1), booking('cancelled', 2), booking('no_show', 3), booking('completed', 4), booking('failed', 5)],
      }],
      ecommerceWidgets: (['one_time', 'subscription', 'donation'] as const).map((type, i) => ({
        ref: `shop${i}`, name: `Shop ${i}`, type, productName: 'P', description: 'D', priceCents: 100, currency: 'usd', fulfilmentType: 'digital' as const,
        imageUrl: 'https://img.example/i.png', imageUrls: ['https://img.example/i.png'], interval: type === 'subscription' ? ('year' as const) : null,
        trialDays: type === 'subscription' ? 7 : null, providerPriceId: hidden(), downloadUrl: `https://files.example/${hidden()}`,
        orders: [order('paid', 1), order('shipped', 2), order('refunded', 3), order('failed', 4)],
      })),
      collections: [{ ref: 'store', name: 'Store', orders: [order('paid', 6), order('shipped', 7)] }],
    }],
  });
}

let t: TestApp;
let acme: ImportedAccount;
let key: string;
let siteKey: string;
const bodies: { label: string; text: string }[] = [];

beforeAll(async () => {
  t = await createTestApp();
  acme = (await seed(t.db, { accounts: [hiddenFixture()] })).accounts.acme!;
  key = acme.apiKeys.full!.key;
  siteKey = acme.sites.main!.siteKey;
  // Sanity: the marker really is in the database, so a clean response means it was withheld.
  const stored = await t.db.prisma.booking.findFirstOrThrow({ select: { cancellationToken: true } });
  expect(stored.cancellationToken).toContain(MARK);
});
afterAll(async () => t.close());

/** The ids to put into each path, by the path's first segment; widget and collection orders both. */
function idsFor(path: string): number[] {
  const first = path.split('/')[1];
  const shops = Object.values(acme.ecommerceWidgets);
  const ids: Record<string, number[]> = {
    forms: [acme.forms.contact!.id],
    submissions: acme.forms.contact!.submissionIds,
    'calendar-widgets': [acme.calendarWidgets.cal!.id],
    bookings: acme.calendarWidgets.cal!.bookingIds,
    'ecommerce-widgets': shops.map((s) => s.id),
    orders: [...shops.flatMap((s) => s.orderIds), ...acme.collections.store!.orderIds],
  };
  return ids[first ?? ''] ?? [1];
}

function webhookKeys(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => webhookKeys(item, `${path}[${i}]`));
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [...(/webhook/i.test(k) ? [`${path}.${k}`] : []), ...webhookKeys(v, `${path}.${k}`)]);
}

describe('hidden values never leave the service', () => {
  it('appear in no response of any GET route of the v1 table', async () => {
    const mine = new Set([...calendarRoutes, ...shopRoutes, ...siteCatalogRoutes].map((r) => `${r.method} ${r.path}`));
    const answered = new Set<string>();
    for (const route of routes.filter((r) => r.method === 'GET')) {
      const paths = route.path.includes('{id}') ? idsFor(route.path).map((id) => route.path.replace('{id}', String(id))) : [route.path];
      for (const path of paths) {
        const url = `/v1${path}${route.paginated ? '?limit=100' : ''}`;
        const res = route.auth === 'siteKey' ? await t.request('GET', url, { siteKey }) : await t.request('GET', url, { key });
        bodies.push({ label: `GET ${url}`, text: res.text });
        expect(res.text, url).not.toContain(MARK);
        if (mine.has(`${route.method} ${route.path}`)) {
          expect(res.status, url).toBe(200);
          expect(webhookKeys(res.body), url).toEqual([]);
          answered.add(`${route.method} ${route.path}`);
        }
      }
    }
    // The walk really reached every route of this area, with data in it.
    expect([...answered].sort()).toEqual([...mine].sort());
    expect(bodies.find((b) => b.label.includes(`/calendar-widgets/${acme.calendarWidgets.cal!.id}?`) || b.label.endsWith(`/calendar-widgets/${acme.calendarWidgets.cal!.id}`))?.text).toContain('durationMinutes');
  });

  it('appear in no GraphQL response selecting every field of every type reachable from Query (built by introspection)', async () => {
    const introspection = await t.graphql(getIntrospectionQuery(), {}, key);
    expect(introspection.status).toBe(200);
    const schema = buildClientSchema(introspection.body.data as IntrospectionQuery);
    const queryType = schema.getQueryType();
    if (!queryType) throw new Error('no Query type');

    const argIds = (field: GraphQLField<unknown, unknown>): Record<string, number>[] | null => {
      const byName: Record<string, number[]> = {
        form: [acme.forms.contact!.id],
        formId: [acme.forms.contact!.id],
        submission: acme.forms.contact!.submissionIds,
        calendarWidget: [acme.calendarWidgets.cal!.id],
        calendarWidgetId: [acme.calendarWidgets.cal!.id],
        booking: acme.calendarWidgets.cal!.bookingIds,
        ecommerceWidget: Object.values(acme.ecommerceWidgets).map((s) => s.id),
        ecommerceWidgetId: Object.values(acme.ecommerceWidgets).map((s) => s.id),
        order: idsFor('/orders/{id}'),
        collection: [acme.collections.store!.id],
        collectionId: [acme.collections.store!.id],
      };
      let variants: Record<string, number>[] = [{}];
      for (const arg of field.args) {
        if (!isNonNullType(arg.type) || arg.defaultValue !== undefined) continue;
        const ids = byName[arg.name === 'id' ? field.name : arg.name];
        if (!ids) return null;
        variants = variants.flatMap((v) => ids.map((id) => ({ ...v, [arg.name]: id })));
      }
      return variants;
    };

    const selection = (type: GraphQLObjectType, seen: string[]): string => {
      const parts: string[] = [];
      for (const field of Object.values(type.getFields())) {
        if (field.args.some((a) => isNonNullType(a.type) && a.defaultValue === undefined)) continue;
        const named = getNamedType(field.type);
        if (isScalarType(named) || isEnumType(named)) parts.push(field.name);
        else if (isObjectType(named) && !seen.includes(named.name) && seen.length < 5) {
          const inner = selection(named, [...seen, named.name]);
          if (inner) parts.push(`${field.name} { ${inner} }`);
        }
      }
      return parts.join(' ');
    };

    const mineRoots = ['calendarWidgets', 'calendarWidget', 'calendarWidgetBookings', 'booking', 'ecommerceWidgets', 'ecommerceWidget', 'ecommerceWidgetOrders', 'collections', 'collection', 'collectionOrders', 'order'];
    const queried = new Set<string>();
    for (const field of Object.values(queryType.getFields())) {
      const variants = argIds(field);
      if (!variants) continue;
      const named = getNamedType(field.type);
      const body = isObjectType(named) ? ` { ${selection(named, [named.name])} }` : '';
      for (const args of variants) {
        const argText = Object.entries(args).map(([k, v]) => `${k}: ${v}`).join(', ');
        const query = `{ ${field.name}${argText ? `(${argText})` : ''}${body} }`;
        const res = await t.graphql(query, {}, key);
        bodies.push({ label: query, text: res.text });
        expect(res.text, query).not.toContain(MARK);
        if (mineRoots.includes(field.name)) {
          expect(res.body.errors, query).toBeUndefined();
          expect(webhookKeys(res.body.data), query).toEqual([]);
          queried.add(field.name);
        }
      }
    }
    expect([...queried].sort()).toEqual([...mineRoots].sort());
    // The all-fields query really selected the stripped objects and the orders' addresses.
    const all = bodies.map((b) => b.text).join('\n');
    expect(all).toContain('durationMinutes');
    expect(all).toContain('"line1":"1 St"');
  });

  it('the schema has no field for any hidden column', async () => {
    const introspection = await t.graphql(getIntrospectionQuery(), {}, key);
    const schema = buildClientSchema(introspection.body.data as IntrospectionQuery);
    const names = ['cancellationToken', 'providerEventId', 'assignedHost', 'providerPriceId', 'downloadUrl', 'providerPaymentId', 'downloadToken'];
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type)) continue;
      for (const field of Object.keys(type.getFields())) expect(names, `${type.name}.${field}`).not.toContain(field);
    }
  });
});
