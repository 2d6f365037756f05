import type { RequestOptions, TestApp, TestResponse } from '../support/app.js';
import { seed } from '../support/seed.js';
import { at, widgetsAccount, widgetsSite } from '../widgets/fixture.js';

/*
 * One fixed sequence of requests that drives every route of the v1 table to a success and to its errors, against
 * seeded data with fixed dates: the recorded-bodies test compares its answers byte for byte, the validating-proxy
 * test sends it through Prism. A path's `<delivery>` / `<event>` / `<after>` / `<apikey>` is the id the sequence got
 * back last (the ping's delivery, the first listed event, the first cursor, the created key).
 */

const TOKEN = 'T0k3n_T0k3n_T0k3n_T0k3n_T0k3n_12';

export interface Step {
  name: string;
  method: string;
  path: string;
  auth?: 'full' | 'calendars' | 'none' | 'free' | 'submissionsOnly' | 'manager';
  siteKey?: 'verified' | 'unverified' | 'none';
  body?: unknown;
  headers?: Record<string, string>;
}

function steps(ids: { form: number; phiForm: number; submission: number; calendar: number; booking: number; shop: number; subShop: number; order: number; cartOrder: number }): Step[] {
  const f = ids.form;
  return [
    // Routing before authentication.
    { name: 'unknown path', method: 'GET', path: '/v1/nothing-here', auth: 'none' },
    { name: 'known path, other method', method: 'PUT', path: '/v1/forms', auth: 'none' },
    // Forms.
    { name: 'list forms', method: 'GET', path: '/v1/forms' },
    { name: 'list forms, page 2 limit 1', method: 'GET', path: '/v1/forms?page=2&limit=1' },
    { name: 'list forms by domain', method: 'GET', path: '/v1/forms?domainId=1' },
    { name: 'list forms, bad domainId', method: 'GET', path: '/v1/forms?domainId=01' },
    { name: 'list forms, bad page', method: 'GET', path: '/v1/forms?page=0' },
    { name: 'list forms, limit clamped', method: 'GET', path: '/v1/forms?limit=1000' },
    { name: 'list forms, bad archived', method: 'GET', path: '/v1/forms?archived=yes' },
    { name: 'list forms without a key', method: 'GET', path: '/v1/forms', auth: 'none' },
    { name: 'list forms on the free plan', method: 'GET', path: '/v1/forms', auth: 'free' },
    { name: 'list forms without the scope', method: 'GET', path: '/v1/forms', auth: 'calendars' },
    { name: 'read a form', method: 'GET', path: `/v1/forms/${f}` },
    { name: 'read a form with optional field properties', method: 'GET', path: `/v1/forms/${ids.phiForm}` },
    { name: 'read an absent form', method: 'GET', path: '/v1/forms/999999' },
    { name: 'read a form, malformed id', method: 'GET', path: '/v1/forms/1e3' },
    { name: 'read a form, id too large', method: 'GET', path: '/v1/forms/2147483648' },
    { name: 'create a form', method: 'POST', path: '/v1/forms', body: { name: 'Created', fields: [{ type: 'text', label: 'A' }, { id: 'b', type: 'select', label: 'B', required: true, options: ['x', 'y'], placeholder: 'pick' }], domainId: 1 } },
    { name: 'create a form, invalid', method: 'POST', path: '/v1/forms', body: { name: '', fields: [], type: 'odd' } },
    { name: 'create a form, bad field element', method: 'POST', path: '/v1/forms', body: { name: 'N', fields: [{ type: 'nope', label: 3 }], domainId: 1 } },
    { name: 'create a form, malformed JSON', method: 'POST', path: '/v1/forms', body: '{"name":' },
    { name: 'create a form, body not an object', method: 'POST', path: '/v1/forms', body: [1] },
    { name: 'create a form, domain required', method: 'POST', path: '/v1/forms', body: { name: 'N', fields: [{ type: 'text', label: 'L' }] } },
    { name: 'create a form, invalid domain', method: 'POST', path: '/v1/forms', body: { name: 'N', fields: [{ type: 'text', label: 'L' }], domainId: 999 } },
    { name: 'create a form, http webhookUrl', method: 'POST', path: '/v1/forms', body: { name: 'N', fields: [{ type: 'text', label: 'L' }], domainId: 1, webhookUrl: 'http://x.example' } },
    { name: 'create a form without the scope', method: 'POST', path: '/v1/forms', auth: 'calendars', body: { name: 'N' } },
    { name: 'rename a form', method: 'PATCH', path: `/v1/forms/${f}`, body: { name: 'Renamed', webhookUrl: null } },
    { name: 'patch a form, forbidden field', method: 'PATCH', path: `/v1/forms/${f}`, body: { id: 3, domainId: 2, name: 'x' } },
    { name: 'patch a form, unknown field', method: 'PATCH', path: `/v1/forms/${f}`, body: { colour: 'red' } },
    { name: 'patch a form, empty fields', method: 'PATCH', path: `/v1/forms/${f}`, body: { fields: [] } },
    { name: 'patch an absent form', method: 'PATCH', path: '/v1/forms/999999', body: { name: 'x' } },
    // Submissions.
    { name: 'list submissions', method: 'GET', path: `/v1/forms/${f}/submissions` },
    { name: 'list submissions, limit 1', method: 'GET', path: `/v1/forms/${f}/submissions?limit=1` },
    { name: 'list submissions after a cursor', method: 'GET', path: `/v1/forms/${f}/submissions?limit=1&after=<after>` },
    { name: 'list submissions, page and after', method: 'GET', path: `/v1/forms/${f}/submissions?page=2&after=<after>` },
    { name: 'list submissions after a malformed cursor', method: 'GET', path: `/v1/forms/${f}/submissions?after=nope` },
    { name: 'list submissions of a PHI form', method: 'GET', path: `/v1/forms/${ids.phiForm}/submissions` },
    { name: 'list submissions of an absent form', method: 'GET', path: '/v1/forms/999999/submissions' },
    { name: 'list submissions without the scope', method: 'GET', path: `/v1/forms/${f}/submissions`, auth: 'calendars' },
    { name: 'read a submission', method: 'GET', path: `/v1/submissions/${ids.submission}` },
    { name: 'read an absent submission', method: 'GET', path: '/v1/submissions/999999' },
    { name: 'ingest', method: 'POST', path: `/v1/forms/${f}/submissions`, body: { formData: { Name: 'Ada', Email: 'ada@example.com' } }, headers: { 'Idempotency-Key': 'k-1' } },
    { name: 'ingest, idempotent replay', method: 'POST', path: `/v1/forms/${f}/submissions`, body: { formData: { Name: 'Ada', Email: 'ada@example.com' } }, headers: { 'Idempotency-Key': 'k-1' } },
    { name: 'ingest, key reused with another body', method: 'POST', path: `/v1/forms/${f}/submissions`, body: { formData: { Name: 'Bob' } }, headers: { 'Idempotency-Key': 'k-1' } },
    { name: 'ingest, empty idempotency key', method: 'POST', path: `/v1/forms/${f}/submissions`, body: { formData: {} }, headers: { 'Idempotency-Key': '' } },
    { name: 'ingest without a key header', method: 'POST', path: `/v1/forms/${f}/submissions`, body: { formData: { n: 1 } } },
    { name: 'ingest, formData missing', method: 'POST', path: `/v1/forms/${f}/submissions`, body: {} },
    { name: 'ingest, unknown body field', method: 'POST', path: `/v1/forms/${f}/submissions`, body: { formData: {}, extra: 1 } },
    { name: 'ingest, formData not an object', method: 'POST', path: `/v1/forms/${f}/submissions`, body: { formData: [1] } },
    { name: 'ingest, body not an object', method: 'POST', path: `/v1/forms/${f}/submissions`, body: 'null' },
    { name: 'ingest, too many fields', method: 'POST', path: `/v1/forms/${f}/submissions`, body: { formData: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) } },
    { name: 'ingest, too large', method: 'POST', path: `/v1/forms/${f}/submissions`, body: { formData: { big: 'x'.repeat(52_000) } } },
    { name: 'ingest into an absent form', method: 'POST', path: '/v1/forms/999999/submissions', body: { formData: {} } },
    { name: 'ingest without the scope', method: 'POST', path: `/v1/forms/${f}/submissions`, auth: 'calendars', body: { formData: {} } },
    { name: 'ingest with only the submissions scopes', method: 'POST', path: `/v1/forms/${f}/submissions`, auth: 'submissionsOnly', body: { formData: { only: true } } },
    // Calendars and bookings.
    { name: 'list calendar widgets', method: 'GET', path: '/v1/calendar-widgets' },
    { name: 'list calendar widgets by domain', method: 'GET', path: '/v1/calendar-widgets?domainId=1&limit=1' },
    { name: 'list calendar widgets, bad domainId', method: 'GET', path: '/v1/calendar-widgets?domainId=x' },
    { name: 'read a calendar widget', method: 'GET', path: `/v1/calendar-widgets/${ids.calendar}` },
    { name: 'read an absent calendar widget', method: 'GET', path: '/v1/calendar-widgets/999999' },
    { name: 'list bookings', method: 'GET', path: `/v1/calendar-widgets/${ids.calendar}/bookings` },
    { name: 'list bookings without the scope', method: 'GET', path: `/v1/calendar-widgets/${ids.calendar}/bookings`, auth: 'calendars' },
    { name: 'list bookings of an absent widget', method: 'GET', path: '/v1/calendar-widgets/999999/bookings' },
    { name: 'read a booking', method: 'GET', path: `/v1/bookings/${ids.booking}` },
    { name: 'read an absent booking', method: 'GET', path: '/v1/bookings/999999' },
    // Shop widgets and orders.
    { name: 'list shop widgets', method: 'GET', path: '/v1/ecommerce-widgets' },
    { name: 'list shop widgets, bad domainId', method: 'GET', path: '/v1/ecommerce-widgets?domainId=0' },
    { name: 'read a shop widget', method: 'GET', path: `/v1/ecommerce-widgets/${ids.shop}` },
    { name: 'read a subscription shop widget', method: 'GET', path: `/v1/ecommerce-widgets/${ids.subShop}` },
    { name: 'read an absent shop widget', method: 'GET', path: '/v1/ecommerce-widgets/999999' },
    { name: 'list orders', method: 'GET', path: `/v1/ecommerce-widgets/${ids.shop}/orders` },
    { name: 'list orders of an absent widget', method: 'GET', path: '/v1/ecommerce-widgets/999999/orders' },
    { name: 'read an order', method: 'GET', path: `/v1/orders/${ids.order}` },
    { name: 'read a cart order', method: 'GET', path: `/v1/orders/${ids.cartOrder}` },
    { name: 'read an absent order', method: 'GET', path: '/v1/orders/999999' },
    // Site key.
    { name: 'site verification, verified', method: 'GET', path: '/v1/site-verification', auth: 'none', siteKey: 'verified' },
    { name: 'site verification, unverified', method: 'GET', path: '/v1/site-verification', auth: 'none', siteKey: 'unverified' },
    { name: 'site verification without a site key', method: 'GET', path: '/v1/site-verification', auth: 'none', siteKey: 'none' },
    { name: 'site verification, unknown site key', method: 'GET', path: '/v1/site-verification', auth: 'none', body: undefined, headers: { 'X-Service-Site-Key': `svc_site_${'A'.repeat(43)}` } },
    { name: 'attempt on a verified site', method: 'POST', path: '/v1/site-verification/attempt', auth: 'none', siteKey: 'verified' },
    { name: 'attempt without a site key', method: 'POST', path: '/v1/site-verification/attempt', auth: 'none', siteKey: 'none' },
    { name: 'site catalog', method: 'GET', path: '/v1/site-catalog', auth: 'none', siteKey: 'verified' },
    { name: 'site catalog of forms, limit 2', method: 'GET', path: '/v1/site-catalog?kind=form&limit=2', auth: 'none', siteKey: 'verified' },
    { name: 'site catalog, bad kind', method: 'GET', path: '/v1/site-catalog?kind=nope', auth: 'none', siteKey: 'verified' },
    // Webhooks.
    { name: 'create a webhook', method: 'POST', path: '/v1/webhooks', body: { url: 'https://hooks.example/in', event: 'submission.created', formId: f } },
    { name: 'create the same webhook again', method: 'POST', path: '/v1/webhooks', body: { url: 'https://hooks.example/in', event: 'submission.created', formId: f } },
    { name: 'create a form webhook', method: 'POST', path: '/v1/webhooks', body: { url: 'https://hooks.example/forms', event: 'form.updated' } },
    { name: 'create a webhook, invalid', method: 'POST', path: '/v1/webhooks', body: { url: 'http://x', event: 'nope', formId: 0, extra: true } },
    { name: 'create a webhook, missing fields', method: 'POST', path: '/v1/webhooks', body: {} },
    { name: 'create a webhook, rules after types', method: 'POST', path: '/v1/webhooks', body: { url: 'http://hooks.example/in', event: 'nope' } },
    { name: 'create a webhook, foreign form', method: 'POST', path: '/v1/webhooks', body: { url: 'https://hooks.example/in', event: 'submission.created', formId: 999999 } },
    { name: 'create a webhook without the scope', method: 'POST', path: '/v1/webhooks', auth: 'calendars', body: { url: 'https://hooks.example/in', event: 'submission.created' } },
    { name: 'create a webhook, body not an object', method: 'POST', path: '/v1/webhooks', body: '"x"' },
    { name: 'list webhooks', method: 'GET', path: '/v1/webhooks' },
    { name: 'read a webhook', method: 'GET', path: '/v1/webhooks/1' },
    { name: 'read an absent webhook', method: 'GET', path: '/v1/webhooks/999999' },
    // Delivery log, ping, replay (contract §6.5); no worker runs here, so deliveries stay pending.
    { name: 'turn a webhook on', method: 'PATCH', path: '/v1/webhooks/1', body: { active: true } },
    { name: 'change a webhook, other field', method: 'PATCH', path: '/v1/webhooks/1', body: { event: 'form.updated' } },
    { name: 'change a webhook, port not 443', method: 'PATCH', path: '/v1/webhooks/1', body: { url: 'https://hooks.example:8443/in' } },
    { name: 'ping a webhook', method: 'POST', path: '/v1/webhooks/1/ping' },
    { name: "list a webhook's deliveries", method: 'GET', path: '/v1/webhooks/1/deliveries' },
    { name: "list a webhook's failed deliveries", method: 'GET', path: '/v1/webhooks/1/deliveries?status=failed' },
    { name: 'read a delivery', method: 'GET', path: '/v1/webhooks/1/deliveries/<delivery>' },
    { name: 'read an absent delivery', method: 'GET', path: '/v1/webhooks/1/deliveries/999999' },
    { name: 'read a delivery, malformed id', method: 'GET', path: '/v1/webhooks/1/deliveries/01' },
    { name: 'redeliver a delivery', method: 'POST', path: '/v1/webhooks/1/deliveries/<delivery>/redeliver' },
    { name: 'replay a window', method: 'POST', path: '/v1/webhooks/1/replay', body: { createdFrom: new Date(Date.now() - 86_400_000).toISOString(), createdBefore: new Date(Date.now() + 86_400_000).toISOString() } },
    { name: 'replay a window over 30 days', method: 'POST', path: '/v1/webhooks/1/replay', body: { createdFrom: '2026-01-01T00:00:00Z', createdBefore: '2026-03-01T00:00:00Z' } },
    { name: 'list events', method: 'GET', path: '/v1/events' },
    { name: 'list events of a type', method: 'GET', path: '/v1/events?type=form.updated' },
    { name: 'list events, bad date', method: 'GET', path: '/v1/events?createdFrom=yesterday' },
    { name: 'read an event', method: 'GET', path: '/v1/events/<event>' },
    { name: 'read an absent event', method: 'GET', path: '/v1/events/evt_nothing' },
    { name: 'delete a webhook on the free plan', method: 'DELETE', path: '/v1/webhooks/999999', auth: 'free' },
    { name: 'delete a webhook', method: 'DELETE', path: '/v1/webhooks/2' },
    { name: 'delete an absent webhook', method: 'DELETE', path: '/v1/webhooks/2' },
    // Archiving last: it changes what the lists above show.
    { name: 'archive a form', method: 'DELETE', path: `/v1/forms/${f}` },
    { name: 'read an archived form', method: 'GET', path: `/v1/forms/${f}` },
    { name: 'list archived forms', method: 'GET', path: '/v1/forms?archived=true' },
    { name: 'ingest into an archived form', method: 'POST', path: `/v1/forms/${f}/submissions`, body: { formData: {} } },
    { name: 'restore a form', method: 'PATCH', path: `/v1/forms/${f}`, body: { archived: false } },
    { name: 'archive a form by PATCH', method: 'PATCH', path: `/v1/forms/${f}`, body: { archived: true } },
    { name: 'archive an absent form', method: 'DELETE', path: '/v1/forms/999999' },
    // Erasure (contract §6.3), after everything else: an erased submission leaves the lists and totals above.
    { name: 'erase a submission without the scope', method: 'DELETE', path: `/v1/submissions/${ids.submission}`, auth: 'calendars' },
    { name: 'erase a submission, malformed id', method: 'DELETE', path: '/v1/submissions/01' },
    { name: 'erase a submission', method: 'DELETE', path: `/v1/submissions/${ids.submission}` },
    { name: 'read an erased submission', method: 'GET', path: `/v1/submissions/${ids.submission}` },
    { name: 'erase an erased submission', method: 'DELETE', path: `/v1/submissions/${ids.submission}` },
    { name: 'request an erasure by email', method: 'POST', path: '/v1/erasure-requests', body: { email: 'ada@example.com' } },
    { name: 'request an erasure, unknown field', method: 'POST', path: '/v1/erasure-requests', body: { email: 'ada@example.com', extra: 1 } },
    { name: 'request an erasure, email not a string', method: 'POST', path: '/v1/erasure-requests', body: { email: 3 } },
    { name: 'request an erasure, email missing', method: 'POST', path: '/v1/erasure-requests', body: {} },
    { name: 'request an erasure, not an email', method: 'POST', path: '/v1/erasure-requests', body: { email: 'nope' } },
    { name: 'request an erasure, body not an object', method: 'POST', path: '/v1/erasure-requests', body: [1] },
    { name: 'request an erasure without the scope', method: 'POST', path: '/v1/erasure-requests', auth: 'calendars', body: { email: 'ada@example.com' } },
    // The test app runs no worker: the request stays pending.
    { name: 'follow an erasure request', method: 'GET', path: '/v1/erasure-requests/1' },
    { name: 'follow an absent erasure request', method: 'GET', path: '/v1/erasure-requests/999999' },
    // The budget (decisions §7.1) and API keys through the API (§7.4).
    { name: 'read the rate limit', method: 'GET', path: '/v1/rate_limit', auth: 'manager' },
    { name: 'read the rate limit on the free plan', method: 'GET', path: '/v1/rate_limit', auth: 'free' },
    { name: 'list API keys', method: 'GET', path: '/v1/api-keys', auth: 'manager' },
    { name: 'list API keys without the scope', method: 'GET', path: '/v1/api-keys' },
    { name: 'read an API key', method: 'GET', path: '/v1/api-keys/2', auth: 'manager' },
    { name: 'read an absent API key', method: 'GET', path: '/v1/api-keys/999999', auth: 'manager' },
    { name: 'create an API key', method: 'POST', path: '/v1/api-keys', auth: 'manager', body: { name: 'CI', scopes: ['read:forms'] } },
    { name: 'create an API key with more scopes than the caller', method: 'POST', path: '/v1/api-keys', auth: 'manager', body: { scopes: ['write:forms'] } },
    { name: 'create an API key, unknown scope', method: 'POST', path: '/v1/api-keys', auth: 'manager', body: { scopes: ['read:everything'] } },
    { name: 'create an API key, expiresAt past', method: 'POST', path: '/v1/api-keys', auth: 'manager', body: { scopes: ['read:forms'], expiresAt: '2020-01-01T00:00:00Z' } },
    { name: 'roll an API key', method: 'POST', path: '/v1/api-keys/<apikey>/roll', auth: 'manager', body: { expiresInSeconds: 60 } },
    { name: 'roll an API key, overlap too long', method: 'POST', path: '/v1/api-keys/<apikey>/roll', auth: 'manager', body: { expiresInSeconds: 604801 } },
    { name: 'revoke an API key', method: 'DELETE', path: '/v1/api-keys/<apikey>', auth: 'manager' },
    { name: 'roll a revoked API key', method: 'POST', path: '/v1/api-keys/<apikey>/roll', auth: 'manager', body: {} },
  ];
}

export interface CorpusAnswer {
  step: Step;
  response: TestResponse;
}

/** How a step is sent: by default the app's own fetch handler; a test may put a proxy in between. */
export type Send = (method: string, path: string, options: RequestOptions) => Promise<TestResponse>;

/** Seeds the corpus's accounts into `t`'s database, then sends every step in order. */
export async function driveCorpus(t: TestApp, send: Send = t.request): Promise<CorpusAnswer[]> {
  const site = widgetsSite();
  const result = await seed(t.db, {
    accounts: [
      widgetsAccount({
        apiKeys: [
          { ref: 'full', scopes: ['read:forms', 'write:forms', 'read:submissions', 'write:submissions', 'read:calendars', 'read:bookings', 'read:ecommerce', 'read:orders'] },
          { ref: 'calendars', scopes: ['read:calendars'] },
          { ref: 'submissionsOnly', scopes: ['write:submissions'] },
          { ref: 'manager', scopes: ['manage:api_keys', 'read:forms'] },
        ],
        sites: [
          {
            ...site,
            forms: [
              ...(site.forms ?? []),
              {
                ref: 'intake',
                name: 'Intake',
                type: 'multi-step',
                phi: true,
                fields: [
                  { id: 'q', type: 'select', label: 'Q', required: true, options: ['a', 'b'], placeholder: 'Choose' },
                  { id: 'n', type: 'text', label: 'N', required: false },
                ],
                createdAt: at(5),
                updatedAt: at(6),
                submissions: [{ formData: { Q: 'a' }, createdAt: at(7) }],
              },
              {
                ref: 'withSubs',
                name: 'With submissions',
                fields: [{ id: 'name', type: 'text', label: 'Name' }],
                createdAt: at(8),
                submissions: [
                  { formData: { Name: 'One' }, sourceDomain: 'acme.example', createdAt: at(9) },
                  { formData: { Name: 'Two', nested: { a: [1, 2] } }, createdAt: at(9, 5) },
                ],
              },
            ],
          },
          { ref: 'second', domain: 'second.example', verified: true, method: 'dns_txt', verifiedAt: at(1), lastCheckedAt: at(2) },
          { ref: 'pending', domain: 'pending.example', verified: false, method: null, verificationToken: TOKEN, lastCheckedAt: at(3) },
        ],
      }),
      { ref: 'free', name: 'Free', kind: 'personal', plan: 'free', ownerEmail: 'free@example.com', apiKeys: [{ ref: 'k', scopes: ['read:forms'] }] },
    ],
  });
  const acme = result.accounts.acme!;
  const free = result.accounts.free!;

  const ids = {
    form: acme.forms.withSubs!.id,
    phiForm: acme.forms.intake!.id,
    submission: acme.forms.withSubs!.submissionIds[0]!,
    calendar: acme.calendarWidgets.demo!.id,
    booking: acme.calendarWidgets.demo!.bookingIds[0]!,
    shop: acme.ecommerceWidgets.tee!.id,
    subShop: acme.ecommerceWidgets.sub!.id,
    order: acme.ecommerceWidgets.tee!.orderIds[0]!,
    cartOrder: acme.collections.store!.orderIds[0]!,
  };
  const keys = { full: acme.apiKeys.full!.key, calendars: acme.apiKeys.calendars!.key, submissionsOnly: acme.apiKeys.submissionsOnly!.key, manager: acme.apiKeys.manager!.key, free: free.apiKeys.k!.key };
  const keyIds = { full: acme.apiKeys.full!.id, calendars: acme.apiKeys.calendars!.id, submissionsOnly: acme.apiKeys.submissionsOnly!.id, manager: acme.apiKeys.manager!.id, free: free.apiKeys.k!.id };
  /**
   * A key's first use writes its lastUsedAt off the request's path (src/gate/authenticate.ts): waited for here, so
   * that a later step listing the keys reads it written whatever the machine's speed.
   */
  const used = new Set<string>();
  async function lastUseWritten(auth: keyof typeof keyIds): Promise<void> {
    if (used.has(auth)) return;
    used.add(auth);
    for (const deadline = Date.now() + 5_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 10))) {
      const key = await t.db.prisma.apiKey.findUnique({ where: { id: keyIds[auth] }, select: { lastUsedAt: true } });
      if (key?.lastUsedAt) return;
    }
  }
  const siteKeys = { verified: acme.sites.main!.siteKey, unverified: acme.sites.pending!.siteKey };

  const answers: CorpusAnswer[] = [];
  const last: { delivery?: string; event?: string; after?: string; apiKey?: string } = {};
  for (const step of steps(ids)) {
    const auth = step.auth ?? 'full';
    const path = step.path.replace('<delivery>', last.delivery ?? 'none').replace('<event>', last.event ?? 'none').replace('<after>', last.after ?? 'none').replace('<apikey>', last.apiKey ?? 'none');
    const response = await send(step.method, path, {
      key: auth === 'none' ? undefined : keys[auth],
      siteKey: step.siteKey === 'verified' || step.siteKey === 'unverified' ? siteKeys[step.siteKey] : undefined,
      body: step.body,
      headers: step.headers,
    });
    if (auth !== 'none') await lastUseWritten(auth);
    if (step.name === 'ping a webhook') last.delivery = String((response.body as { id: number }).id);
    if (step.name === 'list submissions, limit 1') last.after = new URL(/<(.+)>/.exec(response.headers.get('link') ?? '')?.[1] ?? '/', 'http://x').searchParams.get('after') ?? undefined;
    if (step.name === 'create an API key') last.apiKey = String((response.body as { id: number }).id);
    if (step.name === 'list events') last.event = (response.body as { data: { id: string }[] }).data[0]?.id;
    answers.push({ step, response });
  }
  return answers;
}
