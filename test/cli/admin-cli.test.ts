import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockDataDir, openDatabase } from '../../src/infra/db.js';
import { READ_SCOPES } from '../../src/scopes.js';
import { readMigrations } from '../../src/infra/migrations.js';
import { KeyHasher } from '../../src/infra/secrets.js';
import { createTestDatabase, hasPostgres, type TestDatabase } from '../support/database.js';
import { TEST_SECRET_KEY, testHasher } from '../support/seed.js';
import { runCli, type CliResult } from './run-cli.js';

const EXAMPLE = new URL('../fixtures/section3-example.json', import.meta.url).pathname;
const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
const API_KEY = expect.stringMatching(/^svc_live_[A-Za-z0-9_-]{43}$/);
const SITE_KEY = expect.stringMatching(/^svc_site_[A-Za-z0-9_-]{43}$/);
const TOKEN = expect.stringMatching(/^[A-Za-z0-9_-]{32}$/);

/** A failure: nothing on stdout, `{ error, code }` (and nothing else) on stderr. */
function expectFailure(result: CliResult, exitCode: number, code: string): string {
  expect({ exitCode: result.exitCode, stdout: result.stdout, err: result.err }).toStrictEqual({
    exitCode,
    stdout: '',
    err: { error: expect.any(String), code },
  });
  return (result.err as { error: string }).error;
}

function expectSuccess(result: CliResult): unknown {
  expect({ exitCode: result.exitCode, stderr: result.stderr }).toStrictEqual({ exitCode: 0, stderr: '' });
  return result.out;
}

let dir: string;
let files: string;
let issued: { id: number; key: string };
const embedded = (args: string[]) => runCli(args, { DATA_DIR: dir });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'wg-cli-'));
  files = mkdtempSync(join(tmpdir(), 'wg-cli-files-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(files, { recursive: true, force: true });
});

// Child processes are slow on a busy machine (each loads tsx and Prisma): generous per-test limits.
describe('admin CLI on the embedded database', { timeout: 120_000 }, () => {
  it('migrate applies every migration on a new data directory, then nothing', async () => {
    expect(expectSuccess(await embedded(['migrate']))).toStrictEqual({ applied: readMigrations().map((m) => m.name) });
    expect(expectSuccess(await embedded(['migrate']))).toStrictEqual({ applied: [] });
  });

  it('refuses bad command lines with exit 2 and code usage, before touching the database', async () => {
    const results = await Promise.all([
      embedded([]),
      embedded(['frobnicate']),
      embedded(['accounts', 'create', '--name', 'Acme', '--plan', 'pro']),
      embedded(['accounts', 'create', '--name', 'Acme', '--kind', 'personal', '--plan', 'pro', '--colour', 'red']),
      embedded(['accounts', 'set-plan', 'abc', 'pro']),
      embedded(['accounts', 'show', '01']),
      embedded(['keys', 'create']),
      embedded(['keys', 'revoke']),
      embedded(['sites', 'create', '--account', '1', '--domain', 'x.example', '--verified']),
      embedded(['sites', 'set-verified', '1', 'maybe']),
      embedded(['migrate', 'now']),
    ]);
    for (const result of results) expectFailure(result, 2, 'usage');
    expect((results[2]!.err as { error: string }).error).toContain('--kind is required');
  });

  it('answers help with the list of commands', async () => {
    const out = expectSuccess(await embedded(['help'])) as { usage: string[] };
    expect(out.usage).toContain('migrate');
    expect(out.usage.some((line) => line.startsWith('keys create --account ID'))).toBe(true);
  });

  it('refuses bad option values with validation_failed', async () => {
    const results = await Promise.all([
      embedded(['accounts', 'create', '--name', 'Acme', '--kind', 'company', '--plan', 'pro']),
      embedded(['accounts', 'create', '--name', 'Acme', '--kind', 'personal', '--plan', 'pro', '--owner-email', 'nope']),
      embedded(['accounts', 'set-plan', '1', 'platinum']),
      embedded(['keys', 'create', '--account', '1', '--scopes', 'read:forms,admin:all']),
      embedded(['keys', 'create', '--account', '1', '--expires-at', 'tomorrow']),
      embedded(['keys', 'create', '--account', '1', '--rate-limit=0']),
      embedded(['sites', 'create', '--account', '1', '--domain', 'x.example', '--environment', 'qa']),
      embedded(['sites', 'set-verified', '1', 'true', '--method', 'carrier_pigeon']),
      embedded(['sites', 'create', '--account', '1', '--domain', 'not a host']),
    ]);
    const messages = results.map((result) => expectFailure(result, 1, 'validation_failed'));
    expect(messages[0]).toContain('--kind');
    expect(messages[3]).toContain('admin:all');
    expect(messages[8]).toContain('domain');
  });

  it('accounts create, show and set-plan, with not_found for an unknown id', async () => {
    expect(expectSuccess(await embedded(['accounts', 'create', '--name', 'Acme', '--kind', 'organization', '--plan', 'pro', '--owner-email', 'owner@acme.example']))).toStrictEqual({ id: 1 });
    expect(expectSuccess(await embedded(['accounts', 'set-plan', '1', 'business']))).toStrictEqual({ id: 1, plan: 'business' });
    expect(expectSuccess(await embedded(['accounts', 'show', '1']))).toStrictEqual({
      id: 1,
      name: 'Acme',
      kind: 'organization',
      plan: 'business',
      ownerEmail: 'owner@acme.example',
      webhookSigningSecret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expectFailure(await embedded(['accounts', 'show', '99']), 1, 'not_found');
  });

  it('keys create (read-only by default), list and revoke', async () => {
    const readOnly = expectSuccess(await embedded(['keys', 'create', '--account', '1'])) as { key: string };
    expect(readOnly).toStrictEqual({ id: 1, key: API_KEY, scopes: READ_SCOPES, expiresAt: null });
    const full = expectSuccess(
      await embedded(['keys', 'create', '--account', '1', '--scopes', 'read:forms,write:forms', '--expires-at', '2030-01-01T00:00:00Z', '--rate-limit', '50', '--name', 'ci']),
    ) as { key: string };
    expect(full).toStrictEqual({ id: 2, key: API_KEY, scopes: ['read:forms', 'write:forms'], expiresAt: '2030-01-01T00:00:00.000Z' });
    expect(expectSuccess(await embedded(['keys', 'revoke', '1']))).toStrictEqual({ id: 1, revokedAt: ISO });
    const list = expectSuccess(await embedded(['keys', 'list', '--account', '1']));
    expect(list).toStrictEqual([
      { id: 2, name: 'ci', scopes: ['read:forms', 'write:forms'], lastFour: full.key.slice(-4), createdAt: ISO, expiresAt: '2030-01-01T00:00:00.000Z', revokedAt: null, lastUsedAt: null },
      { id: 1, name: null, scopes: READ_SCOPES, lastFour: readOnly.key.slice(-4), createdAt: ISO, expiresAt: null, revokedAt: ISO, lastUsedAt: null },
    ]);
    expect(JSON.stringify(list)).not.toContain(full.key);
    expectFailure(await embedded(['keys', 'revoke', '99']), 1, 'not_found');
    issued = full as { id: number; key: string };
  });

  it('sites create, set-verified, regenerate-key and archive', async () => {
    const site = expectSuccess(await embedded(['sites', 'create', '--account', '1', '--domain', 'Acme.Example.'])) as { verificationToken: string; siteKey: string };
    expect(site).toStrictEqual({ id: 1, siteKey: SITE_KEY, verificationToken: TOKEN });
    expect(expectSuccess(await embedded(['sites', 'set-verified', '1', 'true', '--method', 'meta_tag']))).toStrictEqual({
      domain: 'acme.example',
      verified: true,
      method: 'meta_tag',
      verifiedAt: ISO,
      lastCheckedAt: null,
      methods: ['dns_txt', 'meta_tag', 'wp_plugin'],
    });
    const token = site.verificationToken;
    expect(expectSuccess(await embedded(['sites', 'set-verified', '1', 'false']))).toStrictEqual({
      domain: 'acme.example',
      verified: false,
      method: 'meta_tag',
      verifiedAt: null,
      lastCheckedAt: null,
      methods: ['dns_txt', 'meta_tag', 'wp_plugin'],
      instructions: {
        token,
        dns_txt: { type: 'TXT', host: 'acme.example', value: `service-verify=${token}` },
        meta_tag: { url: 'https://acme.example/', html: `<meta name="service-verify" content="${token}">` },
        wp_plugin: {
          paths: ['https://acme.example/?rest_route=/service/v1/verify', 'https://acme.example/wp-admin/admin-ajax.php?action=service_verify'],
          pluginSlug: 'service',
          note: expect.any(String),
        },
      },
    });
    const regenerated = expectSuccess(await embedded(['sites', 'regenerate-key', '1'])) as { siteKey: string };
    expect(regenerated).toStrictEqual({ id: 1, siteKey: SITE_KEY });
    expect(regenerated.siteKey).not.toBe(site.siteKey);
    expect(expectSuccess(await embedded(['sites', 'archive', '1']))).toStrictEqual({ id: 1, archivedAt: ISO });
    expect(expectSuccess(await embedded(['sites', 'create', '--account', '1', '--domain', 'stage.acme.example', '--environment', 'staging', '--verified', '--method', 'dns_txt']))).toStrictEqual({
      id: 2,
      siteKey: SITE_KEY,
      verificationToken: TOKEN,
    });
    expectFailure(await embedded(['sites', 'archive', '99']), 1, 'not_found');
  });

  it('import loads the §3 example and prints the output map; bad files fail before the database opens', async () => {
    expect(expectSuccess(await embedded(['import', EXAMPLE]))).toStrictEqual({
      accounts: {
        acme: {
          id: 2,
          apiKeys: { full: { id: 3, key: API_KEY } },
          sites: { main: { id: 3, siteKey: SITE_KEY, verificationToken: TOKEN } },
          forms: { contact: { id: 1, submissionIds: [1] }, old: { id: 2, submissionIds: [] } },
          calendarWidgets: { demo: { id: 1, bookingIds: [1] } },
          ecommerceWidgets: { tee: { id: 1, orderIds: [1] } },
          collections: { store: { id: 1, orderIds: [2] } },
        },
      },
    });
    const broken = join(files, 'broken.json');
    writeFileSync(broken, '{ "accounts": [ HIDDEN-VALUE ');
    const invalid = join(files, 'invalid.json');
    writeFileSync(invalid, JSON.stringify({ accounts: [{ ref: 'a', name: 'A', kind: 'company', plan: 'pro' }] }));
    const [bad, missing, wrong] = await Promise.all([
      embedded(['import', broken]),
      embedded(['import', join(files, 'absent.json')]),
      embedded(['import', invalid]),
    ]);
    expect(expectFailure(bad!, 1, 'invalid_json')).not.toContain('HIDDEN-VALUE');
    expectFailure(missing!, 1, 'not_found');
    expect(expectFailure(wrong!, 1, 'validation_failed')).toContain('accounts[0].kind');
  });

  it('refuses a data directory the server holds, with exit 2 and code database_locked', async () => {
    const unlock = lockDataDir(dir);
    try {
      const message = expectFailure(await embedded(['accounts', 'show', '1']), 2, 'database_locked');
      expect(message).toContain('server is running on this data directory');
      expect(message).toContain(String(process.pid));
    } finally {
      unlock();
    }
  });

  it('stored only the hash of the key it printed, under the data directory secret the server uses', async () => {
    const hasher = new KeyHasher(Buffer.from(readFileSync(join(dir, 'secret.key'), 'utf8').trim(), 'base64'));
    const db = await openDatabase({ databaseUrl: null, dataDir: dir });
    try {
      const row = await db.prisma.apiKey.findUniqueOrThrow({ where: { id: issued.id } });
      expect([row.keyHash, row.lastFour]).toStrictEqual([hasher.hash(issued.key), issued.key.slice(-4)]);
      const site = await db.prisma.site.findUniqueOrThrow({ where: { id: 2 } });
      expect([site.environment, site.verified, site.method, site.verifiedAt instanceof Date]).toStrictEqual(['staging', true, 'dns_txt', true]);
    } finally {
      await db.close();
    }
  });
});


describe.runIf(hasPostgres)('admin CLI on PostgreSQL', { timeout: 120_000 }, () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  const pg = (args: string[]) => runCli(args, env);

  beforeAll(async () => {
    db = await createTestDatabase();
    env = { DATABASE_URL: db.url!, SECRET_KEY: TEST_SECRET_KEY.toString('base64') };
  });
  afterAll(async () => {
    await db?.close();
  });

  it('refuses to run without SECRET_KEY', async () => {
    expect(expectFailure(await runCli(['migrate'], { DATABASE_URL: db.url! }), 2, 'config_error')).toContain('SECRET_KEY');
  });

  it('finds the migrations applied and runs every command against the server, several at once', async () => {
    expect(expectSuccess(await pg(['migrate']))).toStrictEqual({ applied: [] });
    expect(expectSuccess(await pg(['accounts', 'create', '--name', 'Acme', '--kind', 'personal', '--plan', 'free']))).toStrictEqual({ id: 1 });
    const [key, site, imported, plan] = await Promise.all([
      pg(['keys', 'create', '--account', '1', '--scopes', 'read:forms']),
      pg(['sites', 'create', '--account', '1', '--domain', 'pg.example', '--verified', '--method', 'wp_plugin']),
      pg(['import', EXAMPLE]),
      pg(['accounts', 'set-plan', '1', 'starter']),
    ]);
    const issuedKey = expectSuccess(key!) as { id: number; key: string };
    const created = expectSuccess(site!) as { id: number; siteKey: string };
    const map = expectSuccess(imported!) as { accounts: { acme: { id: number; apiKeys: { full: { id: number; key: string } } } } };
    expect(expectSuccess(plan!)).toStrictEqual({ id: 1, plan: 'starter' });

    // The server verifies keys with the same SECRET_KEY, so the stored hashes must be under it.
    const keyRow = await db.prisma.apiKey.findUniqueOrThrow({ where: { id: issuedKey.id } });
    expect([keyRow.keyHash, keyRow.scopes]).toStrictEqual([testHasher.hash(issuedKey.key), ['read:forms']]);
    const fullRow = await db.prisma.apiKey.findUniqueOrThrow({ where: { id: map.accounts.acme.apiKeys.full.id } });
    expect([fullRow.accountId, fullRow.keyHash]).toStrictEqual([map.accounts.acme.id, testHasher.hash(map.accounts.acme.apiKeys.full.key)]);
    const siteRow = await db.prisma.site.findUniqueOrThrow({ where: { id: created.id } });
    expect([siteRow.siteKeyHash, siteRow.verified, siteRow.method]).toStrictEqual([testHasher.hash(created.siteKey), true, 'wp_plugin']);
    expect((await db.prisma.booking.findFirstOrThrow()).cancellationToken).toBe('HIDDEN-CANCEL-TOKEN-91f3');

    const [revoked, archived, list, ...missing] = await Promise.all([
      pg(['keys', 'revoke', String(issuedKey.id)]),
      pg(['sites', 'archive', String(created.id)]),
      pg(['keys', 'list', '--account', '1']),
      pg(['sites', 'set-verified', '999', 'true']),
      pg(['accounts', 'set-plan', '999', 'free']),
      pg(['keys', 'create', '--account', '999']),
      pg(['keys', 'list', '--account', '999']),
    ]);
    expect(expectSuccess(revoked!)).toStrictEqual({ id: issuedKey.id, revokedAt: ISO });
    expect(expectSuccess(archived!)).toStrictEqual({ id: created.id, archivedAt: ISO });
    expect(expectSuccess(list!)).toHaveLength(1);
    for (const result of missing) expectFailure(result, 1, 'not_found');
  });
});
