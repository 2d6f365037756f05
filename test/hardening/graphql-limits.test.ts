import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_DOCUMENT_DEPTH, MAX_DOCUMENT_TOKENS } from '../../src/graphql/use-request-limits.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { seedAccount } from '../support/seed.js';

describe('POST /graphql document limits', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await createTestApp();
    key = (await seedAccount(t.db)).apiKeys.full!.key;
  });
  afterAll(async () => t.close());

  // The key is checked first (contract §4: 401 before input), so only an admitted key's document is ever lexed.
  const refused = (query: string) => t.graphql(query, {}, key);

  it('refuses a document 3,000 levels deep (9 KB) with 400 query_too_complex', async () => {
    const query = `${'{a'.repeat(3000)}${'}'.repeat(3000)}`;
    expect(query.length).toBe(9000);
    const res = await refused(query);
    expect(res.status, res.text).toBe(400);
    expect(res.body).toStrictEqual({ errors: [{ message: expect.stringContaining('nesting'), extensions: { code: 'query_too_complex' } }] });
  });

  it('refuses deep lists in a literal and too many tokens (huge aliases) the same way', async () => {
    const list = await refused(`{ forms(domainId: ${'['.repeat(5000)}1${']'.repeat(5000)}) { pagination { total } } }`);
    expect(list.status).toBe(400);
    expect(list.body.errors[0].extensions.code).toBe('query_too_complex');
    const aliases = await refused(`{ ${Array.from({ length: MAX_DOCUMENT_TOKENS }, (_, i) => `a${i}: __typename`).join(' ')} }`);
    expect(aliases.status).toBe(400);
    expect(aliases.body.errors[0].message).toContain('token');
  });

  it('still answers a document at the limits', async () => {
    const depth = `query { ${'__schema { types { ofType { ofType { ofType { ofType { ofType { ofType { ofType { name } } } } } } } } }'} }`;
    expect(depth.split('{').length - 1).toBeLessThanOrEqual(MAX_DOCUMENT_DEPTH);
    const res = await t.graphql(depth, {}, key);
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
  });
});

describe('an unexpected error on /graphql', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await createTestApp();
    key = (await seedAccount(t.db)).apiKeys.full!.key;
  });
  afterAll(async () => t.close());

  it('is masked and logged once with its request id, like REST 500s, without customer data', async () => {
    const lines: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    // A key's first use also writes its lastUsedAt, off the request's path: done before, so the next statement is the list's.
    await t.useKeyOnce(key);
    const original = t.db.sql.bind(t.db);
    const sql = vi.spyOn(t.db, 'sql');
    sql.mockImplementationOnce(original); // the key lookup
    sql.mockRejectedValueOnce(Object.assign(new Error('connection reset while reading "Form"\nquery args: owner@acme.example'), { code: 'ECONNRESET' }));
    const res = await t.graphql('{ forms { data { id } } }', {}, key);
    write.mockRestore();
    sql.mockRestore();

    expect(res.body.errors).toMatchObject([{ message: 'Unexpected error.' }]);
    const requestId = res.headers.get('x-request-id');
    const errors = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.level === 'error');
    expect(errors).toStrictEqual([
      {
        time: expect.any(String),
        level: 'error',
        requestId,
        traceId: expect.stringMatching(/^[0-9a-f]{32}$/),
        route: 'POST /graphql',
        error: { name: 'Error', code: 'ECONNRESET', message: 'connection reset while reading "Form"' },
      },
    ]);
    expect(lines.join('')).not.toContain(key);
    expect(lines.join('')).not.toContain('owner@acme.example');
  });
});
