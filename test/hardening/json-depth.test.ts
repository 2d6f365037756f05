import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/domain/validation.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { seedAccount } from '../support/seed.js';

/** `{"a":{"a":…1…}}`, `levels` objects deep, as text: JSON.stringify itself would overflow building it. */
const nested = (levels: number): string => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

describe('deeply nested JSON input', () => {
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

  const tooDeep = (field: string) => ({
    error: expect.any(String),
    code: 'validation_failed',
    fields: [{ field, message: `must not nest more than ${MAX_JSON_DEPTH} levels deep` }],
  });

  it('refuses formData 5,000 levels deep (under the 51,200-byte cap) with 400 validation_failed naming formData', async () => {
    const body = `{"formData":${nested(5000)}}`;
    expect(Buffer.byteLength(body)).toBeLessThan(51_200);
    const res = await t.request('POST', `/v1/forms/${formId}/submissions`, { key, body });
    expect(res.status).toBe(400);
    expect(res.body).toStrictEqual(tooDeep('formData'));
    expect(await t.db.prisma.submission.count()).toBe(0);
  });

  it('accepts a body exactly at the cap and refuses one level more', async () => {
    // The body is level 1 and formData level 2: formData may hold MAX - 2 more levels.
    const atCap = await t.request('POST', `/v1/forms/${formId}/submissions`, { key, body: `{"formData":{"x":${nested(MAX_JSON_DEPTH - 2)}}}` });
    expect(atCap.status).toBe(201);
    const over = await t.request('POST', `/v1/forms/${formId}/submissions`, { key, body: `{"formData":{"x":${nested(MAX_JSON_DEPTH - 1)}}}` });
    expect(over.body).toStrictEqual(tooDeep('formData'));
  });

  it('refuses deep form fields, webhook bodies and a deep body that is not an object alike', async () => {
    const fields = await t.request('POST', '/v1/forms', { key, body: `{"name":"N","fields":[${nested(5000)}]}` });
    expect(fields.body).toStrictEqual(tooDeep('fields'));
    const patch = await t.request('PATCH', `/v1/forms/${formId}`, { key, body: `{"fields":[${nested(5000)}]}` });
    expect(patch.body).toStrictEqual(tooDeep('fields'));
    const webhook = await t.request('POST', '/v1/webhooks', { key, body: `{"url":${nested(5000)},"event":"submission.created"}` });
    expect(webhook.body).toStrictEqual(tooDeep('url'));
    const array = await t.request('POST', `/v1/forms/${formId}/submissions`, { key, body: `${'['.repeat(5000)}${']'.repeat(5000)}` });
    expect(array.body).toStrictEqual(tooDeep('(body)'));
  });

  it('answers deep GraphQL variables without a valid key 401, before their body is parsed', async () => {
    const res = await t.request('POST', '/graphql', {
      key: `svc_live_${'A'.repeat(43)}`,
      body: `{"query":"mutation($f: Int!, $d: JSON) { ingestSubmission(formId: $f, formData: $d) { replayed } }","variables":{"f":${formId},"formData":${nested(5000)}}}`,
    });
    expect(res.status).toBe(401);
    expect(res.body.errors).toMatchObject([{ extensions: { code: 'invalid_api_key' } }]);
  });

  it('refuses deep GraphQL variables with 400 validation_failed naming the variable', async () => {
    const res = await t.request('POST', '/graphql', {
      key,
      body: `{"query":"mutation($f: Int!, $d: JSON) { ingestSubmission(formId: $f, formData: $d) { replayed } }","variables":{"f":${formId},"formData":${nested(5000)}}}`,
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toMatchObject([{ extensions: { code: 'validation_failed', fields: [{ field: 'formData' }] } }]);
  });

  it('ingests the same deep formData through GraphQL with a valid key as 400 too (no 500 on any path)', async () => {
    const res = await t.request('POST', '/graphql', {
      key,
      body: `{"query":"mutation($f: Int!, $d: JSON) { ingestSubmission(formId: $f, formData: $d) { replayed } }","variables":{"f":${formId},"d":${nested(5000)}}}`,
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toMatchObject([{ extensions: { code: 'validation_failed', fields: [{ field: 'd' }] } }]);
  });
});
