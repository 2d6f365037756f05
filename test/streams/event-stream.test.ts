import type { Server } from 'node:http';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ImportedAccount } from '../../src/fixtures/fixture-import.js';
import { issueApiKey, revokeApiKey } from '../../src/domain/accounts/api-keys.service.js';
import { outboxRow } from '../../src/domain/webhooks/events.service.js';
import { eventStreamEventsSent, eventStreamsOpen } from '../../src/infra/metrics.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { closeHttpServer, serveOnLoopback } from '../support/http-server.js';
import { formFixture, seedAccount, siteFixture } from '../support/seed.js';
import { SseClient } from './sse-client.js';

/** GET /v1/events/stream (contract §7.2) in one process, over a real socket, on the embedded database and PostgreSQL. */

let t: TestApp;
let server: Server;
let baseUrl: string;
let acme: ImportedAccount;
let other: ImportedAccount;
let key: string;
const clients: SseClient[] = [];

beforeAll(async () => {
  t = await createTestApp({ env: { STREAM_KEEP_ALIVE_MS: '300' } });
  ({ server, baseUrl } = await serveOnLoopback(t.app));
});
afterAll(async () => {
  await closeHttpServer(server);
  await t.close();
});
beforeEach(async () => {
  await t.db.truncate();
  acme = await seedAccount(t.db, {
    apiKeys: [
      { ref: 'full', scopes: ['read:forms', 'write:forms', 'read:submissions', 'write:submissions'] },
      { ref: 'forms', scopes: ['read:forms'] },
    ],
    sites: [siteFixture({ forms: [formFixture()] })],
  });
  other = await seedAccount(t.db, { ref: 'other', name: 'Other' });
  key = acme.apiKeys.full!.key;
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  // The slots of closed streams come back once the server has seen the client go.
  await expect.poll(() => t.deps.streams.stats.open, { timeout: 5000 }).toBe(0);
});

const formId = () => acme.forms.contact!.id;
async function open(query = '', options: { key?: string; headers?: Record<string, string> } = {}): Promise<SseClient> {
  const client = await SseClient.open(`${baseUrl}/v1/events/stream${query}`, { key: options.key ?? key, headers: options.headers });
  clients.push(client);
  return client;
}
async function ingest(name: string, account = acme): Promise<void> {
  const form = account === acme ? formId() : Object.values(account.forms)[0]!.id;
  const res = await t.request('POST', `/v1/forms/${form}/submissions`, { key: account.apiKeys.full!.key, body: { formData: { Name: name } } });
  expect(res.status).toBe(201);
}
const rename = async (name: string) => expect((await t.request('PATCH', `/v1/forms/${formId()}`, { key, body: { name } })).status).toBe(200);
/** Every event of the account, oldest first, as GET /v1/events lists them. */
async function history(): Promise<{ id: string; type: string }[]> {
  const res = await t.request('GET', '/v1/events?limit=100', { key });
  return (res.body.data as { id: string; type: string }[]).reverse();
}

describe('GET /v1/events/stream', () => {
  it('sends each new event as GET /v1/events/{id} answers it, and costs 1 point to open', async () => {
    const before = await t.request('GET', '/v1/forms', { key });
    const remaining = Number(before.headers.get('x-ratelimit-remaining'));
    const sentBefore = (await eventStreamEventsSent.get()).values[0]?.value ?? 0;
    const stream = await open();
    expect(stream.response.status).toBe(200);
    expect((await eventStreamsOpen.get()).values[0]?.value).toBe(1);
    expect(stream.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect([stream.response.headers.get('cache-control'), stream.response.headers.get('vary')]).toStrictEqual(['private, no-cache', 'Authorization, X-Service-Site-Key']);
    expect(Number(stream.response.headers.get('x-ratelimit-remaining'))).toBe(remaining - 1);

    await ingest('Ada');
    await rename('Contact us');
    await stream.waitForEvents(2);
    const [created, renamed] = stream.events;
    for (const message of [created!, renamed!]) {
      const got = await t.request('GET', `/v1/events/${message.id}`, { key });
      expect(got.status).toBe(200);
      expect(message.body).toStrictEqual(got.body);
    }
    expect(stream.events.map((m) => m.type)).toStrictEqual(['submission.created', 'form.updated']);
    expect(stream.events.map((m) => m.body.type)).toStrictEqual(['submission.created', 'form.updated']);
    expect((await eventStreamEventsSent.get()).values[0]?.value).toBe(sentBefore + 2);
    // Only its own account's events.
    await ingest('Elsewhere', other);
    await rename('Contact');
    await stream.waitForEvents(3);
    expect(stream.events).toHaveLength(3);
  });

  it('shows a key only the kinds it could subscribe to, and narrows them by type', async () => {
    const formsOnly = await open('', { key: acme.apiKeys.forms!.key });
    const typed = await open('?type=form.updated');
    await ingest('Ada');
    await rename('Renamed');
    // Events come in order: once form.updated is there, the submission before it would have been too.
    await formsOnly.waitForEvents(1);
    await typed.waitForEvents(1);
    expect(formsOnly.events.map((m) => m.type)).toStrictEqual(['form.updated']);
    expect(typed.events.map((m) => m.type)).toStrictEqual(['form.updated']);
    const refused = await t.request('GET', '/v1/events/stream?type=order.created', { key });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('validation_failed');
  });

  it('resumes after Last-Event-ID (header, else lastEventId) with no gap and no duplicate, then goes on live', async () => {
    for (const name of ['a', 'b', 'c', 'd']) await ingest(name);
    const ids = (await history()).map((event) => event.id);
    const byHeader = await open('', { headers: { 'last-event-id': ids[0]! } });
    // An EventSource reconnecting keeps its URL and sends the newer id as the header: the header wins.
    const both = await open(`?lastEventId=${ids[0]}`, { headers: { 'last-event-id': ids[2]! } });
    const byQuery = await open(`?lastEventId=${ids[1]}`);
    await byHeader.waitForEvents(3);
    await ingest('e');
    const all = [...ids, ...(await history()).map((event) => event.id).slice(4)];
    expect(all).toHaveLength(5);
    await byHeader.waitForEvents(4);
    await both.waitForEvents(2);
    await byQuery.waitForEvents(3);
    expect(byHeader.events.map((m) => m.id)).toStrictEqual(all.slice(1));
    expect(both.events.map((m) => m.id)).toStrictEqual(all.slice(3));
    expect(byQuery.events.map((m) => m.id)).toStrictEqual(all.slice(2));
  });

  it('without Last-Event-ID starts at the moment of connection, also after a while with no stream open', async () => {
    const first = await open();
    await ingest('Seen');
    await first.waitForEvents(1);
    await first.close();
    await expect.poll(() => t.deps.streams.stats.open, { timeout: 5000 }).toBe(0);
    // Written while no stream was open on this replica: before the next one connects, so never on it.
    await ingest('Before');
    const next = await open();
    await ingest('After');
    await next.waitForEvents(1);
    // In order: once After is there, Before would have come first.
    expect(next.events.map((m) => (m.body.data as { formData: { Name: string } }).formData.Name)).toStrictEqual(['After']);
  });

  it('refuses a resume point that is not a retained event of the account with 400 validation_failed', async () => {
    await ingest('Elsewhere', other);
    const [theirs] = (await t.request('GET', '/v1/events', { key: other.apiKeys.full!.key })).body.data as { id: string }[];
    for (const [headers, query, field] of [
      [{ 'last-event-id': 'evt_nope' }, '', 'Last-Event-ID'],
      [{ 'last-event-id': theirs!.id }, '', 'Last-Event-ID'],
      [{}, `?lastEventId=${theirs!.id}`, 'lastEventId'],
    ] as const) {
      const res = await t.request('GET', `/v1/events/stream${query}`, { key, headers });
      expect(res.status).toBe(400);
      expect(res.body).toStrictEqual({ error: 'The request is invalid', code: 'validation_failed', fields: [{ field, message: 'is not a retained event of this account' }] });
    }
  });

  it('allows 5 open streams per key; the sixth is 429 too_many_streams and costs nothing', async () => {
    const five = await Promise.all(Array.from({ length: 5 }, () => open()));
    expect(five.map((s) => s.response.status)).toStrictEqual([200, 200, 200, 200, 200]);
    const before = Number((await t.request('GET', '/v1/forms', { key })).headers.get('x-ratelimit-remaining'));
    const sixth = await t.request('GET', '/v1/events/stream', { key });
    expect(sixth.status).toBe(429);
    expect(sixth.body).toStrictEqual({ error: 'Too many open event streams for this API key', code: 'too_many_streams', cap: 5 });
    expect(Number(sixth.headers.get('x-ratelimit-remaining'))).toBe(before);
    // Another key of the account has its own five.
    const otherKey = await open('', { key: acme.apiKeys.forms!.key });
    expect(otherKey.response.status).toBe(200);
    // A closed stream gives its slot back.
    await five[0]!.close();
    await expect.poll(async () => (await open()).response.status, { timeout: 5000 }).toBe(200);
  });

  it('ends its streams, REST and GraphQL alike, once their key is revoked: nothing read after the revocation reaches them', async () => {
    const issued = await issueApiKey(t.db.prisma, t.deps.hasher, { accountId: acme.id, scopes: ['read:submissions'] });
    const rest = await open('', { key: issued.key });
    const graphql = await SseClient.open(`${baseUrl}/graphql`, {
      key: issued.key,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'subscription { events { id type } }' }),
    });
    clients.push(graphql);
    await expect.poll(() => t.deps.streams.stats.open, { timeout: 5000 }).toBe(2);
    await ingest('before');
    await rest.waitForEvents(1);
    await graphql.waitForEvents(1);
    await revokeApiKey(t.db.prisma, issued.id);
    await ingest('after');
    await rest.waitForEnd();
    await graphql.waitForEnd();
    expect(rest.events.map((event) => event.type)).toStrictEqual(['submission.created']);
    expect(graphql.results).toHaveLength(1);
    // The client's reconnection meets the revocation.
    expect((await t.request('GET', '/v1/events/stream', { key: issued.key })).status).toBe(401);
  });

  it('sends a keep-alive comment when idle', async () => {
    const stream = await open();
    await expect.poll(() => stream.comments, { timeout: 5000 }).toBeGreaterThanOrEqual(3);
  });

  it('ends its streams cleanly when the replica drains, and a reconnect with Last-Event-ID loses nothing', async () => {
    const local = await createTestApp({ db: t.db });
    const served = await serveOnLoopback(local.app);
    try {
      const stream = await SseClient.open(`${served.baseUrl}/v1/events/stream`, { key });
      await ingest('a');
      await stream.waitForEvents(1);
      await local.deps.streams.close();
      await stream.waitForEnd();
      await ingest('b');
      await ingest('c');
      const resumed = await open('', { headers: { 'last-event-id': stream.events.at(-1)!.id } });
      await resumed.waitForEvents(2);
      const ids = (await history()).map((event) => event.id);
      expect([...stream.events, ...resumed.events].map((m) => m.id)).toStrictEqual(ids);
    } finally {
      await closeHttpServer(served.server);
      await local.close();
    }
  });

  it('delivers every event exactly once and in order under concurrent ingests', async () => {
    const live = await open();
    await Promise.all(Array.from({ length: 40 }, (_, i) => ingest(`n${i}`)));
    await live.waitForEvents(40);
    const ids = (await history()).map((event) => event.id);
    expect(live.events.map((m) => m.id).sort()).toStrictEqual([...ids].sort());
    expect(new Set(live.events.map((m) => m.id)).size).toBe(40);
    // Resuming from any of them sends exactly the ones the live stream sent after it.
    const from = live.events[17]!.id;
    const resumed = await open('', { headers: { 'last-event-id': from } });
    await resumed.waitForEvents(22);
    expect(resumed.events.map((m) => m.id)).toStrictEqual(live.events.slice(18).map((m) => m.id));
  });

  it.skipIf(!process.env.DATABASE_URL)('never skips an event whose transaction commits after a later one (ids are taken before commit)', async () => {
    const live = await open();
    const early = new pg.Client({ connectionString: t.db.url! });
    await early.connect();
    try {
      // An event written first (smaller id, smaller transaction id) but committed last.
      const row = outboxRow({ type: 'form.updated', accountId: acme.id, formId: formId(), phi: false, data: { id: formId() } });
      await early.query('BEGIN');
      await early.query('INSERT INTO "OutboxEvent" ("accountId", "formId", "eventId", "type", "payload", "createdAt") VALUES ($1, $2, $3, $4, $5, $6)', [
        row.accountId, row.formId, row.eventId, row.type, row.payload, row.createdAt,
      ]);
      await ingest('committed first');
      // Held back while the earlier transaction is open: sending it now would move the stream past the earlier one.
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect(live.events).toStrictEqual([]);
      await early.query('COMMIT');
      await live.waitForEvents(2);
      expect(live.events.map((m) => m.type)).toStrictEqual(['form.updated', 'submission.created']);
      expect(live.events[0]!.id).toBe(row.eventId);
    } finally {
      await early.end();
    }
  });

  it.skipIf(!process.env.DATABASE_URL)('from the moment of connection never sends an event committed before it, while an older transaction holds the watermark back', async () => {
    // A transaction older than everything below, still running (on any database of the server, it holds the
    // snapshot's xmin): the stream's starting watermark falls below the events committed just before it connects.
    const older = new pg.Client({ connectionString: t.db.url! });
    await older.connect();
    try {
      await older.query('BEGIN');
      await older.query('SELECT pg_current_xact_id()');
      await ingest('Before');
      const next = await open();
      await ingest('After');
      await older.query('COMMIT');
      await next.waitForEvents(1);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(next.events.map((m) => (m.body.data as { formData: { Name: string } }).formData.Name)).toStrictEqual(['After']);
    } finally {
      await older.end();
    }
  });
});

describe('subscription { events } over server-sent events', () => {
  const SUBSCRIBE = 'subscription Live($type: String) { events(type: $type) { id type createdAt data } }';
  async function subscribe(variables: Record<string, unknown> = {}, k = key): Promise<SseClient> {
    const client = await SseClient.open(`${baseUrl}/graphql`, {
      key: k,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: SUBSCRIBE, variables }),
    });
    clients.push(client);
    return client;
  }

  it('sends each new event the key may see as GET /v1/events/{id} answers it', async () => {
    const live = await subscribe();
    const formsOnly = await subscribe({}, acme.apiKeys.forms!.key);
    expect(live.response.status).toBe(200);
    expect(live.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await expect.poll(() => t.deps.streams.stats.open, { timeout: 5000 }).toBe(2);
    await ingest('Ada');
    await rename('Renamed');
    await live.waitForEvents(2);
    await formsOnly.waitForEvents(1);
    const ids = (await history()).map((event) => event.id);
    const expected = await Promise.all(ids.map(async (id) => ({ data: { events: (await t.request('GET', `/v1/events/${id}`, { key })).body } })));
    expect(live.results).toStrictEqual(expected);
    expect(formsOnly.results).toStrictEqual([expected[1]]);
  });

  it('filters by a literal type argument, and by a variable of any name; an unknown type is validation_failed', async () => {
    const subscribeTo = async (query: string, variables: Record<string, unknown> = {}) => {
      const client = await SseClient.open(`${baseUrl}/graphql`, { key, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
      clients.push(client);
      return client;
    };
    const literal = await subscribeTo('subscription { events(type: "form.updated") { type } }');
    const renamedVariable = await subscribeTo('subscription Live($kind: String) { events(type: $kind) { type } }', { kind: 'form.updated' });
    await expect.poll(() => t.deps.streams.stats.open, { timeout: 5000 }).toBe(2);
    await ingest('Ada');
    await rename('Renamed');
    await literal.waitForEvents(1);
    await renamedVariable.waitForEvents(1);
    // The submission.created written first would have come first: only the form.updated did.
    expect(literal.results).toStrictEqual([{ data: { events: { type: 'form.updated' } } }]);
    expect(renamedVariable.results).toStrictEqual([{ data: { events: { type: 'form.updated' } } }]);

    const bogus = await subscribeTo('subscription { events(type: "bogus") { type } }');
    await bogus.waitForEvents(1);
    expect(bogus.results).toMatchObject([{ errors: [{ extensions: { code: 'validation_failed', fields: [{ field: 'type' }] } }] }]);
  });

  it('shares the cap of 5 with the REST streams, and gives the slot back when the client goes away', async () => {
    const rest = await Promise.all(Array.from({ length: 4 }, () => open()));
    const remaining = async (): Promise<number> => (await t.request('GET', '/v1/rate_limit', { key })).body.remaining;
    const beforeFifth = await remaining();
    const fifth = await subscribe();
    await expect.poll(() => t.deps.streams.stats.open, { timeout: 5000 }).toBe(5);
    // Opening a subscription costs 1 point, as the REST stream does; a refused one costs none (decisions §7.2).
    expect(await remaining()).toBe(beforeFifth - 1);
    const sixth = await t.app.fetch(
      new Request('http://gateway.test/graphql', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream', 'content-type': 'application/json' },
        body: JSON.stringify({ query: SUBSCRIBE }),
      }),
    );
    // GraphQL over SSE: the refusal is the one result of the stream, its status the code's (429).
    expect(sixth.status).toBe(429);
    // With the budget's headers and extensions.cost (nothing taken), as every answer after the gate.
    const budgetHeaders = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].map((name) => Number(sixth.headers.get(name)));
    const next = /event: next\ndata: (.*)\n/.exec(await sixth.text());
    expect(JSON.parse(next![1]!)).toStrictEqual({
      errors: [{ message: 'Too many open event streams for this API key', locations: [{ line: 1, column: 36 }], path: ['events'], extensions: { code: 'too_many_streams', cap: 5 } }],
      extensions: { cost: { requested: 1, actual: 0, limit: budgetHeaders[0], remaining: budgetHeaders[1], resetAt: new Date(budgetHeaders[2]! * 1000).toISOString() } },
    });
    expect(budgetHeaders[1]).toBe(beforeFifth - 1);
    expect(await remaining()).toBe(beforeFifth - 1);
    expect((await t.request('GET', '/v1/events/stream', { key })).status).toBe(429);
    await fifth.close();
    await expect.poll(() => t.deps.streams.stats.open, { timeout: 5000 }).toBe(4);
    expect(rest).toHaveLength(4);
  });
});

