import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/infra/db.js';
import { PhiCipher } from '../../src/infra/phi-crypto.js';
import { runCli } from '../cli/run-cli.js';

/* `admin secrets rewrap` on a real embedded database, through the real CLI: rows written under A move to B. */
const A = randomBytes(32).toString('base64');
const B = randomBytes(32).toString('base64');
const VALUES = { Name: 'Ada', Email: 'ada@example.com' };

let dir: string;
let fixture: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'wg-rewrap-'));
  fixture = join(mkdtempSync(join(tmpdir(), 'wg-rewrap-files-')), 'phi.json');
  const submissions = Array.from({ length: 3 }, () => ({ formData: VALUES }));
  const forms = [{ ref: 'intake', name: 'Intake', phi: true, fields: [{ id: 'name', type: 'text', label: 'Name' }], submissions }];
  writeFileSync(fixture, JSON.stringify({ accounts: [{ ref: 'a', name: 'A', kind: 'personal', plan: 'pro', sites: [{ ref: 's', domain: 'a.example', verified: true, method: 'dns_txt', forms }] }] }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function keyIds(): Promise<{ keyId: string | null; ciphertext: Uint8Array | null }[]> {
  const db = await openDatabase({ databaseUrl: null, dataDir: dir });
  try {
    return await db.prisma.submission.findMany({ select: { formDataKeyId: true, formDataCiphertext: true }, orderBy: { id: 'asc' } }).then((rows) =>
      rows.map((row) => ({ keyId: row.formDataKeyId, ciphertext: row.formDataCiphertext })),
    );
  } finally {
    await db.close();
  }
}

describe('admin secrets rewrap', { timeout: 180_000 }, () => {
  it('refuses a malformed SECRET_KEY_PREVIOUS with exit 2 and a message naming it', async () => {
    const result = await runCli(['migrate'], { DATA_DIR: dir, SECRET_KEY: B, SECRET_KEY_PREVIOUS: `${A},not-a-key` });
    expect([result.exitCode, result.stdout]).toStrictEqual([2, '']);
    expect(result.err).toStrictEqual({ code: 'config_error', error: 'SECRET_KEY_PREVIOUS (key 2) must be at least 32 bytes, base64-encoded' });
  });

  it('refuses, writing nothing, while a row names a key no configured key opens', async () => {
    expect((await runCli(['import', fixture], { DATA_DIR: dir, SECRET_KEY: A })).exitCode).toBe(0);
    const before = await keyIds();
    const result = await runCli(['secrets', 'rewrap'], { DATA_DIR: dir, SECRET_KEY: B });
    expect([result.exitCode, result.stdout, (result.err as { code: string }).code]).toStrictEqual([2, '', 'unknown_key_id']);
    expect((result.err as { error: string }).error).toContain('SECRET_KEY_PREVIOUS');
    expect(await keyIds()).toStrictEqual(before);
  });

  it('moves every row to B (then B alone reads them), and a second run finds nothing to do', async () => {
    const first = await runCli(['secrets', 'rewrap'], { DATA_DIR: dir, SECRET_KEY: B, SECRET_KEY_PREVIOUS: A });
    expect([first.exitCode, first.stderr, first.out]).toStrictEqual([0, '', { rewrapped: 3, remaining: 0 }]);
    const onlyB = new PhiCipher(Buffer.from(B, 'base64'));
    const rows = await keyIds();
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row.keyId).toBe(onlyB.keyId);
      expect(onlyB.decrypt(row.ciphertext!, row.keyId!)).toStrictEqual(VALUES);
    }
    const again = await runCli(['secrets', 'rewrap'], { DATA_DIR: dir, SECRET_KEY: B });
    expect([again.exitCode, again.out]).toStrictEqual([0, { rewrapped: 0, remaining: 0 }]);
  });
});
