import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { createOutboundFetcher, type OutboundFetcher } from '../../src/infra/outbound-fetch.js';
import { attemptWpPluginVerification, bodyMatchesToken, getVerificationStatus, twinHostnames } from '../../src/domain/verification/verification.service.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { startHttpsServer, type TestHttpsServer } from '../support/https-server.js';
import { seedAccount, siteFixture } from '../support/seed.js';

const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz01';
const NOW = new Date('2026-03-01T10:00:00.000Z');
const PATH_1 = 'https://example.test/?rest_route=/service/v1/verify';
const PATH_2 = 'https://example.test/wp-admin/admin-ajax.php?action=service_verify';

let db: TestDatabase;
let server: TestHttpsServer;
let fetcher: OutboundFetcher;
let siteId: number;

async function seedSite(overrides: Parameters<typeof siteFixture>[0] = {}): Promise<number> {
  const account = await seedAccount(db, {
    sites: [siteFixture({ domain: 'example.test', verified: false, method: null, verificationToken: TOKEN, forms: [], ...overrides })],
  });
  const site = account.sites.main;
  if (!site) throw new Error('seeded site missing');
  return site.id;
}

async function attemptFailure(id = siteId, using = fetcher): Promise<AppError> {
  const error = await attemptWpPluginVerification(db.prisma, using, id, NOW).then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

const failureBody = (reason1: string, reason2: string): Record<string, unknown> => ({
  error: 'The verification token was not found on the site',
  code: 'wp_plugin_fetch_failed',
  method: 'wp_plugin',
  attempts: [
    { path: PATH_1, ok: false, reason: reason1 },
    { path: PATH_2, ok: false, reason: reason2 },
  ],
});

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startHttpsServer();
  fetcher = createOutboundFetcher({ outboundTestResolve: server.resolveFor(), outboundTestCa: server.caFile }, { timeoutMs: 1000 });
});

afterAll(async () => {
  await server.close();
  await db.close();
});

beforeEach(async () => {
  await db.truncate();
  server.reset();
  siteId = await seedSite();
});

describe('token match', () => {
  it('accepts the bare token, the JSON string of it, and a JSON object whose token is it, after trimming', () => {
    expect(bodyMatchesToken(TOKEN, TOKEN)).toBe(true);
    expect(bodyMatchesToken(`\n  ${TOKEN}\r\n`, TOKEN)).toBe(true);
    expect(bodyMatchesToken(JSON.stringify(TOKEN), TOKEN)).toBe(true);
    expect(bodyMatchesToken(JSON.stringify({ token: TOKEN, plugin: 'service' }), TOKEN)).toBe(true);
  });

  it('refuses bodies that merely contain the token', () => {
    for (const body of [
      `<html><body>${TOKEN}</body></html>`,
      `${TOKEN}x`,
      `token=${TOKEN}`,
      JSON.stringify([TOKEN]),
      JSON.stringify({ data: { token: TOKEN } }),
      JSON.stringify({ token: `${TOKEN} ` }),
      JSON.stringify({ Token: TOKEN }),
      '',
      'null',
    ]) {
      expect(bodyMatchesToken(body, TOKEN), body).toBe(false);
    }
  });

  it('pairs a hostname with its www/apex twin', () => {
    expect(twinHostnames('example.test')).toStrictEqual(['example.test', 'www.example.test']);
    expect(twinHostnames('www.example.test')).toStrictEqual(['www.example.test', 'example.test']);
    expect(twinHostnames('blog.example.test')).toStrictEqual(['blog.example.test', 'www.blog.example.test']);
  });
});

describe('POST /site-verification/attempt (service)', () => {
  it('verifies on a match at the first path, without probing the second', async () => {
    server.handle('/', { body: TOKEN });
    const result = await attemptWpPluginVerification(db.prisma, fetcher, siteId, NOW);
    expect(result).toStrictEqual({
      domain: 'example.test',
      verified: true,
      method: 'wp_plugin',
      verifiedAt: NOW.toISOString(),
      lastCheckedAt: NOW.toISOString(),
    });
    expect(server.requests).toHaveLength(1);
    const [probe] = server.requests;
    expect(probe?.host).toBe('example.test');
    expect(probe?.query.get('rest_route')).toBe('/service/v1/verify');
    const site = await db.prisma.site.findUniqueOrThrow({ where: { id: siteId } });
    expect(site).toMatchObject({ verified: true, method: 'wp_plugin', verifiedAt: NOW, lastCheckedAt: NOW, failedChecks: 0, verificationToken: TOKEN });
  });

  it('verifies on a match at the second path after the first answered 404', async () => {
    server.handle('/wp-admin/admin-ajax.php', { body: TOKEN });
    const result = await attemptWpPluginVerification(db.prisma, fetcher, siteId, NOW);
    expect(result.verified).toBe(true);
    expect(server.requests.map((r) => r.pathname)).toStrictEqual(['/', '/wp-admin/admin-ajax.php']);
    expect(server.requests[1]?.query.get('action')).toBe('service_verify');
  });

  it('adds a fresh cache-busting parameter to every probe and keeps the documented query', async () => {
    await attemptFailure();
    await attemptFailure();
    const paths = server.requests.map((r) => r.path);
    expect(paths).toHaveLength(4);
    expect(paths[0]).toMatch(/^\/\?rest_route=\/service\/v1\/verify&_wgv=[0-9a-f]{16}$/);
    expect(paths[1]).toMatch(/^\/wp-admin\/admin-ajax\.php\?action=service_verify&_wgv=[0-9a-f]{16}$/);
    expect(new Set(paths).size).toBe(4);
  });

  it('accepts a JSON string body', async () => {
    server.handle('/', { body: JSON.stringify(TOKEN), headers: { 'content-type': 'application/json' } });
    expect((await attemptWpPluginVerification(db.prisma, fetcher, siteId, NOW)).verified).toBe(true);
  });

  it('accepts a JSON object body with the token', async () => {
    server.handle('/', { body: JSON.stringify({ token: TOKEN, version: '1.2.0' }), headers: { 'content-type': 'application/json' } });
    expect((await attemptWpPluginVerification(db.prisma, fetcher, siteId, NOW)).verified).toBe(true);
  });

  it('refuses a body that only contains the token, with token_mismatch at both paths', async () => {
    server.handle('/', { body: `<html><body>Search results for ${TOKEN}</body></html>` });
    server.handle('/wp-admin/admin-ajax.php', { body: `{"data":{"token":"${TOKEN}"}}` });
    const error = await attemptFailure();
    expect(error.status).toBe(422);
    expect(error.toBody()).toStrictEqual(failureBody('token_mismatch', 'token_mismatch'));
  });

  it('fails with 422 and both paths when both answer 404; lastCheckedAt moves, nothing else', async () => {
    const before = await db.prisma.site.findUniqueOrThrow({ where: { id: siteId } });
    const error = await attemptFailure();
    expect(error.status).toBe(422);
    expect(error.toBody()).toStrictEqual(failureBody('http_404', 'http_404'));
    const after = await db.prisma.site.findUniqueOrThrow({ where: { id: siteId } });
    expect(after).toStrictEqual({ ...before, lastCheckedAt: NOW, updatedAt: after.updatedAt });
  });

  it('reports each path with its own reason', async () => {
    server.handle('/', { status: 500, body: 'boom' });
    server.handle('/wp-admin/admin-ajax.php', { status: 200, body: '0' });
    expect((await attemptFailure()).toBody()).toStrictEqual(failureBody('http_500', 'token_mismatch'));
  });

  it('follows a redirect to the www twin', async () => {
    server.handle('/', { status: 301, redirect: 'https://www.example.test/?rest_route=/service/v1/verify' }, { host: 'example.test' });
    server.handle('/', { body: TOKEN }, { host: 'www.example.test' });
    expect((await attemptWpPluginVerification(db.prisma, fetcher, siteId, NOW)).verified).toBe(true);
    expect(server.requests.map((r) => r.host)).toStrictEqual(['example.test', 'www.example.test']);
  });

  it('follows a redirect from a www site to its apex', async () => {
    await db.truncate();
    const wwwSite = await seedSite({ domain: 'www.example.test' });
    server.handle('/', { redirect: 'https://example.test/' }, { host: 'www.example.test' });
    server.handle('/', { body: TOKEN }, { host: 'example.test' });
    expect((await attemptWpPluginVerification(db.prisma, fetcher, wwwSite, NOW)).domain).toBe('www.example.test');
  });

  it('refuses a redirect off the host (the token served elsewhere proves nothing)', async () => {
    server.handle('/', { redirect: 'https://other.test/' }, { host: 'example.test' });
    server.handle('/wp-admin/admin-ajax.php', { redirect: 'https://www.other.test/' }, { host: 'example.test' });
    server.handle('/', { body: TOKEN }, { host: 'other.test' });
    const error = await attemptFailure();
    expect(error.toBody()).toStrictEqual(failureBody('redirect_off_host', 'redirect_off_host'));
    expect(server.requests.every((r) => r.host === 'example.test')).toBe(true);
  });

  it('gives too_many_redirects after 3 redirects', async () => {
    server.handle('/', { redirect: '/loop' });
    server.handle('/loop', { redirect: '/loop' });
    server.handle('/wp-admin/admin-ajax.php', { redirect: '/loop' });
    expect((await attemptFailure()).toBody()).toStrictEqual(failureBody('too_many_redirects', 'too_many_redirects'));
  });

  it('gives timeout for a server slower than the budget', async () => {
    const quick = createOutboundFetcher({ outboundTestResolve: server.resolveFor(), outboundTestCa: server.caFile }, { timeoutMs: 300 });
    server.handle('/', { delayMs: 2000, body: TOKEN });
    server.handle('/wp-admin/admin-ajax.php', { delayMs: 2000, body: TOKEN });
    expect((await attemptFailure(siteId, quick)).toBody()).toStrictEqual(failureBody('timeout', 'timeout'));
    expect((await db.prisma.site.findUniqueOrThrow({ where: { id: siteId } })).verified).toBe(false);
  });

  it('gives body_too_large for a body over 64 KB, even one starting with the token', async () => {
    server.handle('/', { body: TOKEN + ' '.repeat(70 * 1024) });
    server.handle('/wp-admin/admin-ajax.php', { bodyBytes: 200 * 1024 });
    expect((await attemptFailure()).toBody()).toStrictEqual(failureBody('body_too_large', 'body_too_large'));
  });

  it('gives blocked_address when the hostname resolves to a private address', async () => {
    const lookup = async () => [{ address: '10.0.0.1', family: 4 }];
    const dnsFetcher = createOutboundFetcher({ outboundTestResolve: null, outboundTestCa: server.caFile }, { lookup });
    expect((await attemptFailure(siteId, dnsFetcher)).toBody()).toStrictEqual(failureBody('blocked_address', 'blocked_address'));
  });

  it('gives tls_error when the site certificate is not trusted', async () => {
    const untrusting = createOutboundFetcher({ outboundTestResolve: server.resolveFor(), outboundTestCa: null }, { timeoutMs: 1000 });
    expect((await attemptFailure(siteId, untrusting)).toBody()).toStrictEqual(failureBody('tls_error', 'tls_error'));
  });

  it('answers at once for an already verified site: no probe, nothing changes (a dns_txt site keeps dns_txt)', async () => {
    await db.truncate();
    const verifiedAt = new Date('2025-12-24T08:00:00.000Z');
    const lastCheckedAt = new Date('2026-02-28T03:00:00.000Z');
    const verifiedSite = await seedSite({ verified: true, method: 'dns_txt', verifiedAt: verifiedAt.toISOString(), lastCheckedAt: lastCheckedAt.toISOString() });
    const before = await db.prisma.site.findUniqueOrThrow({ where: { id: verifiedSite } });
    server.handle('/', { body: TOKEN });
    const result = await attemptWpPluginVerification(db.prisma, fetcher, verifiedSite, NOW);
    expect(result).toStrictEqual({
      domain: 'example.test',
      verified: true,
      method: 'dns_txt',
      verifiedAt: verifiedAt.toISOString(),
      lastCheckedAt: lastCheckedAt.toISOString(),
    });
    expect(server.requests).toHaveLength(0);
    expect(await db.prisma.site.findUniqueOrThrow({ where: { id: verifiedSite } })).toStrictEqual(before);
  });

  it('answers site_not_found for an archived or absent site, without probing', async () => {
    await db.truncate();
    const archived = await seedSite({ archived: true });
    for (const id of [archived, 999]) {
      const error = await attemptFailure(id);
      expect(error.toBody()).toStrictEqual({ error: 'Site not found', code: 'site_not_found' });
      expect(error.status).toBe(404);
    }
    expect(server.requests).toHaveLength(0);
  });
});

describe('GET /site-verification (service)', () => {
  it('gives the status with instructions while unverified, and the same token on every read', async () => {
    const expected = {
      domain: 'example.test',
      verified: false,
      method: null,
      verifiedAt: null,
      lastCheckedAt: null,
      methods: ['dns_txt', 'meta_tag', 'wp_plugin'],
      instructions: {
        token: TOKEN,
        dns_txt: { type: 'TXT', host: 'example.test', value: `service-verify=${TOKEN}` },
        meta_tag: { url: 'https://example.test/', html: `<meta name="service-verify" content="${TOKEN}">` },
        wp_plugin: {
          paths: [PATH_1, PATH_2],
          pluginSlug: 'service',
          note: expect.any(String) as unknown as string,
        },
      },
    };
    expect(await getVerificationStatus(db.prisma, siteId)).toStrictEqual(expected);
    expect(await getVerificationStatus(db.prisma, siteId)).toStrictEqual(expected);
  });

  it('shows lastCheckedAt after a failed attempt and drops instructions once verified', async () => {
    await attemptFailure();
    expect(await getVerificationStatus(db.prisma, siteId)).toMatchObject({ verified: false, lastCheckedAt: NOW.toISOString(), verifiedAt: null });
    server.handle('/', { body: TOKEN });
    const later = new Date(NOW.getTime() + 60_000);
    await attemptWpPluginVerification(db.prisma, fetcher, siteId, later);
    expect(await getVerificationStatus(db.prisma, siteId)).toStrictEqual({
      domain: 'example.test',
      verified: true,
      method: 'wp_plugin',
      verifiedAt: later.toISOString(),
      lastCheckedAt: later.toISOString(),
      methods: ['dns_txt', 'meta_tag', 'wp_plugin'],
    });
  });
});
