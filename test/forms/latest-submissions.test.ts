import DataLoader from 'dataloader';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ImportedAccount } from '../../src/fixtures/fixture-import.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { accountFixture, formFixture, seed, siteFixture } from '../support/seed.js';

/**
 * A forms page reads its forms' latestSubmissions before it returns (src/schema/latest-submissions.ts), so that
 * each form resolves to a plain list. The answer must be the per-form loader's, byte for byte and in as many
 * statements: `@include(if: true)` on the field turns the prefetch off, which gives the loader's answer to compare.
 */

let t: TestApp;
let acme: ImportedAccount;

beforeAll(async () => {
  // What the execution reads: no answer from /graphql's cache (test/graphql/answer-cache.test.ts).
  t = await createTestApp({ env: { GRAPHQL_ANSWER_CACHE_MB: '0' } });
});
afterAll(async () => t.close());
afterEach(() => vi.restoreAllMocks());
beforeEach(async () => {
  await t.db.truncate();
  const result = await seed(t.db, {
    accounts: [
      accountFixture({
        plan: 'business',
        apiKeys: [{ ref: 'full' }, { ref: 'formsOnly', scopes: ['read:forms'] }],
        sites: [
          siteFixture({
            forms: Array.from({ length: 12 }, (_, i) =>
              formFixture({ ref: `f${i}`, name: `Form ${i}`, submissions: Array.from({ length: i % 4 }, (_, j) => ({ formData: { n: j } })) }),
            ),
          }),
        ],
      }),
    ],
  });
  acme = result.accounts.acme!;
});

const DASHBOARD = '{ forms(limit: 100) { data { id name submissionCount latestSubmissions(limit: 5) { id createdAt } } } }';

/** The body and statements of a document, and how the loaders were asked (a whole page at once, or form by form). */
async function answer(query: string, key: string, variables: Record<string, unknown> = {}) {
  await t.useKeyOnce(key);
  const loads = vi.spyOn(DataLoader.prototype, 'load');
  t.db.resetQueryCount();
  const res = await t.graphql(query, variables, key);
  // Each answer spends from the key's budget (decisions §7.1): its `remaining` is the one part two answers may not share.
  const text = res.text.replace(/"remaining":\d+/, '"remaining":"<left>"');
  const result = { status: res.status, text, statements: t.db.queries.length, loads: loads.mock.calls.length };
  vi.restoreAllMocks();
  return result;
}

/** The same document with the prefetch off (a directive on every latestSubmissions). */
const perForm = (query: string): string => query.replace(/(latestSubmissions(\([^)]*\))?)/g, '$1 @include(if: true)');

describe('Form.latestSubmissions on a forms page', () => {
  it('answers the dashboard with no promise per form, in the loader’s statements and bytes', async () => {
    const key = acme.apiKeys.full!.key;
    const prefetched = await answer(DASHBOARD, key);
    const loaded = await answer(perForm(DASHBOARD), key);
    expect(prefetched.status).toBe(200);
    expect(JSON.parse(prefetched.text).data.forms.data).toHaveLength(12);
    expect(prefetched.text).toBe(loaded.text);
    // key lookup, the forms page, one statement for all forms' newest submissions
    expect(prefetched.statements).toBe(3);
    expect(loaded.statements).toBe(3);
    // The page asked once, for all its forms, and each form then resolved to a plain list: no promise per form.
    expect(prefetched.loads).toBe(1);
    expect(loaded.loads).toBe(12);
  });

  it.each([
    ['aliases reading differently', '{ forms(limit: 5) { data { id a: latestSubmissions(limit: 1) { id } b: latestSubmissions(limit: 2) { id sourceDomain } } } }'],
    ['fragments and a variable limit', 'query($n: Int) { forms(limit: 5) { ...P } } fragment P on FormPage { data { ... on Form { id latestSubmissions(limit: $n) { ...S } } } } fragment S on Submission { id formData }', { n: 2 }],
    ['an invalid limit', '{ forms(limit: 3) { data { id latestSubmissions(limit: 0) { id } } } }'],
    ['two pages', '{ a: forms(limit: 2) { data { latestSubmissions(limit: 1) { id } } } b: forms(limit: 3, page: 2) { data { latestSubmissions(limit: 1) { id } } } }'],
  ] as [string, string, Record<string, unknown>?][])('answers %s as the per-form loader does', async (_name, query, variables = {}) => {
    const key = acme.apiKeys.full!.key;
    const prefetched = await answer(query, key, variables);
    const loaded = await answer(perForm(query), key, variables);
    expect(prefetched.text).toBe(loaded.text);
    expect(prefetched.statements).toBe(loaded.statements);
  });

  it('reads nothing for a field that may be skipped', async () => {
    const key = acme.apiKeys.full!.key;
    const skipped = await answer('query($s: Boolean!) { forms(limit: 5) { data { id latestSubmissions @skip(if: $s) { id } } } }', key, { s: true });
    expect(JSON.parse(skipped.text).data.forms.data[0]).toStrictEqual({ id: expect.any(Number) });
    // key lookup and the forms page only
    expect(skipped.statements).toBe(2);
  });

  it('reads (and audits) nothing for a key without read:submissions, which gets the field’s 403', async () => {
    const key = acme.apiKeys.formsOnly!.key;
    const refused = await answer(DASHBOARD, key);
    const loaded = await answer(perForm(DASHBOARD), key);
    expect(JSON.parse(refused.text).errors[0].extensions.code).toBe('insufficient_scope');
    expect(refused.text).toBe(loaded.text);
    expect(refused.statements).toBe(2);
  });
});
