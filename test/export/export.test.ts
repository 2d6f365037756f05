import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ImportedAccount } from '../../src/fixtures/fixture-import.js';
import { rawStatement, sql } from '../../src/infra/sql.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { formFixture, seedAccount, siteFixture } from '../support/seed.js';

let t: TestApp;
let acme: ImportedAccount;
let key: string;

const FIELDS = [
  { id: 'name', type: 'text', label: 'Name' },
  { id: 'email', type: 'email', label: 'Email' },
  { id: 'notes', type: 'textarea', label: 'Notes, "quoted"' },
];

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());
beforeEach(async () => {
  await t.queue.boss.deleteAllJobs();
  await t.db.truncate();
  acme = await seedAccount(t.db, {
    apiKeys: [
      { ref: 'full', scopes: ['read:forms', 'write:forms', 'read:submissions', 'write:submissions'] },
      { ref: 'forms', scopes: ['read:forms'] },
    ],
    sites: [siteFixture({ forms: [formFixture({ fields: FIELDS }), formFixture({ ref: 'medical', name: 'Intake', phi: true, fields: FIELDS })] })],
  });
  key = acme.apiKeys.full!.key;
});

const formId = (ref = 'contact') => acme.forms[ref]!.id;
const exportOf = (query = '', form = formId(), k = key) => t.request('GET', `/v1/forms/${form}/submissions/export${query}`, { key: k });
async function ingest(formData: Record<string, unknown>, createdAt: string, form = formId()): Promise<number> {
  const res = await t.request('POST', `/v1/forms/${form}/submissions`, { key, body: { formData } });
  expect(res.status).toBe(201);
  await t.db.prisma.submission.update({ where: { id: res.body.id }, data: { createdAt: new Date(createdAt) } });
  return res.body.id as number;
}

const NASTY = {
  Name: 'Zoë "Zed" O\'Brien, Jr.',
  Email: '=HYPERLINK("http://evil.example","click")',
  'Notes, "quoted"': 'line one\r\nline two\nend',
  '+plus': '+1 555',
  '-minus': -5,
  '@at': '@SUM(A1)',
  tab: '\tstarts with tab',
  cr: '\rstarts with CR',
  unicode: '日本語 🎉 naïve',
  nested: { a: [1, 'two'] },
  empty: null,
};

describe('GET /v1/forms/{id}/submissions/export', () => {
  it('streams NDJSON oldest first, each line the same bytes as GET /submissions/{id}', async () => {
    const second = await ingest(NASTY, '2026-03-02T10:00:00.000Z');
    const first = await ingest({ Name: 'Ada' }, '2026-03-01T10:00:00.000Z');
    const tie = await ingest({ Name: 'Tie' }, '2026-03-02T10:00:00.000Z');
    const before = Number((await t.request('GET', '/v1/forms', { key })).headers.get('x-ratelimit-remaining'));

    const res = await exportOf();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="form-${formId()}-submissions.ndjson"`);
    // One request of budget, whatever the size.
    expect(Number(res.headers.get('x-ratelimit-remaining'))).toBe(before - 1);
    const singles = await Promise.all([first, second, tie].map(async (id) => (await t.request('GET', `/v1/submissions/${id}`, { key })).text));
    expect(res.text).toBe(singles.map((body) => `${body}\n`).join(''));
    expect((await exportOf('?format=ndjson')).text).toBe(res.text);
  });

  it("carries a strong ETag of the form's version (its filters apart), and answers If-None-Match 304 for nothing; a PHI form's is never tagged", async () => {
    await ingest({ Name: 'Ada' }, '2026-03-01T10:00:00.000Z');
    const res = await exportOf('?format=csv');
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]{22}"$/);
    expect([res.headers.get('cache-control'), res.headers.get('vary')]).toStrictEqual(['private, no-cache', 'Authorization, X-Service-Site-Key']);
    expect((await exportOf('?format=csv')).headers.get('etag')).toBe(etag);
    expect((await exportOf('?format=ndjson')).headers.get('etag')).not.toBe(etag);
    const remaining = async () => Number((await t.request('GET', '/v1/rate_limit', { key })).body.remaining);
    const before = await remaining();
    const cached = await t.request('GET', `/v1/forms/${formId()}/submissions/export?format=csv`, { key, headers: { 'If-None-Match': etag! } });
    expect([cached.status, cached.text, cached.headers.get('etag')]).toStrictEqual([304, '', etag]);
    expect(await remaining()).toBe(before);
    // A new submission moves the form's version, so the tag.
    await ingest({ Name: 'Bea' }, '2026-03-02T10:00:00.000Z');
    const after = await t.request('GET', `/v1/forms/${formId()}/submissions/export?format=csv`, { key, headers: { 'If-None-Match': etag! } });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect(after.text).toContain('Bea');
    const phi = (await exportOf('', formId('medical'))).headers;
    expect([phi.get('etag'), phi.get('cache-control'), phi.get('vary')]).toStrictEqual([null, 'private, no-cache', 'Authorization, X-Service-Site-Key']);
  });

  it('streams CSV per RFC 4180: header, field labels in order, other keys sorted, quoting and the formula guard', async () => {
    const id = await ingest(NASTY, '2026-03-02T10:00:00.000Z');
    const plain = await ingest({ Name: 'Ada', zeta: 'last' }, '2026-03-03T10:00:00.000Z');
    const res = await exportOf('?format=csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="form-${formId()}-submissions.csv"`);
    expect(res.text).toBe(
      [
        'id,createdAt,sourceDomain,Name,Email,"Notes, ""quoted""",\'+plus,\'-minus,\'@at,cr,empty,nested,tab,unicode,zeta',
        `${id},2026-03-02T10:00:00.000Z,,"Zoë ""Zed"" O'Brien, Jr.","'=HYPERLINK(""http://evil.example"",""click"")","line one\r\nline two\nend",'+1 555,'-5,'@SUM(A1),"'\rstarts with CR",,"{""a"":[1,""two""]}",'\tstarts with tab,日本語 🎉 naïve,`,
        `${plain},2026-03-03T10:00:00.000Z,,Ada,,,,,,,,,,,last`,
        '',
      ].join('\r\n'),
    );
  });

  it('exports a PHI form decrypted, and writes ONE audit row for the whole export', async () => {
    const a = await ingest({ Name: 'Wilhelmina', Diagnosis: 'vorticellosis' }, '2026-03-01T00:00:00.000Z', formId('medical'));
    const b = await ingest({ Name: 'Quentin', Email: 'q@example.com' }, '2026-03-02T00:00:00.000Z', formId('medical'));
    await t.db.prisma.auditEvent.deleteMany();
    const csv = await exportOf('?format=csv', formId('medical'));
    expect(csv.text).toBe(
      ['id,createdAt,sourceDomain,Name,Email,"Notes, ""quoted""",Diagnosis', `${a},2026-03-01T00:00:00.000Z,,Wilhelmina,,,vorticellosis`, `${b},2026-03-02T00:00:00.000Z,,Quentin,q@example.com,,`, ''].join('\r\n'),
    );
    const audit = await t.db.prisma.auditEvent.findMany();
    expect(audit.map(({ action, resource, resourceId, formId: form, apiKeyId }) => ({ action, resource, resourceId, formId: form, apiKeyId }))).toStrictEqual([
      { action: 'submissions.exported', resource: 'form', resourceId: formId('medical'), formId: formId('medical'), apiKeyId: acme.apiKeys.full!.id },
    ]);
    const ndjson = await exportOf('', formId('medical'));
    expect(ndjson.text.split('\n').filter(Boolean).map((line) => JSON.parse(line).formData)).toStrictEqual([
      { Name: 'Wilhelmina', Diagnosis: 'vorticellosis' },
      { Name: 'Quentin', Email: 'q@example.com' },
    ]);
    expect(await t.db.prisma.auditEvent.count()).toBe(2);
  });

  it('filters by createdFrom (inclusive) and createdBefore (exclusive), offsets honoured', async () => {
    await ingest({ Name: 'early' }, '2026-03-01T09:59:59.999Z');
    const from = await ingest({ Name: 'at from' }, '2026-03-01T10:00:00.000Z');
    await ingest({ Name: 'at before' }, '2026-03-02T10:00:00.000Z');
    const res = await exportOf(`?createdFrom=${encodeURIComponent('2026-03-01T11:00:00+01:00')}&createdBefore=2026-03-02T10:00:00Z`);
    expect(res.text.split('\n').filter(Boolean).map((line) => JSON.parse(line).id)).toStrictEqual([from]);
    // The lists' rule: an unencoded `+01:00` arrives as a space and is read as meant, sub-milliseconds round up.
    const unencoded = await exportOf('?createdFrom=2026-03-01T11:00:00+01:00&createdBefore=2026-03-02T09:59:59.9999Z');
    expect(unencoded.text.split('\n').filter(Boolean).map((line) => JSON.parse(line).id)).toStrictEqual([from]);
    const csv = await exportOf('?format=csv&createdFrom=2027-01-01T00:00:00Z');
    expect(csv.text).toBe('id,createdAt,sourceDomain,Name,Email,"Notes, ""quoted"""\r\n');
  });

  it('refuses a bad format or date with 400 validation_failed naming the field, before the lookup', async () => {
    const cases: [string, string[]][] = [
      ['?format=xlsx', ['format']],
      ['?createdFrom=yesterday', ['createdFrom']],
      ['?createdBefore=2026-02-30T00:00:00Z', ['createdBefore']],
      ['?createdFrom=2026-03-01T00:00:00', ['createdFrom']],
      ['?createdFrom=2026-03-02T00:00:00Z&createdBefore=2026-03-01T00:00:00Z', ['createdFrom']],
    ];
    for (const [query, fields] of cases) {
      const res = await exportOf(query, 999999);
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.fields.map((f: { field: string }) => f.field)).toStrictEqual(fields);
    }
  });

  it('exports an archived form; another account’s form answers the same bytes as an absent one; needs read:submissions', async () => {
    const id = await ingest({ Name: 'Ada' }, '2026-03-01T00:00:00.000Z');
    expect((await t.request('DELETE', `/v1/forms/${formId()}`, { key })).status).toBe(204);
    const archived = await exportOf();
    expect(archived.status).toBe(200);
    expect(JSON.parse(archived.text).id).toBe(id);

    const other = await seedAccount(t.db, { ref: 'o', name: 'O', sites: [siteFixture({ ref: 'o', domain: 'o.example', forms: [formFixture({ ref: 'theirs' })] })] });
    const foreign = await exportOf('', other.forms.theirs!.id);
    const absent = await exportOf('', 999999);
    expect(foreign.status).toBe(404);
    expect(foreign.text).toBe(absent.text);
    expect(foreign.body).toStrictEqual({ error: 'Not found', code: 'not_found', resource: 'form' });
    const forbidden = await exportOf('', formId(), acme.apiKeys.forms!.key);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.required).toBe('read:submissions');
  });

  it('walks more rows than one batch in order, without repeating or skipping any', async () => {
    await t.db.sql(
      rawStatement(sql`
        INSERT INTO "Submission" ("accountId", "formId", "formData", "createdAt")
        SELECT ${acme.id}, ${formId()}, jsonb_build_object('Name', 'n' || g), timestamp '2026-01-01' + ((g % 7) || ' seconds')::interval
        FROM generate_series(1, 1203) g`),
    );
    const res = await exportOf();
    const rows = res.text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { id: number; createdAt: string });
    expect(rows).toHaveLength(1203);
    const sorted = [...rows].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id - b.id));
    expect(rows.map((r) => r.id)).toStrictEqual(sorted.map((r) => r.id));
    expect(new Set(rows.map((r) => r.id)).size).toBe(1203);
  });
});

describe('GET /v1/openapi.json', () => {
  it('documents the export’s media types and parameters, and the erasure routes', async () => {
    const doc = (await t.request('GET', '/v1/openapi.json')).body;
    const exportOp = doc.paths['/forms/{id}/submissions/export'].get;
    expect(Object.keys(exportOp.responses['200'].content)).toStrictEqual(['application/x-ndjson', 'text/csv; charset=utf-8']);
    // The body is a string of lines (all OpenAPI 3.1 can say of a sequence); each line is documented by the
    // schema generated for GET /submissions/{id}'s body, as 3.2 would say it with itemSchema.
    const ndjson = exportOp.responses['200'].content['application/x-ndjson'];
    expect(ndjson.schema.type).toBe('string');
    expect(ndjson.schema.description).toMatch(/^Newline-delimited JSON: one line per submission/);
    expect(ndjson['x-itemSchema']).toStrictEqual(doc.paths['/submissions/{id}'].get.responses['200'].content['application/json'].schema);
    expect(exportOp.responses['200'].headers).toHaveProperty('Content-Disposition');
    expect(exportOp.parameters.map((p: { name: string }) => p.name)).toStrictEqual(['id', 'format', 'createdFrom', 'createdBefore', 'If-None-Match']);
    expect(exportOp.responses['200'].headers).toHaveProperty('ETag');
    expect(exportOp.responses).toHaveProperty('304');
    expect(exportOp['x-required-scope']).toBe('read:submissions');
    expect(doc.paths['/submissions/{id}'].delete.responses).toHaveProperty('204');
    expect(doc.paths['/erasure-requests'].post.responses['202'].content['application/json'].schema.properties).toHaveProperty('submissionsErased');
    expect(doc.paths['/erasure-requests/{id}'].get['x-required-scope']).toBe('write:submissions');
  });
});
