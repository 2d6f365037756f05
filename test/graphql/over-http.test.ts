import { serverAudits } from 'graphql-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequestContext } from '../../src/execution/request-context.js';
import { createCompiledPath } from '../../src/graphql/compiled-path.js';
import { toSchema } from '../../src/schema/index.js';
import { closeHttpServer, serveOnLoopback } from '../support/http-server.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { seedAccount } from '../support/seed.js';

/**
 * POST /graphql as the GraphQL-over-HTTP spec has it, audited by the graphql-http package against a live server
 * with a valid key (every audit: MUST, SHOULD and MAY), and the compiled path (src/graphql/compiled-path.ts)
 * answering exactly as Yoga did: the same request sent on both (an Origin header sends it through Yoga) gets the same
 * status, content type and body.
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

  const post = async (body: string, headers: Record<string, string>) => {
    const response = await fetch(`${live.baseUrl}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, ...headers }, body });
    return { status: response.status, type: response.headers.get('content-type'), remaining: response.headers.has('x-ratelimit-remaining'), body: await response.text() };
  };

  it.each([
    ['a query', { query: '{ forms(limit: 2) { data { id name submissionCount latestSubmissions(limit: 1) { id createdAt } } pagination { total } } }' }, {}],
    ['a query with variables and an operation name', { query: 'query A($n: Int) { forms(limit: $n) { pagination { total } } } query B { __typename }', operationName: 'A', variables: { n: 1 } }, {}],
    ['a field error (absent form)', { query: '{ form(id: 999999) { id } }' }, {}],
    ['variables that do not fit', { query: 'query ($n: Int) { forms(limit: $n) { pagination { total } } }', variables: { n: 'x' } }, {}],
    ['an invalid document', { query: '{ nope }' }, {}],
    ['a syntax error', { query: '{ forms(' }, {}],
    ['a mutation refused by its input', { query: 'mutation { createForm(input: { name: "", fields: [] }) { id } }' }, {}],
    ['the GraphQL response media type', { query: '{ __typename }' }, { accept: 'application/graphql-response+json' }],
    ['an error with the GraphQL response media type', { query: '{ form(id: 999999) { id } }' }, { accept: 'application/graphql-response+json' }],
  ])('answers %s on the compiled path as Yoga does', async (_name, body, headers) => {
    const text = JSON.stringify(body);
    const compiled = await post(text, headers);
    const yoga = await post(text, { ...headers, origin: 'https://dashboard.example' });
    expect(compiled).toStrictEqual(yoga);
  });

  it('takes a plain JSON POST itself and leaves to Yoga only what it does not run whole, before the gate', async () => {
    const path = createCompiledPath(toSchema(), (errors) => [...errors]);
    const send = async (body: unknown, headers: Record<string, string> = {}, method = 'POST') => {
      const context = createRequestContext(t.deps);
      const init: RequestInit = { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, ...headers } };
      if (method === 'POST') init.body = typeof body === 'string' ? body : JSON.stringify(body);
      const answer = await path.handle(new Request('http://gateway.test/graphql', init), context);
      return { took: !('yoga' in answer), admitted: context.viewer !== null };
    };
    expect(await send({ query: '{ forms(limit: 1) { pagination { total } } }' })).toStrictEqual({ took: true, admitted: true });
    expect(await send({ query: 'mutation { createForm(input: { name: "", fields: [] }) { id } }' })).toStrictEqual({ took: true, admitted: true });
    for (const [body, headers, method] of [
      [{ query: '{ nope }' }, {}, 'POST'],
      ['{"query": ', {}, 'POST'],
      [{ query: '{ __typename }', extensions: { persistedQuery: {} } }, {}, 'POST'],
      [{ query: 'subscription { events { id } }' }, {}, 'POST'],
      [{ query: '{ __typename }' }, { accept: 'text/event-stream' }, 'POST'],
      [{ query: '{ __typename }' }, { origin: 'https://dashboard.example' }, 'POST'],
      [null, {}, 'GET'],
    ] as const) {
      expect(await send(body, headers, method), JSON.stringify(body)).toStrictEqual({ took: false, admitted: false });
    }
  });

  it('answers a bad key on the compiled path as Yoga does (401, the v1 code)', async () => {
    const text = JSON.stringify({ query: '{ __typename }' });
    const compiled = await post(text, { authorization: 'Bearer svc_live_nope' });
    const yoga = await post(text, { authorization: 'Bearer svc_live_nope', origin: 'https://dashboard.example' });
    expect(compiled).toStrictEqual(yoga);
    expect(compiled.status).toBe(401);
  });
});
