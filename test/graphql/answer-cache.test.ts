import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ErasureJob } from '../../src/domain/submissions/erasure-requests.service.js';
import { createAnswerCache, unknownCoveredFields } from '../../src/execution/answer-cache.js';
import type { ImportedAccount } from '../../src/fixtures/fixture-import.js';
import { QUEUE } from '../../src/infra/jobs.js';
import { createEmailMatcher } from '../../src/infra/secrets.js';
import { toSchema } from '../../src/schema/index.js';
import { runErasureRequest } from '../../src/worker/jobs/erasure.job.js';
import { parse } from 'graphql';
import { createTestApp, type TestApp } from '../support/app.js';
import { SCOPES } from '../../src/scopes.js';
import { formFixture, seedAccount, siteFixture, TEST_SECRET_KEY } from '../support/seed.js';

/**
 * /graphql's cache of answers over forms and submissions (src/execution/answer-cache.ts) never serves a stale
 * body: after every kind of write that changes such an answer, the cached gateway answers what a gateway without
 * the cache answers, on the same database. Between writes, a repeated document is served from the cache (2
 * statements: the key and the version).
 */

let cached: TestApp;
let fresh: TestApp;
let acme: ImportedAccount;
let key: string;

beforeAll(async () => {
  cached = await createTestApp();
  fresh = await createTestApp({ db: cached.db, env: { GRAPHQL_ANSWER_CACHE_MB: '0' } });
});
afterAll(async () => {
  await fresh.close();
  await cached.close();
});
beforeEach(async () => {
  await cached.db.truncate();
  acme = await seedAccount(cached.db, {
    apiKeys: [{ ref: 'full', scopes: [...SCOPES] }, { ref: 'formsOnly', scopes: ['read:forms'] }],
    sites: [
      siteFixture({
        forms: [
          formFixture({ submissions: [{ formData: { Email: 'ada@example.com' } }, { formData: { Email: 'bob@example.com' } }] }),
          formFixture({ ref: 'other', name: 'Other', submissions: [{ formData: { n: 1 } }] }),
        ],
      }),
    ],
  });
  key = acme.apiKeys.full!.key;
});

const DASHBOARD = '{ forms(limit: 100) { data { id name submissionCount latestSubmissions(limit: 5) { id createdAt } } } }';
const DOCUMENTS: [string, string, (ids: { contact: number }) => Record<string, unknown>][] = [
  ['the dashboard', DASHBOARD, () => ({})],
  [
    'a form with its fields and pagination of the archived',
    'query($id: Int!) { form(id: $id) { id name type archived phi updatedAt fields { id label type required } } forms(archived: true) { pagination { total pages } data { id } } }',
    ({ contact }) => ({ id: contact }),
  ],
  [
    'a submissions page',
    'query($formId: Int!) { formSubmissions(formId: $formId, limit: 10) { data { id formData sourceDomain createdAt } pagination { total } cursor { next } } }',
    ({ contact }) => ({ formId: contact }),
  ],
];

/** The answer without its budget (`remaining` and `resetAt` move with every request), and the statements it took. */
async function ask(app: TestApp, query: string, variables: Record<string, unknown>, as = key) {
  app.db.resetQueryCount();
  const res = await app.graphql(query, variables, as);
  expect(res.status).toBe(200);
  return { data: res.body.data as unknown, errors: res.body.errors as unknown, statements: app.db.queries.length };
}

async function expectFreshEverywhere(): Promise<void> {
  const ids = { contact: acme.forms.contact!.id };
  for (const [, query, variables] of DOCUMENTS) {
    await cached.useKeyOnce(key);
    const served = await ask(cached, query, variables(ids));
    const truth = await ask(fresh, query, variables(ids));
    expect(served.data).toStrictEqual(truth.data);
    // Now kept: the same document again is served from the cache, in the key's and the version's statements.
    const again = await ask(cached, query, variables(ids));
    expect(again).toStrictEqual({ ...served, statements: 2 });
  }
}

async function ingest(formData: Record<string, unknown>, form = acme.forms.contact!.id): Promise<number> {
  const res = await cached.request('POST', `/v1/forms/${form}/submissions`, { key, body: { formData } });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

describe('GraphQL answer cache', () => {
  it('serves no stale body after any kind of write to forms or submissions', async () => {
    await expectFreshEverywhere();

    await ingest({ Email: 'carol@example.com' });
    await expectFreshEverywhere();

    await ingest({ n: 2 }, acme.forms.other!.id);
    await expectFreshEverywhere();

    const first = (await fresh.graphql('query($id: Int!) { formSubmissions(formId: $id) { data { id } } }', { id: acme.forms.contact!.id }, key)).body.data.formSubmissions.data.at(-1).id as number;
    expect((await cached.request('DELETE', `/v1/submissions/${first}`, { key })).status).toBe(204);
    await expectFreshEverywhere();

    const created = await cached.request('POST', '/v1/forms', { key, body: { name: 'Signup', fields: [{ type: 'email', label: 'Email', required: true }] } });
    expect(created.status).toBe(201);
    await expectFreshEverywhere();

    expect((await cached.request('PATCH', `/v1/forms/${acme.forms.contact!.id}`, { key, body: { name: 'Renamed', fields: [{ type: 'text', label: 'Name' }] } })).status).toBe(200);
    await expectFreshEverywhere();

    expect((await cached.request('DELETE', `/v1/forms/${created.body.id}`, { key })).status).toBe(204);
    await expectFreshEverywhere();

    // Erasure by email (the worker's job, run here): it deletes ada's submission.
    expect((await cached.request('POST', '/v1/erasure-requests', { key, body: { email: 'ada@example.com' } })).status).toBe(202);
    const jobs = await cached.queue.boss.fetch<ErasureJob>(QUEUE.erasureRun, { batchSize: 10 });
    for (const job of jobs) {
      await runErasureRequest({ db: cached.db, phi: cached.deps.phi, matchesEmail: createEmailMatcher(TEST_SECRET_KEY), batchSize: 10 }, job.data);
      await cached.queue.boss.complete(QUEUE.erasureRun, job.id);
    }
    expect(jobs.length).toBe(1);
    await expectFreshEverywhere();

    // The same through GraphQL's own mutations.
    const mutated = await cached.graphql('mutation($id: Int!) { ingestSubmission(formId: $id, formData: { x: 1 }) { replayed } }', { id: acme.forms.other!.id }, key);
    expect(mutated.body.errors).toBeUndefined();
    await expectFreshEverywhere();
  });

  it('serves a key only what its own scopes were answered', async () => {
    const full = await ask(cached, DASHBOARD, {});
    expect(full.errors).toBeUndefined();
    const narrow = await ask(cached, DASHBOARD, {}, acme.apiKeys.formsOnly!.key);
    // read:forms only: latestSubmissions is refused, never served from the full key's answer.
    expect(narrow.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'insufficient_scope' }) })]);
    // An answer with errors is not kept: the narrow key's document runs again.
    expect((await ask(cached, DASHBOARD, {}, acme.apiKeys.formsOnly!.key)).statements).toBeGreaterThan(2);
  });

  it('never serves an account with a PHI form from the cache: each read of its submissions is audited', async () => {
    const phi = await seedAccount(cached.db, { ref: 'clinic', sites: [siteFixture({ forms: [formFixture({ phi: true, submissions: [{ formData: { Diagnosis: 'x' } }] })] })] });
    const clinicKey = phi.apiKeys.full!.key;
    await cached.useKeyOnce(clinicKey);
    const audits = () => cached.db.prisma.auditEvent.count({ where: { accountId: phi.id, action: 'submission.read' } });
    const before = await audits();
    await ask(cached, DASHBOARD, {}, clinicKey);
    await ask(cached, DASHBOARD, {}, clinicKey);
    expect(await audits()).toBe(before + 2);
  });

  it('runs every document that reads what the version does not cover (a form domain, the budget, a domain filter)', async () => {
    const documents = ['{ forms { data { id domain { id } latestSubmissions { id } } } }', '{ forms { data { id latestSubmissions { id } } } rateLimit { remaining } }', '{ forms(domainId: 1) { data { id latestSubmissions { id } } } }'];
    for (const query of documents) {
      await ask(cached, query, {});
      // The key, the page, its submissions: no version read, nothing kept.
      expect((await ask(cached, query, {})).statements, query).toBe(3);
    }
  });
});

describe('answer cache bookkeeping', () => {
  const schema = toSchema();
  it('names only fields the schema has', () => {
    expect(unknownCoveredFields(schema)).toStrictEqual([]);
  });

  it('holds at most its byte budget, the least recently used going first; 0 keeps nothing', () => {
    const viewer = { kind: 'apiKey' as const, accountId: 1, keyId: 1, scopes: new Set(['read:forms' as const]), plan: 'pro' as const, rateLimitPerHour: 10 };
    const cache = createAnswerCache(schema, 10);
    const doc = (n: number) => parse(`{ forms(limit: ${n}) { data { id } } }`);
    const keys = [1, 2, 3].map((n) => cache.keyOf(doc(n), null, {}, viewer)!);
    cache.set(keys[0]!, '1', { data: 'aaaa', actual: 1 });
    cache.set(keys[1]!, '1', { data: 'bbbb', actual: 1 });
    expect(cache.get(keys[0]!, '1')).toBeDefined();
    cache.set(keys[2]!, '1', { data: 'cccc', actual: 1 });
    expect([cache.get(keys[0]!, '1'), cache.get(keys[1]!, '1'), cache.get(keys[2]!, '1')].map((entry) => entry?.data)).toStrictEqual(['aaaa', undefined, 'cccc']);
    expect(cache.get(keys[0]!, '2')).toBeUndefined();
    expect(createAnswerCache(schema, 0).keyOf(doc(1), null, {}, viewer)).toBeNull();
  });
});
