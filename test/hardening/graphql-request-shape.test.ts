import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { seedAccount } from '../support/seed.js';

/**
 * A /graphql request of the wrong shape answers v1's codes, as every other /graphql error does (the contract:
 * `errors[].extensions.code` is the v1 code). Yoga answered these with its own `BAD_REQUEST` code, and a missing
 * `query` with status 200. Nothing runs: the submission count stays.
 */

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

interface Answer {
  status: number;
  allow: string | null;
  body: unknown;
}

async function send(method: string, body?: string, search = ''): Promise<Answer> {
  const response = await t.app.fetch(
    new Request(`http://gateway.test/graphql${search}`, {
      method,
      headers: { authorization: `Bearer ${key}`, accept: 'application/json', ...(body !== undefined && { 'content-type': 'application/json' }) },
      body,
    }),
  );
  return { status: response.status, allow: response.headers.get('allow'), body: await response.json() };
}

const invalid = (field: string, message: string): Answer => ({
  status: 400,
  allow: null,
  body: { errors: [{ message: 'The request is invalid', extensions: { code: 'validation_failed', fields: [{ field, message }] } }] },
});

const notAllowed = (allow: string, message: string): Answer => ({
  status: 405,
  allow,
  body: { errors: [{ message, extensions: { code: 'method_not_allowed' } }] },
});

const QUERY = '{ forms { pagination { total } } }';

describe('/graphql requests of the wrong shape', () => {
  it('refuses missing, mistyped and unknown parameters with 400 validation_failed naming each', async () => {
    expect(await send('POST', '{}')).toStrictEqual(invalid('query', 'is required: the GraphQL document'));
    expect(await send('POST', '{"query": 1}')).toStrictEqual(invalid('query', 'must be a string: the GraphQL document'));
    expect(await send('POST', JSON.stringify({ query: QUERY, variables: [1] }))).toStrictEqual(invalid('variables', 'must be a JSON object'));
    expect(await send('POST', JSON.stringify({ query: QUERY, extensions: 'x' }))).toStrictEqual(invalid('extensions', 'must be a JSON object'));
    expect(await send('POST', JSON.stringify({ query: QUERY, operationName: 7 }))).toStrictEqual(invalid('operationName', 'must be a string'));
    expect(await send('POST', JSON.stringify({ query: QUERY, foo: 1 }))).toStrictEqual(
      invalid('foo', 'is not a GraphQL parameter (query, variables, operationName, extensions)'),
    );
    const long = 'p'.repeat(10_000);
    const echoed = (await send('POST', JSON.stringify({ query: QUERY, [long]: 1 }))).body as { errors: [{ extensions: { fields: [{ field: string }] } }] };
    expect(echoed.errors[0].extensions.fields[0].field).toBe(`${'p'.repeat(64)}…`);
  });

  it('refuses a body that is JSON but not one request object', async () => {
    const notObject = invalid('(body)', 'must be a JSON object: { query, variables?, operationName?, extensions? }');
    for (const body of ['"x"', '1', 'null', 'true']) expect(await send('POST', body), body).toStrictEqual(notObject);
    expect(await send('POST', JSON.stringify([{ query: QUERY }, { query: QUERY }]))).toStrictEqual(
      invalid('(body)', 'must be one request object: batches are not supported'),
    );
  });

  it('answers other methods 405 method_not_allowed with Allow, and a mutation sent with GET 405 with Allow: POST', async () => {
    for (const method of ['PUT', 'PATCH', 'DELETE']) expect(await send(method, JSON.stringify({ query: QUERY })), method).toStrictEqual(notAllowed('GET, POST', '/graphql answers GET and POST'));
    const before = await t.db.prisma.submission.count();
    const mutation = `mutation { ingestSubmission(formId: ${formId}, formData: { name: "A" }) { replayed } }`;
    expect(await send('GET', undefined, `?query=${encodeURIComponent(mutation)}`)).toStrictEqual(notAllowed('POST', 'A mutation must be sent with POST'));
    expect(await t.db.prisma.submission.count()).toBe(before);
  });

  it('refuses an operationName that selects no operation with 400 validation_failed naming it', async () => {
    const two = 'query A { __typename } query B { __typename }';
    expect(await send('POST', JSON.stringify({ query: two }))).toStrictEqual(invalid('operationName', 'is required: the document has several operations, or none'));
    expect(await send('POST', JSON.stringify({ query: two, operationName: 'C' }))).toStrictEqual(invalid('operationName', 'names no operation of the document'));
    expect(await send('POST', JSON.stringify({ query: two, operationName: 'B' }))).toStrictEqual({ status: 200, allow: null, body: { data: { __typename: 'Query' }, extensions: { cost: expect.objectContaining({ requested: 0, actual: 0 }) } } });
  });

  it('refuses variables that do not fit their types with 400 validation_failed naming each, where they had no code', async () => {
    const query = 'query($limit: Int, $page: Int) { forms(limit: $limit, page: $page) { pagination { total } } }';
    const answer = await send('POST', JSON.stringify({ query, variables: { limit: 1.5, page: 'x' } }));
    expect(answer.status).toBe(400);
    expect(answer.body).toStrictEqual({
      errors: [
        {
          message: 'The request is invalid',
          extensions: {
            code: 'validation_failed',
            fields: [
              { field: 'limit', message: expect.stringMatching(/^Variable "\$limit" got invalid value 1\.5/) },
              { field: 'page', message: expect.stringMatching(/^Variable "\$page" got invalid value "x"/) },
            ],
          },
        },
      ],
      // It ran as far as its variables (nothing returned): 1 point, which the answer says, as every priced one does.
      extensions: { cost: expect.objectContaining({ requested: 1, actual: 1 }) },
    });
    const missing = await send('POST', JSON.stringify({ query: 'query($id: Int!) { form(id: $id) { id } }' }));
    expect(missing.status).toBe(400);
    expect((missing.body as { errors: [{ extensions: { fields: unknown } }] }).errors[0].extensions.fields).toStrictEqual([
      { field: 'id', message: expect.stringContaining('of required type "Int!" was not provided') },
    ]);
  });

  it('still answers well-formed requests, by GET and by POST', async () => {
    // extensions.cost: decisions §7.1 (a page and its pagination: 2 objects, 1 point).
    const expected = { status: 200, allow: null, body: { data: { forms: { pagination: { total: 1 } } }, extensions: { cost: expect.objectContaining({ requested: 1, actual: 1 }) } } };
    expect(await send('POST', JSON.stringify({ query: QUERY, variables: null, operationName: null, extensions: {} }))).toStrictEqual(expected);
    expect(await send('GET', undefined, `?query=${encodeURIComponent(QUERY)}`)).toStrictEqual(expected);
  });
});
