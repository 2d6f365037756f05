import { getNamedType, isObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_COLUMNS } from '../../src/domain/forms/forms.service.js';
import { FORM_FIELD_COLUMNS } from '../../src/schema/form.js';
import { toSchema } from '../../src/schema/index.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { accountFixture, formFixture, seed, siteFixture } from '../support/seed.js';

/**
 * A page of forms reads only the columns of the fields its query selects (FORM_FIELD_COLUMNS, src/schema/form.ts).
 * Each field asked alone must answer what it answers beside every other field: a column missing from its entry
 * would show as null or a wrong value here.
 */

let t: TestApp;
let key: string;

const FORM_FIELDS = (() => {
  const form = toSchema().getType('Form');
  if (!isObjectType(form)) throw new Error('Form is not an object type');
  return Object.values(form.getFields()).map((field) => ({ name: field.name, object: isObjectType(getNamedType(field.type)) }));
})();

/** A field as a query asks it: objects with one sub-field (`domain { domain }`), the others bare. */
const asked = (name: string): string =>
  ({ domain: 'domain { id domain }', fields: 'fields { id type label required options placeholder }', latestSubmissions: 'latestSubmissions(limit: 2) { id createdAt }' })[name] ?? name;

beforeAll(async () => {
  t = await createTestApp();
  await t.db.truncate();
  const result = await seed(t.db, {
    accounts: [
      accountFixture({
        plan: 'business',
        sites: [
          siteFixture({
            forms: [
              formFixture({ ref: 'plain', name: 'Plain', submissions: [{ formData: { n: 1 } }, { formData: { n: 2 } }] }),
              formFixture({ ref: 'steps', name: 'Steps', type: 'multi-step', phi: true, fields: [{ id: 'q', type: 'select', label: 'Q', required: true, options: ['a', 'b'] }] }),
            ],
          }),
        ],
        legacyForms: [formFixture({ ref: 'legacy', name: 'No domain' })],
      }),
    ],
  });
  key = result.accounts.acme!.apiKeys.full!.key;
});
afterAll(async () => t.close());

async function formsPage(selection: string): Promise<{ forms: Record<string, unknown>[]; statement: string }> {
  t.db.resetQueryCount();
  const res = await t.graphql(`{ forms(limit: 10) { data { ${selection} } pagination { total } } } fragment F on Form { submissionCount }`.replace(/ fragment F.*$/, selection.includes('...F') ? ' fragment F on Form { submissionCount }' : ''), {}, key);
  expect(res.status).toBe(200);
  const body = JSON.parse(res.text) as { data: { forms: { data: Record<string, unknown>[]; pagination: { total: number } } } };
  expect(body.data.forms.pagination.total).toBe(3);
  const statement = t.db.queries.find((text) => text.includes('OVER ()'));
  if (!statement) throw new Error('no forms page statement');
  return { forms: body.data.forms.data, statement };
}

describe('columns read for a forms page', () => {
  it('names every field of Form, and only columns a form has', () => {
    expect(Object.keys(FORM_FIELD_COLUMNS).sort()).toStrictEqual(['__typename', ...FORM_FIELDS.map((field) => field.name)].sort());
    for (const columns of Object.values(FORM_FIELD_COLUMNS)) for (const column of columns) expect(FORM_COLUMNS).toContain(column);
  });

  it.each(FORM_FIELDS.map((field) => field.name))('answers %s alone as it does beside every other field', async (name) => {
    const every = await formsPage(FORM_FIELDS.map((field) => asked(field.name)).join(' '));
    const alone = await formsPage(`id ${asked(name)}`);
    expect(alone.forms).toStrictEqual(every.forms.map((form) => ({ id: form.id, [name]: form[name] })));
    expect(alone.forms.map((form) => form[name])).not.toContain(undefined);
  });

  it('reads only the dashboard’s columns for the dashboard, and every column for every field', async () => {
    const dashboard = await formsPage('id name submissionCount __typename latestSubmissions { id }');
    const selected = /^select (.*) from "Form"/i.exec(dashboard.statement)?.[1] ?? '';
    expect(selected).toMatch(/"f"\."id", "f"\."name", "f"\."submissionCount", count\(\*\) OVER \(\)/);
    expect(selected).not.toMatch(/createdAt|fields|phi|hostname/);
    expect(dashboard.statement).not.toContain('"Site"');
    const every = await formsPage(FORM_FIELDS.map((field) => asked(field.name)).join(' '));
    for (const column of FORM_COLUMNS) {
      if (column === 'accountId' || column === 'version') continue; // no field shows them
      expect(every.statement).toContain(column === 'hostname' ? '"s"."hostname"' : `"f"."${column}"`);
    }
  });

  it('counts fields asked through fragments and aliases', async () => {
    const page = await formsPage('... on Form { id } ...F label: name');
    expect(page.forms.map((form) => Object.keys(form).sort())).toStrictEqual(Array(3).fill(['id', 'label', 'submissionCount']));
    expect(page.forms.map((form) => form.label).sort()).toStrictEqual(['No domain', 'Plain', 'Steps']);
    expect(page.statement).toMatch(/select "f"\."id", "f"\."name", "f"\."submissionCount", count/i);
  });
});
