import type { PrismaClient } from '../generated/prisma/client.js';
import { SCOPES } from '../scopes.js';
import { importFixture, type CalendarWidgetFixture, type FormFixture, type OrderFixture } from './fixtures.service.js';
import type { KeyHasher } from './secrets.service.js';

export const DEMO_HOSTNAME = 'demo.widgets.example';

/** "Empty" means no account at all: demo data is only ever added to a database nobody has used yet. */
export async function isDatabaseEmpty(prisma: PrismaClient): Promise<boolean> {
  return (await prisma.account.findFirst({ select: { id: true } })) === null;
}

export interface DemoData {
  accountId: number;
  /** Shown once at first start; only its hash is stored. */
  apiKey: string;
  siteKey: string;
  siteId: number;
  /** The contact form, the one the README's ingest example posts to. */
  formId: number;
}

const DAY = 24 * 60 * 60 * 1000;

/**
 * A fixed-seed generator: every first start gets the same people and answers (only the dates follow the clock),
 * so the README and a bug report can point at the same demo.
 */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const PEOPLE = [
  ['Ada Lovelace', 'ada'],
  ['Grace Hopper', 'grace'],
  ['Alan Turing', 'alan'],
  ['Katherine Johnson', 'katherine'],
  ['Linus Pauling', 'linus'],
  ['Hedy Lamarr', 'hedy'],
  ['Tim Berners-Lee', 'tim'],
  ['Margaret Hamilton', 'margaret'],
  ['Claude Shannon', 'claude'],
  ['Radia Perlman', 'radia'],
  ['Edsger Dijkstra', 'edsger'],
  ['Barbara Liskov', 'barbara'],
] as const;

const MESSAGES = [
  'Do you offer a discount for non-profits?',
  'The booking page shows the wrong time zone for me (Europe/Berlin).',
  'Can I embed the form on two domains with one plan?',
  'Please call me back about the enterprise plan.',
  'Is there an export of all submissions as CSV?',
  'Loving the widgets so far, thanks!',
  'Our webhook endpoint changed; how do I update it?',
  'How long do you keep submissions?',
];

const TOPICS = ['Product question', 'Billing', 'Partnership', 'Support'];
const RATINGS = ['5', '5', '4', '4', '4', '3', '2'];

/** Dates spread over the last five weeks, oldest first, so "newest first" lists open on recent activity. */
function recentDates(random: () => number, count: number, now: Date): Date[] {
  return Array.from({ length: count }, () => new Date(now.getTime() - Math.floor(random() * 35 * DAY) - 60_000))
    .sort((a, b) => a.getTime() - b.getTime());
}

function person(random: () => number): { name: string; email: string } {
  const [name, handle] = PEOPLE[Math.floor(random() * PEOPLE.length)] ?? PEOPLE[0];
  return { name, email: `${handle}@example.com` };
}

function pick<T>(random: () => number, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

function demoForms(random: () => number, now: Date): FormFixture[] {
  const contact: FormFixture = {
    ref: 'contact',
    name: 'Contact us',
    type: 'standard',
    fields: [
      { id: 'name', type: 'text', label: 'Name', required: true },
      { id: 'email', type: 'email', label: 'Email', required: true },
      { id: 'topic', type: 'select', label: 'Topic', options: TOPICS },
      { id: 'message', type: 'textarea', label: 'Message' },
    ],
    createdAt: new Date(now.getTime() - 40 * DAY),
    submissions: recentDates(random, 18, now).map((createdAt) => {
      const who = person(random);
      return {
        formData: { Name: who.name, Email: who.email, Topic: pick(random, TOPICS), Message: pick(random, MESSAGES) },
        sourceDomain: DEMO_HOSTNAME,
        createdAt,
      };
    }),
  };
  const newsletter: FormFixture = {
    ref: 'newsletter',
    name: 'Newsletter signup',
    type: 'standard',
    fields: [
      { id: 'email', type: 'email', label: 'Email', required: true },
      { id: 'consent', type: 'consent', label: 'I agree to receive the monthly newsletter', required: true },
    ],
    createdAt: new Date(now.getTime() - 39 * DAY),
    submissions: recentDates(random, 12, now).map((createdAt) => ({
      formData: { Email: person(random).email, 'I agree to receive the monthly newsletter': true },
      sourceDomain: DEMO_HOSTNAME,
      createdAt,
    })),
  };
  const feedback: FormFixture = {
    ref: 'feedback',
    name: 'Workshop feedback',
    type: 'multi_step',
    fields: [
      { id: 'name', type: 'text', label: 'Name' },
      { id: 'rating', type: 'radio', label: 'How was the workshop?', options: ['1', '2', '3', '4', '5'], required: true },
      { id: 'again', type: 'checkbox', label: 'Would you come again?' },
      { id: 'comments', type: 'textarea', label: 'Comments' },
    ],
    createdAt: new Date(now.getTime() - 36 * DAY),
    submissions: recentDates(random, 9, now).map((createdAt) => ({
      formData: {
        Name: person(random).name,
        'How was the workshop?': pick(random, RATINGS),
        'Would you come again?': random() < 0.8,
        Comments: pick(random, ['Great pace.', 'More hands-on time, please.', 'The slides were very clear.', '']),
      },
      sourceDomain: DEMO_HOSTNAME,
      createdAt,
    })),
  };
  return [contact, newsletter, feedback];
}

const SLOT_DISPLAY = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });

function demoCalendar(random: () => number, now: Date): CalendarWidgetFixture {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  // Past slots ended one way or another; future ones are still to come.
  const offsets = [-24, -20, -17, -13, -10, -6, -3, -1, 1, 2, 4, 7];
  const pastStatuses = ['completed', 'completed', 'completed', 'cancelled', 'no_show', 'completed', 'completed', 'cancelled'] as const;
  return {
    ref: 'intro',
    name: 'Intro call (30 min)',
    settings: { durationMinutes: 30, timezone: 'Europe/London', workingHours: { start: '09:00', end: '17:00' } },
    appearance: { accentColor: '#2f6feb' },
    behavior: { bufferMinutes: 10, minimumNoticeHours: 12 },
    createdAt: new Date(now.getTime() - 38 * DAY),
    bookings: offsets.map((days, index) => {
      const slot = new Date(today + days * DAY + (9 + Math.floor(random() * 8)) * 60 * 60 * 1000);
      const who = person(random);
      const status = days < 0 ? (pastStatuses[index] ?? 'completed') : 'scheduled';
      return {
        inviteeName: who.name,
        inviteeEmail: who.email,
        slotIso: slot.toISOString(),
        slotDisplay: `${SLOT_DISPLAY.format(slot)} UTC`,
        inviteeTimezone: pick(random, ['Europe/London', 'Europe/Berlin', 'America/New_York', 'Asia/Tokyo']),
        status,
        customFields: { company: pick(random, ['Acme', 'Globex', 'Initech', 'Umbrella']) },
        videoCallUrl: `https://meet.example.com/demo-${index + 1}`,
        // Booked a few days before the slot, never in the future.
        createdAt: new Date(Math.min(slot.getTime() - 3 * DAY, now.getTime() - 60_000)),
      };
    }),
  };
}

function order(random: () => number, now: Date, createdAt: Date, amountCents: number, physical: boolean): OrderFixture {
  const who = person(random);
  const roll = random();
  const status = roll < 0.1 ? 'refunded' : roll < 0.15 ? 'failed' : physical && roll < 0.6 ? 'shipped' : 'paid';
  return {
    customerName: who.name,
    customerEmail: who.email,
    amountCents,
    currency: 'usd',
    status,
    shippingAddress: physical ? { name: who.name, line1: '1 Example Street', city: 'Springfield', postalCode: '12345', country: 'US' } : null,
    ...(status === 'shipped' && {
      trackingNumber: `1Z${Math.floor(random() * 1e9)}`,
      trackingCarrier: 'UPS',
      shippedAt: new Date(Math.min(createdAt.getTime() + 2 * DAY, now.getTime())),
    }),
    createdAt,
  };
}

/**
 * The first-start demo of decisions §1: a pro account with one key (every scope), a verified site marked `demo`
 * (so the daily re-check leaves it verified: see verification-lapse.job.ts), three forms with 39 submissions,
 * a calendar with 12 bookings, a shop widget with 10 orders and a collection with 6 orders, all dated over the
 * last five weeks. Written through the fixture import so it lands in one transaction.
 */
export async function createDemoData(prisma: PrismaClient, hasher: KeyHasher, now: Date = new Date()): Promise<DemoData> {
  const random = generator(20261124);
  const forms = demoForms(random, now);
  const calendar = demoCalendar(random, now);
  const shopOrders = recentDates(random, 10, now).map((createdAt) => order(random, now, createdAt, 2500, true));
  const collectionOrders = recentDates(random, 6, now).map((createdAt) => order(random, now, createdAt, 1200 + Math.floor(random() * 8) * 500, false));
  const result = await importFixture(prisma, hasher, {
    accounts: [
      {
        ref: 'demo',
        name: 'Demo account',
        kind: 'organization',
        plan: 'pro',
        ownerEmail: `owner@${DEMO_HOSTNAME}`,
        apiKeys: [{ ref: 'demo', name: 'Demo key (all scopes)', scopes: [...SCOPES] }],
        sites: [
          {
            ref: 'demo',
            domain: DEMO_HOSTNAME,
            environment: 'production',
            verified: true,
            method: 'dns_txt',
            createdAt: new Date(now.getTime() - 42 * DAY),
            forms,
            calendarWidgets: [calendar],
            ecommerceWidgets: [
              {
                ref: 'tee',
                name: 'T-shirt shop',
                type: 'one_time',
                productName: 'Widgets T-shirt',
                description: 'Organic cotton, printed with the widgets logo.',
                priceCents: 2500,
                currency: 'usd',
                fulfilmentType: 'physical',
                imageUrl: 'https://images.example.com/tee-front.png',
                imageUrls: ['https://images.example.com/tee-front.png', 'https://images.example.com/tee-back.png'],
                createdAt: new Date(now.getTime() - 37 * DAY),
                orders: shopOrders,
              },
            ],
            collections: [{ ref: 'store', name: 'Workshop tickets', createdAt: new Date(now.getTime() - 37 * DAY), orders: collectionOrders }],
          },
        ],
      },
    ],
  });
  const account = result.accounts.demo;
  const key = account?.apiKeys.demo;
  const site = account?.sites.demo;
  const form = account?.forms.contact;
  if (!account || !key || !site || !form) throw new Error('demo import returned an incomplete map');
  // The fixture format has no `demo` field (it is not part of decisions §3), hence this second statement. Were
  // the process to die between the two, the site would simply lapse like any other; nothing else depends on it.
  await prisma.site.update({ where: { id: site.id }, data: { demo: true } });
  return { accountId: account.id, apiKey: key.key, siteKey: site.siteKey, siteId: site.id, formId: form.id };
}
