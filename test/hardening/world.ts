import { messageIdFor, newEventId } from '../../src/domain/webhooks/events.service.js';
import type { TableRoute as Route } from '../../src/execution/route.js';
import type { TestDatabase } from '../support/database.js';
import { SCOPES } from '../../src/scopes.js';
import { seedAccount } from '../support/seed.js';

export interface World {
  key: string;
  siteKey: string;
  /** The route's path under /v1 with real ids of the account's in every placeholder, so that GET routes answer 200. */
  pathOf(route: Route): string;
  /** The same with `value` (as given, not encoded) in `placeholder` and real ids in the others. */
  pathWith(route: Route, placeholder: string, value: string): string;
}

/** The `{name}` placeholders of a route's path, in order. */
export const placeholdersOf = (route: Route): string[] => [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);

/** One account holding one of every resource a route with an id can name; `rateLimitPerHour` for its key. */
export async function seedWorld(db: TestDatabase, options: { rateLimitPerHour?: number } = {}): Promise<World> {
  const acme = await seedAccount(db, {
    apiKeys: [{ ref: 'full', scopes: [...SCOPES], rateLimitPerHour: options.rateLimitPerHour ?? null }],
    sites: [
      {
        ref: 'main',
        domain: 'acme.example',
        environment: 'production',
        verified: true,
        method: 'dns_txt',
        forms: [{ ref: 'contact', name: 'Contact', type: 'standard', fields: [{ id: 'name', type: 'text', label: 'Name' }], submissions: [{ formData: { Name: 'Ada' } }] }],
        calendarWidgets: [{ ref: 'demo', name: 'Demo', bookings: [{ inviteeName: 'Ada', inviteeEmail: 'ada@example.com', slotIso: '2026-02-01T10:00:00.000Z', slotDisplay: 'Sun', inviteeTimezone: 'UTC', status: 'scheduled' }] }],
        ecommerceWidgets: [{ ref: 'tee', name: 'Tee', type: 'one_time', productName: 'T', priceCents: 100, currency: 'usd', fulfilmentType: 'physical', orders: [{ customerEmail: 'ada@example.com', amountCents: 100, currency: 'usd', status: 'paid' }] }],
      },
    ],
  });
  const webhook = await db.prisma.webhookSubscription.create({ data: { accountId: acme.id, url: 'https://hooks.example/x', event: 'submission.created', secret: 'whsec_x' } });
  const form = acme.forms.contact!;
  // One event and its delivery to the subscription: GET /events/{eventId} and the delivery routes have a row to read.
  const createdAt = new Date();
  const eventId = newEventId(createdAt);
  const payload = { id: eventId, type: 'submission.created', createdAt: createdAt.toISOString(), data: { id: form.submissionIds[0], formId: form.id } };
  await db.prisma.outboxEvent.create({ data: { accountId: acme.id, formId: form.id, eventId, type: payload.type, payload, createdAt, relayedAt: createdAt } });
  const delivery = await db.prisma.webhookDelivery.create({
    data: { accountId: acme.id, subscriptionId: webhook.id, messageId: messageIdFor(eventId, webhook.id), eventId, eventType: payload.type, payload, status: 'succeeded', attempts: 1, createdAt },
  });
  // An erasure request (matching nobody) for GET /erasure-requests/{id}.
  const erasure = await db.prisma.erasureRequest.create({ data: { accountId: acme.id, emailHash: 'f'.repeat(64), status: 'done', completedAt: createdAt } });
  const calendar = acme.calendarWidgets.demo!;
  const shop = acme.ecommerceWidgets.tee!;
  const ids: Record<string, number | undefined> = {
    forms: form.id,
    submissions: form.submissionIds[0],
    'calendar-widgets': calendar.id,
    bookings: calendar.bookingIds[0],
    'ecommerce-widgets': shop.id,
    orders: shop.orderIds[0],
    webhooks: webhook.id,
    'erasure-requests': erasure.id,
  };
  // A route of a new area gets id 1: still requested, answering whatever an unknown id answers.
  const real = (route: Route, placeholder: string): string => {
    if (placeholder === 'deliveryId') return String(delivery.id);
    if (placeholder === 'eventId') return eventId;
    return String(ids[route.path.split('/')[1] ?? ''] ?? 1);
  };
  const pathWith = (route: Route, placeholder: string, value: string): string =>
    route.path.replace(/\{(\w+)\}/g, (_match, name: string) => (name === placeholder ? value : real(route, name)));
  return {
    key: acme.apiKeys.full!.key,
    siteKey: acme.sites.main!.siteKey,
    pathOf: (route) => pathWith(route, '', ''),
    pathWith,
  };
}
