import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isStreamRoute } from '../../src/execution/route.js';
import { routes } from '../../src/execution/routes.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { driveCorpus } from './corpus.js';

/*
 * Every route of the table, driven in one fixed sequence against seeded data with fixed dates (./corpus.ts), answers exactly
 * the bytes recorded in recorded-bodies.json (recorded on the code before the one-description refactor): a
 * refactor of how bodies are produced must not change one byte. Values made at request time (dates of rows the
 * sequence creates, webhook secrets, generated field ids, event ids) are replaced by placeholders; everything else is compared verbatim.
 * Re-record only for an intended contract change: RECORD_BODIES=1 npx vitest run test/rest/recorded-bodies.test.ts
 */

const FIXTURE = fileURLToPath(new URL('./recorded-bodies.json', import.meta.url));
/** The OpenAPI document's examples are these real answers (src/rest/openapi.ts reads the file). */
const EXAMPLES = fileURLToPath(new URL('../../src/rest/openapi-examples.json', import.meta.url));
const FIELDS = fileURLToPath(new URL('./v1-fields.json', import.meta.url));
const KEPT_HEADERS = ['content-type', 'location', 'idempotent-replayed', 'allow', 'retry-after', 'x-ratelimit-limit'];

interface Recorded {
  name: string;
  request: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Request-time values: dates of rows created by the sequence (within a day of now) and shown-once secrets. */
function normalize(text: string): string {
  const now = Date.now();
  return text
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g, (iso) => (Math.abs(Date.parse(iso) - now) < 86_400_000 ? '<now>' : iso))
    .replace(/whsec_[A-Za-z0-9+/=]+/g, 'whsec_<secret>')
    .replace(/"f_[0-9a-f]{12}"/g, '"f_<generated>"')
    .replace(/evt_[0-9a-z]{9}[A-Za-z0-9_-]{16}/g, 'evt_<id>')
    // API keys (shown once) and their last four characters are random; a window's end is the run's clock.
    .replace(/svc_live_[A-Za-z0-9_-]{43}/g, 'svc_live_<key>')
    .replace(/"lastFour":"[^"]{4}"/g, '"lastFour":"<last4>"')
    .replace(/"reset":\d+/g, '"reset":1795521600');
}

/** A placeholder made for comparison becomes a plausible value again in an example. */
const exampleValue = (text: string): unknown => JSON.parse(text.replaceAll('"<now>"', '"2026-11-24T12:00:00.000Z"').replaceAll('whsec_<secret>', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'));

const EXAMPLE_NOW = Date.parse('2026-11-24T12:00:00.000Z');
/** Request dates made relative to the run's clock (a replay window) keep their distance from a fixed "now". */
function fixedDates(value: unknown): unknown {
  const now = Date.now();
  const hour = 3_600_000;
  return JSON.parse(
    JSON.stringify(value).replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g, (iso) => {
      const offset = Date.parse(iso) - now;
      return Math.abs(offset) < 7 * 24 * hour ? new Date(EXAMPLE_NOW + Math.round(offset / hour) * hour).toISOString() : iso;
    }),
  );
}

/**
 * Per route (`METHOD /path`): the first request body that succeeded, and per status the first answer of each
 * error code (or the first success), each named after its step.
 */
function examplesOf(tableRoutes: { method: string; path: string }[], answers: Recorded[], bodies: unknown[]) {
  const out: Record<string, { request?: { summary: string; value: unknown }; responses: Record<string, Record<string, { summary: string; value: unknown }>> }> = {};
  answers.forEach((answer, index) => {
    const route = tableRoutes.find((r) => new RegExp(`^${r.method} /v1${r.path.replace(/\{\w+\}/g, '[^/?]+')}(\\?.*)?$`).test(answer.request));
    if (!route || !answer.body) return;
    const entry = (out[`${route.method} ${route.path}`] ??= { responses: {} });
    const body = exampleValue(answer.body) as { code?: string };
    const name = answer.status >= 400 ? (body.code ?? 'error') : 'success';
    const byStatus = (entry.responses[String(answer.status)] ??= {});
    byStatus[name] ??= { summary: answer.name, value: body };
    const sent = bodies[index];
    if (answer.status < 300 && sent !== undefined && !entry.request) entry.request = { summary: answer.name, value: fixedDates(sent) };
  });
  return out;
}

describe('recorded v1 bodies', () => {
  let t: TestApp;
  let recorded: Recorded[];
  /** The request body each recorded step sent (same order as `recorded`). */
  let requestBodies: unknown[];
  let events: unknown[];

  beforeAll(async () => {
    t = await createTestApp();
    recorded = [];
    requestBodies = [];
    for (const { step, response } of await driveCorpus(t)) {
      const headers = Object.fromEntries(KEPT_HEADERS.flatMap((name) => (response.headers.has(name) ? [[name, response.headers.get(name) ?? '']] : [])));
      recorded.push({ name: step.name, request: `${step.method} ${step.path}`, status: response.status, headers, body: normalize(response.text) });
      requestBodies.push(step.body);
    }
    const outbox = await t.db.prisma.outboxEvent.findMany({ orderBy: { id: 'asc' } });
    // The event's id is random (a UUID); its type, date and data are what the refactor must keep.
    events = outbox.map((event) => {
      const { id: _id, ...payload } = event.payload as Record<string, unknown>;
      return JSON.parse(normalize(JSON.stringify(payload))) as unknown;
    });
  });
  afterAll(async () => t.close());

  it('answers every step with exactly the recorded status, headers and body bytes', () => {
    const current = { responses: recorded, events };
    if (process.env.RECORD_BODIES === '1' || !existsSync(FIXTURE)) writeFileSync(FIXTURE, `${JSON.stringify(current, null, 2)}\n`);
    const expected = JSON.parse(readFileSync(FIXTURE, 'utf8')) as typeof current;
    expect(current.responses).toStrictEqual(expected.responses);
    expect(current.events).toStrictEqual(expected.events);
  });

  // Streamed rows (the export, the event stream) are left out by name: their bodies are not JSON and are read as they
  // stream; test/export and test/streams hold their bytes (each NDJSON line and event equal to GET's body), headers and errors.
  const tableRoutes = routes.filter((route) => !isStreamRoute(route));

  it('leaves out only the streamed rows', () => {
    expect(routes.filter(isStreamRoute).map((route) => `${route.method} ${route.path}`)).toEqual(['GET /events/stream', 'GET /forms/{id}/submissions/export']);
  });

  it('gives the OpenAPI document these real answers as its examples (regenerated with RECORD_BODIES=1)', () => {
    const examples = examplesOf(tableRoutes, recorded, requestBodies);
    if (process.env.RECORD_BODIES === '1' || !existsSync(EXAMPLES)) writeFileSync(EXAMPLES, `${JSON.stringify(examples, null, 2)}\n`);
    expect(JSON.parse(readFileSync(EXAMPLES, 'utf8'))).toStrictEqual(examples);
  });

  it('drives every route of the table to a success', () => {
    const patterns = tableRoutes.map((route) => ({
      route: `${route.method} ${route.path}`,
      pattern: new RegExp(`^${route.method} /v1${route.path.replace(/\{\w+\}/g, '[^/?]+')}(\\?.*)?$`),
    }));
    const succeeded = new Set(recorded.filter((r) => r.status < 300).flatMap((r) => patterns.filter((p) => p.pattern.test(r.request)).map((p) => p.route)));
    expect(tableRoutes.map((route) => `${route.method} ${route.path}`).filter((route) => !succeeded.has(route))).toEqual([]);
  });

  it('gives every 2xx body exactly the fields the v1 document lists for it (v1-fields.json)', () => {
    const documented = JSON.parse(readFileSync(FIELDS, 'utf8')) as Record<string, FieldList>;
    const checked = new Set<string>();
    for (const response of recorded.filter((r) => r.status < 300 && r.body)) {
      const route = tableRoutes.find((candidate) => new RegExp(`^${candidate.method} /v1${candidate.path.replace(/\{\w+\}/g, '[^/?]+')}(\\?.*)?$`).test(response.request));
      const name = `${route?.method} ${route?.path}`;
      const list = documented[name];
      expect(list, `${name} has a documented field list`).toBeDefined();
      if (!list) continue;
      checked.add(name);
      const body = JSON.parse(response.body) as Record<string, unknown>;
      for (const problem of compareFields(body, list, `${response.name} (${response.request})`)) expect.fail(problem);
    }
    expect([...checked].sort()).toEqual(Object.keys(documented).sort());
  });
});

/**
 * A documented field list: `fields` every body has; `optional` members shown only in some states (instructions
 * while unverified, the optional field-element properties when set); `nested` lists for object members, and
 * for arrays their items. A list route's entry is `{ list: <item list> }`.
 */
interface FieldList {
  fields?: string[];
  optional?: string[];
  nested?: Record<string, FieldList>;
  list?: FieldList;
}

function compareFields(value: unknown, list: FieldList, where: string): string[] {
  if (list.list) {
    const envelope = value as { data: unknown[]; pagination: unknown };
    // Page mode's pagination, or cursor mode's (decisions §7.6: `after` given, `{ limit, next }`).
    const cursorMode = /[?&]after=/.test(where);
    const pagination = cursorMode ? ['limit', 'next'] : ['page', 'limit', 'total', 'pages'];
    const problems = compareFields(value, { fields: ['data', 'pagination'], nested: { pagination: { fields: pagination } } }, where);
    envelope.data.forEach((item, i) => problems.push(...compareFields(item, list.list!, `${where} data[${i}]`)));
    return problems;
  }
  if (Array.isArray(value)) return value.flatMap((item, i) => compareFields(item, list, `${where}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  const keys = Object.keys(value);
  const problems: string[] = [];
  const missing = (list.fields ?? []).filter((field) => !keys.includes(field));
  const extra = keys.filter((key) => !(list.fields ?? []).includes(key) && !(list.optional ?? []).includes(key));
  if (missing.length) problems.push(`${where}: missing ${missing.join(', ')}`);
  if (extra.length) problems.push(`${where}: undocumented ${extra.join(', ')}`);
  for (const [member, inner] of Object.entries(list.nested ?? {})) {
    const child = (value as Record<string, unknown>)[member];
    if (child !== undefined) problems.push(...compareFields(child, inner, `${where}.${member}`));
  }
  return problems;
}
