import { serverAudits } from 'graphql-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpServer, serveOnLoopback } from '../support/http-server.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { seedAccount } from '../support/seed.js';

/**
 * POST /graphql as the GraphQL-over-HTTP spec has it, audited by the graphql-http package against a live server
 * with a valid key (every audit: MUST, SHOULD and MAY).
 */
describe('POST /graphql over HTTP', () => {
  let t: TestApp;
  let key: string;
  let live: Awaited<ReturnType<typeof serveOnLoopback>>;
  beforeAll(async () => {
    t = await createTestApp();
    key = (await seedAccount(t.db)).apiKeys.full!.key;
    live = await serveOnLoopback(t.app);
  });
  afterAll(async () => {
    await closeHttpServer(live.server);
    await t.close();
  });

  it('passes every graphql-http server audit with a valid key', async () => {
    const fetchFn = (input: RequestInfo | URL, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      headers.set('authorization', `Bearer ${key}`);
      return fetch(input, { ...init, headers });
    };
    const audits = serverAudits({ url: `${live.baseUrl}/graphql`, fetchFn });
    const failed: string[] = [];
    for (const audit of audits) {
      const result = await audit.fn();
      if (result.status !== 'ok') failed.push(`${audit.name}: ${result.status} ${result.reason}`);
    }
    expect(audits.length).toBeGreaterThan(50);
    expect(failed).toStrictEqual([]);
  });
});
