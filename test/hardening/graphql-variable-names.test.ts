import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { seedAccount } from '../support/seed.js';

/**
 * Variable names are the client's to choose. graphql-jit's compiled variable coercion reads `input[name]` without
 * an own-property check and writes `coerced[name]`, so names that Object.prototype carries (`toString`,
 * `constructor`) read the prototype's functions when omitted, and `$__proto__` replaced the coerced object's
 * prototype, which omitted variables then read past their types.
 */
describe('POST /graphql variables named like Object.prototype members', () => {
  let t: TestApp;
  let key: string;
  let formId: number;
  beforeAll(async () => {
    t = await createTestApp();
    const account = await seedAccount(t.db);
    key = account.apiKeys.full!.key;
    formId = account.forms.contact!.id;
  });
  afterAll(async () => t.close());

  /** The body as raw text: a JS object literal would turn a "__proto__" key into a prototype. */
  const post = (query: string, variablesJson: string) =>
    t.request('POST', '/graphql', { key, body: `{"query":${JSON.stringify(query)},"variables":${variablesJson}}` });

  for (const name of ['toString', 'constructor', 'valueOf', 'hasOwnProperty', '__defineGetter__']) {
    it(`treats an omitted $${name} as omitted and a given one as given`, async () => {
      const query = `query($${name}: Int) { forms(limit: $${name}) { pagination { limit } } }`;
      const omitted = await post(query, '{}');
      expect(omitted.status, omitted.text).toBe(200);
      expect(omitted.body).toStrictEqual({ data: { forms: { pagination: { limit: 20 } } }, extensions: { cost: expect.any(Object) } });
      const given = await post(query, `{"${name}": 7}`);
      expect(given.status, given.text).toBe(200);
      expect(given.body).toStrictEqual({ data: { forms: { pagination: { limit: 7 } } }, extensions: { cost: expect.any(Object) } });
      const wrongType = await post(query, `{"${name}": "seven"}`);
      expect(wrongType.status, wrongType.text).toBe(400);
      expect(wrongType.body.errors[0].extensions).toStrictEqual({
        code: 'validation_failed',
        fields: [{ field: name, message: expect.stringContaining(`Variable "$${name}" got invalid value "seven"`) }],
      });
    });
  }

  it('refuses a $__proto__ variable before execution, so that it cannot supply other variables past their coercion', async () => {
    // Had `coerced.__proto__ = {key: {…}}` stood, the omitted $key would have read an object from the prototype.
    const query = `mutation($__proto__: JSON, $key: String) {
      ingestSubmission(formId: ${formId}, formData: $__proto__, idempotencyKey: $key) { replayed }
    }`;
    const before = await t.db.prisma.submission.count();
    const res = await post(query, '{"__proto__": {"key": {"nested": true}}}');
    // A validation error, answered as GraphQL over HTTP answers one to an application/json client.
    expect(res.status, res.text).toBe(200);
    expect(res.body).toStrictEqual({
      errors: [
        {
          message: 'The variable name $__proto__ is not supported; choose another name',
          locations: [{ line: 1, column: 10 }],
          extensions: { code: 'validation_failed', fields: [{ field: 'query', message: 'The variable name $__proto__ is not supported; choose another name' }] },
        },
      ],
    });
    expect(await t.db.prisma.submission.count()).toBe(before);
  });
});
