import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { seedAccount } from '../support/seed.js';

/**
 * `variables` and `extensions` arrive as JSON text in a GET query string or a form-encoded POST body. Yoga parses
 * them with JSON.parse and let its SyntaxError through: a 500 for a typo. Now a 400 naming the parameter.
 */

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp();
  key = (await seedAccount(t.db)).apiKeys.full!.key;
});
afterAll(async () => t.close());

const refused = (...fields: string[]) => ({
  errors: [{ message: 'The request is invalid', extensions: { code: 'validation_failed', fields: fields.map((field) => ({ field, message: 'must be a JSON object' })) } }],
});

async function graphql(init: { query: string; body?: string }): Promise<{ status: number; body: unknown }> {
  const response = await t.app.fetch(
    new Request(`http://gateway.test/graphql?${init.query}`, {
      method: init.body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${key}`, accept: 'application/json', ...(init.body !== undefined && { 'content-type': 'application/x-www-form-urlencoded' }) },
      body: init.body,
    }),
  );
  return { status: response.status, body: await response.json() };
}

describe('/graphql parameters given as JSON text', () => {
  it('refuses malformed variables or extensions in a query string with 400 naming them', async () => {
    const query = `query=${encodeURIComponent('{ __typename }')}`;
    expect(await graphql({ query: `${query}&variables=${encodeURIComponent('{x')}` })).toStrictEqual({ status: 400, body: refused('variables') });
    expect(await graphql({ query: `${query}&extensions=${encodeURIComponent('{"a":')}` })).toStrictEqual({ status: 400, body: refused('extensions') });
    expect(await graphql({ query: `${query}&variables=%7B&extensions=%5B` })).toStrictEqual({ status: 400, body: refused('variables', 'extensions') });
  });

  it('refuses them in a form-encoded POST body the same way', async () => {
    const body = `query=${encodeURIComponent('{ __typename }')}&variables=${encodeURIComponent('{"v":}')}`;
    expect(await graphql({ query: '', body })).toStrictEqual({ status: 400, body: refused('variables') });
  });

  it('answers well-formed ones', async () => {
    const query = `query=${encodeURIComponent('query($v: Boolean!) { __typename @include(if: $v) }')}&variables=${encodeURIComponent('{"v":true}')}`;
    expect(await graphql({ query })).toStrictEqual({ status: 200, body: { data: { __typename: 'Query' }, extensions: { cost: expect.objectContaining({ requested: 0, actual: 0 }) } } });
  });
});
