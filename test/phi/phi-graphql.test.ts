import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportedAccount } from '../../src/fixtures/fixture-import.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { seedAccount, testPhi } from '../support/seed.js';

const CREATE = 'mutation($input: CreateFormInput!) { createForm(input: $input) { id phi } }';
const UPDATE = 'mutation($id: Int!, $input: UpdateFormInput!) { updateForm(id: $id, input: $input) { id phi } }';
const fields = [{ type: 'text', label: 'Symptoms' }];

describe('phi through GraphQL (contract §4: settable by import or GraphQL)', () => {
  let t: TestApp;
  let acme: ImportedAccount;
  let key: string;
  let readOnly: string;
  beforeAll(async () => {
    t = await createTestApp();
    acme = await seedAccount(t.db, {
      apiKeys: [
        { ref: 'full', scopes: ['read:forms', 'write:forms', 'read:submissions', 'write:submissions'] },
        { ref: 'read', scopes: ['read:forms', 'read:submissions'] },
      ],
    });
    key = acme.apiKeys.full!.key;
    readOnly = acme.apiKeys.read!.key;
  });
  afterAll(async () => t.close());

  const rawSubmission = (id: number) =>
    t.db.withSession((s) => s.query<{ formData: unknown; sealed: boolean; keyId: string | null }>(
      `SELECT "formData", "formDataCiphertext" IS NOT NULL AS sealed, "formDataKeyId" AS "keyId" FROM "Submission" WHERE id = $1`, [id]));

  it('createForm with phi: true seals formData at rest, serves it in plaintext, and audits each read', async () => {
    const created = await t.graphql(CREATE, { input: { name: 'Intake', fields, phi: true } }, key);
    expect(created.body).toStrictEqual({ data: { createForm: { id: expect.any(Number), phi: true } }, extensions: { cost: expect.any(Object) } });
    const formId = created.body.data.createForm.id as number;

    const ingested = await t.request('POST', `/v1/forms/${formId}/submissions`, { key, body: { formData: { Symptoms: 'xerophthalmia' } } });
    expect(ingested.status).toBe(201);
    expect(ingested.body.formData).toStrictEqual({ Symptoms: 'xerophthalmia' });
    const [row] = await rawSubmission(ingested.body.id);
    expect(row).toStrictEqual({ formData: null, sealed: true, keyId: testPhi.keyId });
    const text = await t.db.withSession((s) => s.query<{ t: string }>(`SELECT encode("formDataCiphertext", 'escape') AS t FROM "Submission" WHERE id = $1`, [ingested.body.id]));
    expect(text[0]?.t).not.toContain('xerophthalmia');

    const auditsBefore = await t.db.prisma.auditEvent.count({ where: { resourceId: ingested.body.id } });
    const read = await t.request('GET', `/v1/submissions/${ingested.body.id}`, { key });
    expect(read.body.formData).toStrictEqual({ Symptoms: 'xerophthalmia' });
    expect(await t.db.prisma.auditEvent.count({ where: { resourceId: ingested.body.id, action: 'submission.read' } })).toBe(auditsBefore + 1);
  });

  it('updateForm turns phi on and off for the submissions stored afterwards', async () => {
    const formId = (await t.graphql(CREATE, { input: { name: 'Plain', fields } }, key)).body.data.createForm.id as number;
    const plain = await t.request('POST', `/v1/forms/${formId}/submissions`, { key, body: { formData: { Symptoms: 'a' } } });
    expect((await rawSubmission(plain.body.id))[0]).toStrictEqual({ formData: { Symptoms: 'a' }, sealed: false, keyId: null });

    expect((await t.graphql(UPDATE, { id: formId, input: { phi: true } }, key)).body).toStrictEqual({ data: { updateForm: { id: formId, phi: true } }, extensions: { cost: expect.any(Object) } });
    const sealed = await t.request('POST', `/v1/forms/${formId}/submissions`, { key, body: { formData: { Symptoms: 'b' } } });
    expect((await rawSubmission(sealed.body.id))[0]).toMatchObject({ formData: null, sealed: true });
    // Earlier submissions stay readable as they were stored.
    expect((await t.request('GET', `/v1/submissions/${plain.body.id}`, { key })).body.formData).toStrictEqual({ Symptoms: 'a' });

    await t.graphql(UPDATE, { id: formId, input: { phi: false } }, key);
    const plainAgain = await t.request('POST', `/v1/forms/${formId}/submissions`, { key, body: { formData: { Symptoms: 'c' } } });
    expect((await rawSubmission(plainAgain.body.id))[0]).toMatchObject({ sealed: false });
    expect((await t.request('GET', `/v1/submissions/${sealed.body.id}`, { key })).body.formData).toStrictEqual({ Symptoms: 'b' });
  });

  it('needs write:forms', async () => {
    const res = await t.graphql(CREATE, { input: { name: 'X', fields, phi: true } }, readOnly);
    expect(res.body.errors[0].extensions.code).toBe('insufficient_scope');
    expect(await t.db.prisma.form.count({ where: { name: 'X' } })).toBe(0);
  });

  it('stays out of the v1 REST bodies: POST and PATCH /v1/forms refuse it as an unknown field', async () => {
    const post = await t.request('POST', '/v1/forms', { key, body: { name: 'R', fields, phi: true } });
    expect(post.status).toBe(400);
    expect(post.body.code).toBe('validation_failed');
    const patch = await t.request('PATCH', `/v1/forms/${acme.forms.contact!.id}`, { key, body: { phi: true } });
    expect(patch.body.code).toBe('validation_failed');
    expect((await t.db.prisma.form.findUniqueOrThrow({ where: { id: acme.forms.contact!.id } })).phi).toBe(false);
  });
});
