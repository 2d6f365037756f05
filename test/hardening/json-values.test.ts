import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { seedAccount } from '../support/seed.js';

/**
 * JSON text that parses but cannot be stored as sent: a string with an unpaired surrogate (`"\ud800"`: PostgreSQL's
 * jsonb refuses it, which was a 500, and a text column would store U+FFFD instead), and a number beyond a double
 * (`1e400` parses as Infinity, which was stored as null). Refused as input on every path, nothing written.
 */
describe('JSON values that cannot be stored as sent', () => {
  let t: TestApp;
  let key: string;
  let formId: number;
  beforeAll(async () => {
    t = await createTestApp();
    const acme = await seedAccount(t.db);
    key = acme.apiKeys.full!.key;
    formId = acme.forms.contact!.id;
  });
  afterAll(async () => t.close());

  const SURROGATE = 'must not contain unpaired surrogates (\\uD800-\\uDFFF without their pair)';
  const TOO_LARGE = 'must not contain numbers beyond the double range (±1.8e308)';
  const refused = (field: string, message: string) => ({ error: expect.any(String), code: 'validation_failed', fields: [{ field, message }] });

  it.each([
    ['a lone high surrogate in a value', '{"formData":{"Name":"\\ud800"}}', SURROGATE],
    ['a lone low surrogate in a nested value', '{"formData":{"Name":{"x":["ok","\\udfff"]}}}', SURROGATE],
    ['a reversed pair in a key', '{"formData":{"\\udc00\\ud800":"x"}}', SURROGATE],
    ['a number that overflows a double', '{"formData":{"Age":1e400}}', TOO_LARGE],
    ['a negative one', '{"formData":{"Age":[-1e999]}}', TOO_LARGE],
  ])('refuses %s in formData with 400 validation_failed naming formData, storing nothing', async (_name, body, message) => {
    const res = await t.request('POST', `/v1/forms/${formId}/submissions`, { key, body });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toStrictEqual(refused('formData', message));
    expect(await t.db.prisma.submission.count()).toBe(0);
  });

  it('keeps well-formed pairs, astral characters and large finite numbers exactly', async () => {
    const res = await t.request('POST', `/v1/forms/${formId}/submissions`, { key, body: '{"formData":{"Name":"\\ud83d\\ude00 😀","Big":1.7e308,"Small":5e-324}}' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.formData).toStrictEqual({ Name: '😀 😀', Big: 1.7e308, Small: 5e-324 });
    const read = await t.request('GET', `/v1/submissions/${res.body.id}`, { key });
    expect(read.body.formData).toStrictEqual({ Name: '😀 😀', Big: 1.7e308, Small: 5e-324 });
  });

  it('refuses them in other bodies (a form name that would store U+FFFD) the same way', async () => {
    const res = await t.request('POST', '/v1/forms', { key, body: '{"name":"Contact \\ud800"}' });
    expect(res.body).toStrictEqual(refused('name', SURROGATE));
  });

  it('refuses them in GraphQL variables and JSON literals', async () => {
    const mutation = 'mutation($f: Int!, $d: JSON) { ingestSubmission(formId: $f, formData: $d) { replayed } }';
    const variable = await t.request('POST', '/graphql', { key, body: `{"query":${JSON.stringify(mutation)},"variables":{"f":${formId},"d":{"Name":"\\ud800"}}}` });
    expect(variable.status, variable.text).toBe(400);
    expect(variable.body.errors).toMatchObject([{ extensions: { code: 'validation_failed', fields: [{ field: 'd', message: SURROGATE }] } }]);
    const literal = await t.graphql(`mutation { ingestSubmission(formId: ${formId}, formData: { Age: 1e400 }) { replayed } }`, {}, key);
    expect(literal.body.errors).toMatchObject([{ message: expect.stringContaining('beyond the double range') }]);
    expect(await t.db.prisma.submission.count()).toBe(1);
  });
});
