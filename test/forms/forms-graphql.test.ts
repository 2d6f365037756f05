import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ImportedAccount } from '../../src/fixtures/fixture-import.js';
import { createTestApp, type TestApp, type TestResponse } from '../support/app.js';
import { issueApiKey } from '../../src/domain/accounts/api-keys.service.js';
import { accountFixture, formFixture, seed, siteFixture, testHasher } from '../support/seed.js';

let t: TestApp;
let acme: ImportedAccount;
let key: string;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());
beforeEach(async () => {
  await t.db.truncate();
  const result = await seed(t.db, {
    accounts: [
      accountFixture({
        plan: 'business',
        sites: [
          siteFixture({
            forms: Array.from({ length: 100 }, (_, i) => formFixture({ ref: `f${i}`, name: `Form ${i}`, submissions: Array.from({ length: 7 }, (_, j) => ({ formData: { n: j } })) })),
          }),
          siteFixture({ ref: 'second', domain: 'second.example', forms: [] }),
        ],
      }),
    ],
  });
  acme = result.accounts.acme!;
  key = acme.apiKeys.full!.key;
});

/** The GraphQL error as the v1 REST body would show it. */
const asRestBody = (res: TestResponse) => {
  const { message, extensions } = res.body.errors[0];
  const { http: _http, ...context } = extensions;
  return { error: message, ...context };
};

const CREATE = 'mutation($input: CreateFormInput!) { createForm(input: $input) { id name type domain { id domain } fields { id type label } } }';

describe('forms over GraphQL', () => {
  it('fails createForm exactly like POST /v1/forms: domain_required with candidates, validation_failed with fields', async () => {
    const fields = [{ type: 'text', label: 'Name' }];
    for (const input of [{ name: 'x', fields }, { name: '', fields }, { name: 'x', fields: [] }, { name: 'x', fields, type: 'wizard' }]) {
      const rest = await t.request('POST', '/v1/forms', { key, body: input });
      const gql = await t.graphql(CREATE, { input }, key);
      expect(gql.status).toBe(200);
      expect(asRestBody(gql), JSON.stringify(input)).toStrictEqual(rest.body);
    }
  });

  it('refuses a domainId filter that is not a positive integer, as GET /v1/forms?domainId=0 does', async () => {
    const rest = await t.request('GET', '/v1/forms?domainId=0', { key });
    expect([rest.status, rest.body.fields]).toStrictEqual([400, [{ field: 'domainId', message: 'must be a positive integer' }]]);
    for (const domainId of [0, -3]) {
      const res = await t.graphql('query($d: Int) { forms(domainId: $d) { data { id } } }', { d: domainId }, key);
      expect(res.body.errors?.[0]?.extensions, String(domainId)).toMatchObject({ code: 'validation_failed', fields: rest.body.fields });
    }
  });

  it('creates, updates and archives through the same services as REST', async () => {
    const created = await t.graphql(CREATE, { input: { name: 'G', fields: [{ id: 'a', type: 'text', label: 'A' }], domainId: acme.sites.second!.id } }, key);
    const form = created.body.data.createForm;
    expect(form).toStrictEqual({ id: expect.any(Number), name: 'G', type: 'standard', domain: { id: acme.sites.second!.id, domain: 'second.example' }, fields: [{ id: 'a', type: 'text', label: 'A' }] });
    const rest = await t.request('GET', `/v1/forms/${form.id}`, { key });
    expect(rest.body).toMatchObject({ id: form.id, name: 'G' });
    const renamed = await t.graphql('mutation($id: Int!) { updateForm(id: $id, input: { name: "H" }) { name } }', { id: form.id }, key);
    expect(renamed.body.data.updateForm).toStrictEqual({ name: 'H' });
    await t.graphql('mutation($id: Int!) { archiveForm(id: $id) }', { id: form.id }, key);
    expect((await t.request('GET', `/v1/forms/${form.id}`, { key })).status).toBe(404);
  });

  it('serves the dashboard query (100 forms, counts, domains, latest 5 submissions) in a constant number of statements', async () => {
    await t.useKeyOnce(key);
    t.db.resetQueryCount();
    const res = await t.graphql(
      '{ forms(limit: 100) { data { id name submissionCount domain { domain } latestSubmissions(limit: 5) { id createdAt } } pagination { total } } }',
      {},
      key,
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.forms.data).toHaveLength(100);
    expect(res.body.data.forms.data[0].submissionCount).toBe(7);
    expect(res.body.data.forms.data[0].latestSubmissions).toHaveLength(5);
    // key lookup + the forms page (domains and total joined in) + one lateral join for all latest submissions
    expect(t.db.queries, t.db.queries.join('\n')).toHaveLength(3);
  });

  it('reads the forms’ fields only for a list that shows them (directly or through a fragment)', async () => {
    await t.useKeyOnce(key);
    const listStatement = () => t.db.queries.find((sql) => sql.includes('from "Form" as "f"') && sql.includes('OVER ()')) ?? '';
    const expected = [
      { id: 'name', type: 'text', label: 'Name' },
      { id: 'email', type: 'email', label: 'Email' },
    ];
    for (const query of [
      '{ forms(limit: 2) { data { id fields { id type label } } } }',
      '{ forms(limit: 2) { ...Page } } fragment Page on FormPage { data { ... on Form { fields { id type label } } } }',
    ]) {
      t.db.resetQueryCount();
      const res = await t.graphql(query, {}, key);
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.forms.data.map((form: { fields: unknown }) => form.fields)).toStrictEqual([expected, expected]);
      expect(listStatement()).toContain('"f"."fields"');
    }
    t.db.resetQueryCount();
    const rest = await t.request('GET', '/v1/forms?limit=2', { key });
    expect(rest.status).toBe(200);
    expect(rest.body.data[0]).not.toHaveProperty('fields');
    expect(listStatement()).not.toBe('');
    expect(listStatement()).not.toContain('"f"."fields"');
  });

  it('reads latestSubmissions’ sourceDomain only when asked, and then the stored one', async () => {
    const form = await t.db.prisma.form.create({ data: { accountId: acme.id, siteId: acme.sites.main!.id, name: 'Sources', fields: [] } });
    await t.db.prisma.submission.create({ data: { accountId: acme.id, formId: form.id, formData: {}, sourceDomain: 'shop.example' } });
    await t.useKeyOnce(key);
    const lateral = () => t.db.queries.find((sql) => /join lateral/i.test(sql)) ?? '';
    t.db.resetQueryCount();
    const without = await t.graphql('query($id: Int!) { form(id: $id) { latestSubmissions { id } } }', { id: form.id }, key);
    expect(without.body.errors).toBeUndefined();
    expect(lateral()).toMatch(/^select "s"\."id", "s"\."accountId", "s"\."formId", "s"\."formDataKeyId", "s"\."createdAt" from/);
    t.db.resetQueryCount();
    const asked = await t.graphql('query($id: Int!) { form(id: $id) { latestSubmissions { ...Source } } } fragment Source on Submission { sourceDomain }', { id: form.id }, key);
    expect(asked.body.errors).toBeUndefined();
    expect(asked.body.data.form.latestSubmissions).toStrictEqual([{ sourceDomain: 'shop.example' }]);
    expect(lateral()).toMatch(/"s"\."sourceDomain"|s\."sourceDomain"/);
  });
});

describe('submissionDailyCounts', () => {
  it('counts per UTC day with zeros, in one statement after authentication, and nothing for another account’s form', async () => {
    // Imported, so that the form's day counts are kept as every write keeps them (window-totals.test.ts checks them).
    const at = (iso: string) => ({ formData: {}, createdAt: iso });
    const imported = await seed(t.db, {
      accounts: [
        accountFixture({
          ref: 'stats',
          name: 'Stats',
          ownerEmail: 'owner@stats.example',
          sites: [
            siteFixture({
              domain: 'stats.example',
              forms: [formFixture({ ref: 'stats', submissions: [at('2026-03-01T00:00:00.000Z'), at('2026-03-01T23:59:59.999Z'), at('2026-03-03T12:00:00.000Z'), at('2026-03-04T00:00:00.000Z')] })],
            }),
          ],
        }),
      ],
    });
    const form = imported.accounts.stats!.forms.stats!;
    const key = imported.accounts.stats!.apiKeys.full!.key;
    const query = 'query($f: Int!, $from: DateTime!, $to: DateTime!) { submissionDailyCounts(formId: $f, from: $from, to: $to) { date count } }';
    await t.useKeyOnce(key);
    t.db.resetQueryCount();
    const res = await t.graphql(query, { f: form.id, from: '2026-03-01T00:00:00.000Z', to: '2026-03-04T00:00:00.000Z' }, key);
    expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
    expect(res.body.data.submissionDailyCounts).toStrictEqual([
      { date: '2026-03-01', count: 2 },
      { date: '2026-03-02', count: 0 },
      { date: '2026-03-03', count: 1 },
    ]);
    expect(t.db.queries).toHaveLength(2);
    expect(t.db.queries[1]).toMatch(/"FormSubmissionDay"/);
    // Partial days at both ends count only their rows inside the window.
    const partial = await t.graphql(query, { f: form.id, from: '2026-03-01T12:00:00.000Z', to: '2026-03-04T00:00:00.001Z' }, key);
    expect(partial.body.data.submissionDailyCounts).toStrictEqual([
      { date: '2026-03-01', count: 1 },
      { date: '2026-03-02', count: 0 },
      { date: '2026-03-03', count: 1 },
      { date: '2026-03-04', count: 1 },
    ]);
    const other = await seed(t.db, { accounts: [accountFixture({ ref: 'other', sites: [siteFixture({ domain: 'o.example', forms: [] })] })] });
    const foreign = await t.graphql(query, { f: form.id, from: '2026-03-01T00:00:00.000Z', to: '2026-03-02T00:00:00.000Z' }, other.accounts.other!.apiKeys.full!.key);
    expect(foreign.body.data.submissionDailyCounts).toStrictEqual([{ date: '2026-03-01', count: 0 }]);
    const tooLong = await t.graphql(query, { f: form.id, from: '2025-01-01T00:00:00.000Z', to: '2026-03-02T00:00:00.000Z' }, key);
    expect(tooLong.body.errors[0].extensions.code).toBe('validation_failed');
  });
});

describe('createForm per-field limit', () => {
  it('refuses a burst of creations with the same 429 shape over REST and GraphQL', async () => {
    // A key of its own: the limiter's window outlives the truncation between tests, and ids restart.
    const { key } = await issueApiKey(t.db.prisma, testHasher, { accountId: acme.id, scopes: ['write:forms'] });
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      statuses.push((await t.request('POST', '/v1/forms', { key, body: { name: `f${i}`, fields: [{ type: 'text', label: 'L' }], domainId: acme.sites.second!.id } })).status);
    }
    expect(statuses.filter((s) => s !== 201)).toEqual([]);
    const rest = await t.request('POST', '/v1/forms', { key, body: { name: 'more', fields: [{ type: 'text', label: 'L' }], domainId: acme.sites.second!.id } });
    expect(rest.status).toBe(429);
    expect(rest.body).toStrictEqual({ error: expect.any(String), code: 'rate_limited', retryAfter: Number(rest.headers.get('retry-after')) });
    const gql = await t.graphql(CREATE, { input: { name: 'more', fields: [{ type: 'text', label: 'L' }], domainId: acme.sites.second!.id } }, key);
    expect(gql.status).toBe(429);
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'rate_limited', retryAfter: expect.any(Number) });
    expect(await t.db.prisma.form.count({ where: { siteId: acme.sites.second!.id } })).toBe(30);
  });
});

describe('response field order', () => {
  // The spec's CollectFields: a fragment's fields stand where the fragment is spread, a repeated key where it first
  // appears. graphql-jit before 0.8.9 collected fragments after the fields beside them (`label` first here).
  const DOCUMENT = `{ forms(limit: 2) { data { ... on Form { id } ...Counted label: name latestSubmissions(limit: 1) { ...Stamped id } } pagination { total } } }
    fragment Counted on Form { submissionCount id name }
    fragment Stamped on Submission { createdAt }`;

  it('answers keys in selection order, a fragment where it is spread, as graphql-js would', async () => {
    const res = await t.graphql(DOCUMENT, {}, key);
    expect(res.status).toBe(200);
    const forms = (JSON.parse(res.text) as { data: { forms: { data: Record<string, unknown>[] } } }).data.forms;
    expect(Object.keys(forms)).toStrictEqual(['data', 'pagination']);
    for (const form of forms.data) {
      expect(Object.keys(form)).toStrictEqual(['id', 'submissionCount', 'name', 'label', 'latestSubmissions']);
      expect((form.latestSubmissions as Record<string, unknown>[]).map((submission) => Object.keys(submission))).toStrictEqual([['createdAt', 'id']]);
    }
  });
});
