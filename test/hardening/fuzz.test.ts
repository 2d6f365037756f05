import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TableRoute as Route } from '../../src/execution/route.js';
import { routes } from '../../src/execution/routes.js';
import { createTestApp, responseText, type TestApp } from '../support/app.js';
import { BODIES, GRAPHQL, HEADERS, PATH_IDS, prng, QUERIES, randomEncoded, randomJson } from './fuzz-cases.js';
import { placeholdersOf, seedWorld, type World } from './world.js';

/**
 * Hostile input on every row of the route table (iterated, so a new route is covered without a new line here)
 * and on /graphql: no answer may be a 5xx, and every error answer is the documented envelope
 * `{ error, code, …context fields the contract names }`. Runs on whichever database the suite runs on.
 */

const SEED = 15;
const RANDOM_CASES_PER_ROUTE = 12;
const CONTEXT_FIELDS = new Set(['error', 'code', 'candidates', 'required', 'fields', 'invalid', 'retryAfter', 'feature', 'resource', 'cap', 'used', 'domainId', 'method', 'attempts']);

interface Case {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const stats = { requests: 0, serverErrors: 0 };
const STREAMED_TYPES = ['application/x-ndjson', 'text/csv', 'text/event-stream'];

/** Why an answer breaks the contract, or null. */
function problem(c: Case, status: number, contentType: string, text: string): string | null {
  if (status >= 500) return `status ${status}: ${text.slice(0, 200)}`;
  if (c.method === 'HEAD') return text === '' ? null : 'HEAD answered with a body';
  if (status === 204) return text === '' ? null : '204 with a body';
  // A streamed route's success is its own media type (the export's NDJSON or CSV, the event stream); its errors are JSON like any other.
  if (status < 300 && STREAMED_TYPES.some((type) => contentType.startsWith(type))) return null;
  if (!contentType.includes('application/json')) return `content-type ${contentType}`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'a body that is not JSON';
  }
  if (status < 400) return null;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'an error body that is not an object';
  const record = body as Record<string, unknown>;
  if (typeof record.error !== 'string' || typeof record.code !== 'string') return `no error/code: ${text.slice(0, 200)}`;
  const extra = Object.keys(record).filter((key) => !CONTEXT_FIELDS.has(key));
  return extra.length ? `undocumented fields ${extra.join(', ')}` : null;
}

describe('fuzzing every route of the table', () => {
  let t: TestApp;
  let world: World;
  const failures: string[] = [];

  beforeAll(async () => {
    // The site's hostname goes to a closed loopback port: an attempt fails at once instead of waiting on DNS.
    t = await createTestApp({ env: { OUTBOUND_TEST_RESOLVE: 'acme.example:127.0.0.1:9,www.acme.example:127.0.0.1:9' } });
    world = await seedWorld(t.db, { rateLimitPerHour: 1_000_000 });
  });
  afterAll(async () => {
    console.log(`fuzz (${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded'}): ${stats.requests} requests, ${stats.serverErrors} answered 5xx`);
    await t?.close();
  });

  async function send(c: Case): Promise<void> {
    const headers = Object.fromEntries(
      Object.entries(c.headers).map(([name, value]) => [name, value.replace(/^Bearer key$/, `Bearer ${world.key}`).replace(/^siteKey$/, world.siteKey)]),
    );
    const bodyAllowed = c.method !== 'GET' && c.method !== 'HEAD';
    const request = new Request(`http://gateway.test${c.path}`, { method: c.method, headers, body: bodyAllowed ? c.body : undefined });
    const response = await t.app.fetch(request);
    const text = await responseText(response);
    stats.requests++;
    if (response.status >= 500) stats.serverErrors++;
    const found = problem(c, response.status, response.headers.get('content-type') ?? '', text);
    if (found) failures.push(`${c.method} ${c.path.slice(0, 120)} [${Object.keys(c.headers).join(',')}] body ${(c.body ?? '').slice(0, 60)}: ${found}`);
  }

  const credentials = (route: Route): Record<string, string> => (route.auth === 'apiKey' ? { authorization: 'Bearer key' } : { 'x-service-site-key': 'siteKey' });

  function casesFor(route: Route, random: () => number): Case[] {
    const path = `/v1${world.pathOf(route)}`;
    const auth = credentials(route);
    const json = { ...auth, 'content-type': 'application/json' };
    const withBody = route.method !== 'GET';
    const cases: Case[] = [];
    // Each path placeholder in turn ({id}, {deliveryId}, {eventId}), the others holding real ids.
    const placeholders = placeholdersOf(route);
    for (const placeholder of placeholders) {
      for (const id of [...PATH_IDS, randomEncoded(random)]) cases.push({ method: route.method, path: `/v1${world.pathWith(route, placeholder, id)}`, headers: json, body: '{}' });
    }
    for (const query of QUERIES) cases.push({ method: route.method, path: `${path}?${query}`, headers: json, body: '{}' });
    for (const headers of HEADERS) cases.push({ method: route.method, path, headers: { ...(headers.authorization || headers['x-service-site-key'] !== undefined ? {} : auth), ...headers }, body: '{}' });
    if (withBody) for (const body of BODIES) cases.push({ method: route.method, path, headers: json, body });
    for (const method of ['HEAD', 'PUT', 'OPTIONS']) cases.push({ method, path, headers: auth });
    for (let i = 0; i < RANDOM_CASES_PER_ROUTE; i++) {
      const id = random() < 0.5 ? randomEncoded(random) : String(Math.floor(random() * 2 ** 32) - 2 ** 31);
      cases.push({
        method: route.method,
        path: `/v1${placeholders.length ? world.pathWith(route, placeholders[i % placeholders.length]!, id) : route.path}?${QUERIES[Math.floor(random() * QUERIES.length)] ?? ''}&x=${randomEncoded(random)}`,
        headers: json,
        body: JSON.stringify(randomJson(random)),
      });
    }
    return cases;
  }

  // Archiving routes run last: the world's resources stay readable for the others.
  const ordered = [...routes].sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));

  it.each(ordered.map((route, index) => [`${route.method} ${route.path}`, route, index] as const))('never answers 5xx, always the error envelope: %s', async (_name, route, index) => {
    const before = failures.length;
    for (const c of casesFor(route, prng(SEED + index))) await send(c);
    expect(failures.slice(before)).toStrictEqual([]);
  });

  it('never answers 5xx on /graphql, whatever the document, variables or body', async () => {
    const before = failures.length;
    const graphqlProblem = (status: number, text: string): string | null => {
      if (status >= 500) return `status ${status}: ${text.slice(0, 200)}`;
      // Yoga's GraphQL-over-HTTP refusal of a body that is not JSON (text/plain): a bare 415, no document to answer.
      if (status === 415 && text === '') return null;
      try {
        const body = JSON.parse(text) as { errors?: { message?: unknown }[]; data?: unknown };
        if (!('data' in body) && !Array.isArray(body.errors)) return 'neither data nor errors';
        if (body.errors?.some((error) => typeof error.message !== 'string')) return 'an error without a message';
      } catch {
        return 'a body that is not JSON';
      }
      return null;
    };
    const keys = [undefined, world.key, `svc_live_${'A'.repeat(43)}`];
    for (const [body, extra] of GRAPHQL) {
      for (const key of keys) {
        const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json', ...extra, ...(key ? { authorization: `Bearer ${key}` } : {}) };
        const response = await t.app.fetch(new Request('http://gateway.test/graphql', { method: 'POST', headers, body }));
        const text = await response.text();
        stats.requests++;
        if (response.status >= 500) stats.serverErrors++;
        const found = graphqlProblem(response.status, text);
        if (found) failures.push(`POST /graphql ${body.slice(0, 60)} key ${key ? 'yes' : 'no'}: ${found}`);
      }
    }
    for (const query of ['{__typename}', `${'{a'.repeat(3000)}${'}'.repeat(3000)}`, '%zz', '']) {
      const response = await t.app.fetch(new Request(`http://gateway.test/graphql?query=${encodeURIComponent(query)}`, { headers: { accept: 'application/json', authorization: `Bearer ${world.key}` } }));
      const text = await response.text();
      stats.requests++;
      if (response.status >= 500) stats.serverErrors++;
      const found = graphqlProblem(response.status, text);
      if (found) failures.push(`GET /graphql?query=${query.slice(0, 40)}: ${found}`);
    }
    expect(failures.slice(before)).toStrictEqual([]);
  });
});
