import type { AccountFixture, SiteFixture } from '../../src/fixtures/fixture-import.js';
import { SCOPES } from '../../src/scopes.js';
import { accountFixture } from '../support/seed.js';

/* The widgets area's data: every booking status, every shop widget type, nulls, a collection with orders,
   archived widgets, and keys carrying one scope each (to prove the scopes are enforced separately). */

export const at = (day: number, hour = 0): string => new Date(Date.UTC(2026, 0, day, hour)).toISOString();

export const BOOKING_STATUSES = ['scheduled', 'cancelled', 'no_show', 'completed', 'failed'] as const;

export const fullAddress = { name: 'Ada Lovelace', line1: '1 Analytical St', line2: 'Flat 2', city: 'London', state: 'LDN', postalCode: 'N1 1AA', country: 'GB' };

export function widgetsSite(overrides: Partial<SiteFixture> = {}): SiteFixture {
  return {
    ref: 'main',
    domain: 'acme.example',
    environment: 'production',
    verified: true,
    method: 'dns_txt',
    forms: [{ ref: 'contact', name: 'Contact', type: 'standard', fields: [{ id: 'name', type: 'text', label: 'Name' }], createdAt: at(1) }],
    calendarWidgets: [
      {
        ref: 'demo',
        name: 'Demo call',
        settings: { durationMinutes: 30, webhookUrl: 'https://hidden.example/hook', nested: { WebHookSecret: 's', keep: [{ onWEBHOOK: 'x', ok: 1 }] } },
        appearance: { color: '#123456' },
        behavior: { bufferMinutes: 5 },
        createdAt: at(2),
        bookings: BOOKING_STATUSES.map((status, i) => ({
          inviteeName: `Invitee ${i}`,
          inviteeEmail: `invitee${i}@example.com`,
          slotIso: `2026-02-0${i + 1}T10:00:00.000Z`,
          slotDisplay: `Slot ${i}`,
          inviteeTimezone: 'Europe/London',
          status,
          customFields: i === 0 ? { company: 'Acme' } : ({} as Record<string, string>),
          videoCallUrl: i === 0 ? 'https://meet.example/x' : null,
          cancellationToken: 'cancel-token',
          providerEventId: 'provider-event',
          assignedHost: 'host@acme.example',
          createdAt: at(10 + i),
        })),
      },
      { ref: 'empty', name: 'Empty', createdAt: at(3) },
      { ref: 'gone', name: 'Gone', archived: true, createdAt: at(4) },
    ],
    ecommerceWidgets: [
      {
        ref: 'tee', name: 'Tee', type: 'one_time', productName: 'T-shirt', description: 'Cotton', priceCents: 2500, currency: 'usd',
        fulfilmentType: 'physical', imageUrl: 'https://img.example/tee.png', imageUrls: ['https://img.example/tee.png', 'https://img.example/tee2.png'],
        providerPriceId: 'price_hidden', downloadUrl: 'https://files.example/hidden', createdAt: at(2),
        orders: [
          { customerName: 'Ada', customerEmail: 'ada@example.com', customerPhone: '+441234', amountCents: 2500, currency: 'usd', status: 'shipped',
            shippingAddress: fullAddress, trackingNumber: 'TRK1', trackingCarrier: 'ups', shippedAt: at(21), providerPaymentId: 'pi_hidden', downloadToken: 'dl_hidden', createdAt: at(20) },
          { customerEmail: 'bob@example.com', amountCents: 2500, currency: 'usd', status: 'paid', createdAt: at(22) },
          { customerEmail: 'cy@example.com', amountCents: 2500, currency: 'usd', status: 'refunded', createdAt: at(23) },
          { customerEmail: 'di@example.com', amountCents: 2500, currency: 'usd', status: 'failed', createdAt: at(24) },
        ],
      },
      { ref: 'sub', name: 'Sub', type: 'subscription', productName: 'Club', description: 'Monthly', priceCents: 900, currency: 'eur', fulfilmentType: 'digital',
        imageUrl: null, interval: 'month', trialDays: 14, createdAt: at(3) },
      { ref: 'give', name: 'Give', type: 'donation', productName: 'Donation', currency: 'usd', fulfilmentType: 'service', createdAt: at(4) },
      { ref: 'old', name: 'Old', type: 'one_time', productName: 'Old', currency: 'usd', fulfilmentType: 'digital', archived: true, createdAt: at(5) },
    ],
    collections: [
      { ref: 'store', name: 'Store', createdAt: at(2), orders: [
        { customerName: null, customerEmail: 'cart@example.com', amountCents: 4200, currency: 'gbp', status: 'paid',
          shippingAddress: { name: 'Cart', line1: '2 Road', city: 'Leeds', postalCode: 'LS1', country: 'GB' }, createdAt: at(25) },
      ] },
    ],
    ...overrides,
  };
}

/** The widgets account: plan pro, a key with every scope (`full`) and one key per read scope. */
export function widgetsAccount(overrides: Partial<AccountFixture> = {}): AccountFixture {
  return accountFixture({
    apiKeys: [
      { ref: 'full', scopes: [...SCOPES] },
      { ref: 'calendars', scopes: ['read:calendars'] },
      { ref: 'bookings', scopes: ['read:bookings'] },
      { ref: 'ecommerce', scopes: ['read:ecommerce'] },
      { ref: 'orders', scopes: ['read:orders'] },
    ],
    sites: [widgetsSite(), { ref: 'second', domain: 'second.example', verified: true, method: 'dns_txt', calendarWidgets: [{ ref: 'other', name: 'Other site', createdAt: at(6) }] }],
    ...overrides,
  });
}
