import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { seedAccount } from '../support/seed.js';

describe('an unexpected failure', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await createTestApp();
    key = (await seedAccount(t.db)).apiKeys.full!.key;
  });
  afterAll(async () => t.close());

  it('answers 500 internal_error with nothing internal in it, and logs the request id without the key', async () => {
    const lines: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    // A key's first use also writes its lastUsedAt, off the request's path: done before, so the next statement is the list's.
    await t.useKeyOnce(key);
    // The database goes away after authentication: the list itself fails.
    const original = t.db.sql.bind(t.db);
    const sql = vi.spyOn(t.db, 'sql');
    sql.mockImplementationOnce(original); // the key lookup
    sql.mockRejectedValueOnce(Object.assign(new Error('connection reset while reading "Form"\nquery args: owner@acme.example'), { code: 'ECONNRESET' }));
    const res = await t.request('GET', '/v1/forms', { key });
    write.mockRestore();
    sql.mockRestore();

    expect(res.status).toBe(500);
    expect(res.body).toStrictEqual({ error: 'Internal server error', code: 'internal_error' });
    const requestId = res.headers.get('x-request-id');
    expect(requestId).toBeTruthy();
    expect(res.headers.get('x-ratelimit-limit')).not.toBeNull();
    const logged = lines.join('');
    expect(logged).toContain(`"requestId":"${requestId}"`);
    expect(logged).toContain('"code":"ECONNRESET"');
    expect(logged).not.toContain(key);
    expect(logged).not.toContain('owner@acme.example');
  });
});
