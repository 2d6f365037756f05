import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventStreamError, streamEvents, type LiveEvent } from '../../clients/typescript/src/index.js';
import type { ImportedAccount } from '../../src/fixtures/fixture-import.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { closeHttpServer, serveOnLoopback } from '../support/http-server.js';
import { seedAccount } from '../support/seed.js';

/** The typed client's `streamEvents` against a live server: it yields events and resumes by itself after a drop. */

let t: TestApp;
let server: Server;
let baseUrl: string;
let account: ImportedAccount;

beforeAll(async () => {
  t = await createTestApp();
  account = await seedAccount(t.db);
  ({ server, baseUrl } = await serveOnLoopback(t.app));
});
afterAll(async () => {
  await closeHttpServer(server);
  await t.close();
});

const ingest = async (name: string) =>
  expect((await t.request('POST', `/v1/forms/${account.forms.contact!.id}/submissions`, { key: account.apiKeys.full!.key, body: { formData: { Name: name } } })).status).toBe(201);

describe('streamEvents (clients/typescript)', () => {
  it('yields every event once, in order, reconnecting with Last-Event-ID after the connection drops', async () => {
    const abort = new AbortController();
    const seen: LiveEvent[] = [];
    const consumer = (async () => {
      for await (const event of streamEvents({ baseUrl, apiKey: account.apiKeys.full!.key, signal: abort.signal, retryMs: 100 })) {
        seen.push(event);
        if (seen.length === 2) {
          // The network drops every connection; two events are written while the client is away.
          server.closeAllConnections();
          await ingest('c');
          await ingest('d');
        }
        if (seen.length === 4) abort.abort();
      }
    })();
    await expect.poll(() => t.deps.streams.stats.open, { timeout: 5000 }).toBe(1);
    await ingest('a');
    await ingest('b');
    await consumer;
    const listed = (await t.request('GET', '/v1/events', { key: account.apiKeys.full!.key })).body.data as LiveEvent[];
    expect(seen).toStrictEqual([...listed].reverse());
    expect(seen.map((event) => (event.data as { formData: { Name: string } }).formData.Name)).toStrictEqual(['a', 'b', 'c', 'd']);
  });

  it('throws EventStreamError on a refusal that a reconnect cannot fix', async () => {
    const stream = streamEvents({ baseUrl, apiKey: account.apiKeys.full!.key, lastEventId: 'evt_gone' });
    const error = await stream.next().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EventStreamError);
    expect((error as EventStreamError).status).toBe(400);
  });
});
