import type { Route } from '../../src/rest/route.js';
import type { TestDatabase } from '../support/database.js';
import { SCOPES } from '../../src/scopes.js';
import { seedAccount } from '../support/seed.js';

export interface World {
  key: string;
  siteKey: string;
  /** The route's path under /v1 with a real id of the account's, so that GET routes answer 200. */
  pathOf(route: Route): string;
}

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
  };
  return {
    key: acme.apiKeys.full!.key,
    siteKey: acme.sites.main!.siteKey,
    // A route of a new area gets id 1: still requested, answering whatever an unknown id answers.
    pathOf: (route) => route.path.replace('{id}', String(ids[route.path.split('/')[1] ?? ''] ?? 1)),
  };
}
