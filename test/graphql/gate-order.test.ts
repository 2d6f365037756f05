import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../src/errors.js';
import type { ImportedAccount } from '../../src/fixtures/fixture-import.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { closeHttpServer, serveOnLoopback } from '../support/http-server.js';
import { formFixture, seedAccount } from '../support/seed.js';

/*
 * /graphql over a real socket, as clients read it: the gate comes first (contract §4: 401 → 402 → 429 → 403 → 400),
 * a document that does not parse or validate answers v1's `validation_failed` with the budget's headers, and each
 * header is sent once (a 429's `Retry-After` twice read "3600, 3600" to a fetch client, which is no integer).
 */

let t: TestApp;
let served: Awaited<ReturnType<typeof serveOnLoopback>>;
let acme: ImportedAccount;
let free: ImportedAccount;

beforeAll(async () => {
  t = await createTestApp();
  served = await serveOnLoopback(t.app);
  acme = await seedAccount(t.db, {
    apiKeys: [
      { ref: 'one', scopes: ['read:forms'], rateLimitPerHour: 1 },
      { ref: 'full', scopes: ['read:forms'] },
    ],
    sites: [{ ref: 'main', domain: 'acme.example', environment: 'production', verified: true, method: 'dns_txt', forms: [formFixture({ ref: 'f', name: 'F' })] }],
  });
  free = await seedAccount(t.db, { ref: 'free', plan: 'free', ownerEmail: 'free@example.com', apiKeys: [{ ref: 'k', scopes: ['read:forms'] }], sites: [] });
});
afterAll(async () => {
  await closeHttpServer(served.server);
  await t.close();
});

interface RawAnswer {
  status: number;
  /** Header names as sent, lower-cased, once per line on the wire. */
  names: string[];
  header: (name: string) => string | undefined;
  body: { errors?: { message: string; extensions: Record<string, unknown> }[]; data?: unknown };
}

/** node:http's rawHeaders: every header line as it came (fetch would join duplicates into one value). */
function post(body: string, key: string | null, extra: Record<string, string> = {}): Promise<RawAnswer> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}), ...extra };
  return new Promise((resolve, reject) => {
    const req = request(`${served.baseUrl}/graphql`, { method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const names = res.rawHeaders.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase());
        resolve({ status: res.statusCode!, names, header: (name) => res.headers[name] as string | undefined, body: JSON.parse(text) });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const query = (document: string) => JSON.stringify({ query: document });
const RATE_LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

describe('/graphql: the gate before the document', () => {
  it('answers 401 without a valid key, whatever the document or body', async () => {
    for (const [body, key] of [
      [query('{ forms { nope } }'), null],
      [query('{ forms { '), 'svc_live_not_a_key'],
      ['{bad', null],
      [JSON.stringify({ nothing: true }), null],
    ] as const) {
      const res = await post(body, key);
      expect(res.status, body).toBe(401);
      expect(res.body.errors?.[0]?.extensions.code, body).toBe('invalid_api_key');
    }
  });

  it("answers 402 to a Free plan's key before looking at its document", async () => {
    const res = await post(query('{ forms { nope } }'), free.apiKeys.k!.key);
    expect(res.status).toBe(402);
    expect(res.body.errors?.[0]?.extensions.code).toBe('plan_feature_gated');
  });

  it('answers a document that does not parse or validate with validation_failed naming `query`, and the budget headers', async () => {
    const key = acme.apiKeys.full!.key;
    for (const document of ['{ forms { nope } }', '{ forms { ']) {
      const res = await post(query(document), key);
      expect(res.status, document).toBe(200);
      const [error] = res.body.errors!;
      expect(error!.extensions).toStrictEqual({ code: 'validation_failed', fields: [{ field: 'query', message: error!.message }] });
      for (const name of RATE_LIMIT_HEADERS) expect(res.header(name), name).toMatch(/^\d+$/);
    }
  });
});

describe('/graphql: the database lost', () => {
  it('answers 503 service_unavailable with Retry-After, as REST does (a 200 hid the outage from the 5xx alerts)', async () => {
    const lost = new AppError('service_unavailable', { retryAfter: 1 }, { headers: { 'Retry-After': '1' } });
    const sql = vi.spyOn(t.db, 'sql').mockRejectedValue(lost);
    try {
      const answer = await post(query('{ forms { data { id } } }'), acme.apiKeys.full!.key);
      expect([answer.status, answer.header('retry-after'), answer.body.errors?.map((error) => error.extensions.code)]).toStrictEqual([503, '1', ['service_unavailable']]);
    } finally {
      sql.mockRestore();
    }
  });
});

describe("/graphql: a site key's fields", () => {
  it('answer an API key insufficient_scope, saying where they are served', async () => {
    for (const document of ['{ siteVerification { domain } }', '{ siteCatalog { data { id } } }']) {
      const res = await post(query(document), acme.apiKeys.full!.key);
      expect(res.status, document).toBe(200);
      expect(res.body.errors?.[0]).toMatchObject({ message: expect.stringContaining('X-Service-Site-Key'), extensions: { code: 'insufficient_scope' } });
    }
  });
});

describe('/graphql: media types', () => {
  it('answers a Content-Type it cannot read 415, and an Accept it cannot answer 406, in the GraphQL error shape with v1 codes', async () => {
    const key = acme.apiKeys.full!.key;
    const text = await post(query('{ rateLimit { remaining } }'), key, { 'content-type': 'text/plain' });
    expect([text.status, text.body.errors?.[0]?.extensions.code]).toStrictEqual([415, 'unsupported_media_type']);
    const json = await post(query('subscription { events { id } }'), key, { accept: 'application/json' });
    expect([json.status, json.body.errors?.[0]?.extensions.code]).toStrictEqual([406, 'not_acceptable']);
    expect(json.header('content-type')).toBe('application/json; charset=utf-8');
  });

  it('answers a HEAD from a browser (Accept: text/html) 405 with Allow, as any other client, not 406', async () => {
    for (const accept of ['text/html', 'application/json', '*/*']) {
      const answer = await fetch(`${served.baseUrl}/graphql`, { method: 'HEAD', headers: { accept } });
      expect([accept, answer.status, answer.headers.get('allow')]).toStrictEqual([accept, 405, 'GET, POST']);
    }
    const put = await fetch(`${served.baseUrl}/graphql`, { method: 'PUT', headers: { accept: 'text/html' } });
    expect([put.status, put.headers.get('allow'), ((await put.json()) as { errors: { extensions: object }[] }).errors[0]!.extensions]).toStrictEqual([405, 'GET, POST', { code: 'method_not_allowed' }]);
  });
});

describe('/graphql: each header once', () => {
  it("sends the GraphiQL page's Content-Type once", async () => {
    const names = await new Promise<string[]>((resolve, reject) => {
      request(`${served.baseUrl}/graphql`, { headers: { accept: 'text/html' } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.rawHeaders.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase())));
      })
        .on('error', reject)
        .end();
    });
    expect(names.filter((name) => name === 'content-type')).toHaveLength(1);
  });

  it('sends the rate-limit headers and Retry-After of a 429 once each, as integers', async () => {
    const key = acme.apiKeys.one!.key;
    expect((await post(query('{ forms { data { id } } }'), key)).status).toBe(200);
    const refused = await post(query('{ forms { data { id } } }'), key);
    expect(refused.status).toBe(429);
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'rate_limited' });
    for (const name of [...RATE_LIMIT_HEADERS, 'retry-after']) {
      expect(refused.names.filter((sent) => sent === name), name).toHaveLength(1);
      expect(refused.header(name), name).toMatch(/^\d+$/);
    }
    expect(refused.body.errors?.[0]?.extensions.retryAfter).toBe(Number(refused.header('retry-after')));
  });
});
