import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MemoryRateLimitStore } from '../../src/infra/rate-limit.js';
import { regenerateSiteKey } from '../../src/domain/verification/sites.service.js';
import { WP_PLUGIN_NOTE } from '../../src/domain/verification/verification-status.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { startHttpsServer, type TestHttpsServer } from '../support/https-server.js';
import { seedAccount, siteFixture, testHasher } from '../support/seed.js';

const TOKEN = 'routeTOKEN_abcdefghijklmnopqrstu';
const PATH_1 = 'https://example.test/?rest_route=/service/v1/verify';
const PATH_2 = 'https://example.test/wp-admin/admin-ajax.php?action=service_verify';
const MISSING = { error: 'The X-Service-Site-Key header is required', code: 'missing_site_key' };
const NOT_FOUND = { error: 'Site not found', code: 'site_not_found' };
const METHODS = ['dns_txt', 'meta_tag', 'wp_plugin'];
const INSTRUCTIONS = {
  token: TOKEN,
  dns_txt: { type: 'TXT', host: 'example.test', value: `service-verify=${TOKEN}` },
  meta_tag: { url: 'https://example.test/', html: `<meta name="service-verify" content="${TOKEN}">` },
  wp_plugin: { paths: [PATH_1, PATH_2], pluginSlug: 'service', note: WP_PLUGIN_NOTE },
};

let server: TestHttpsServer;
let t: TestApp;
/** Site ids restart after each truncate, so the budgets must restart too. */
const rateLimits = new MemoryRateLimitStore();

type SiteOverrides = Parameters<typeof siteFixture>[0];

async function seedSite(overrides: SiteOverrides = {}): Promise<{ id: number; siteKey: string; apiKey: string }> {
  const account = await seedAccount(t.db, {
    sites: [siteFixture({ domain: 'example.test', verified: false, method: null, verificationToken: TOKEN, forms: [], ...overrides })],
  });
  const site = account.sites.main;
  const apiKey = account.apiKeys.full;
  if (!site || !apiKey) throw new Error('seeded site missing');
  return { id: site.id, siteKey: site.siteKey, apiKey: apiKey.key };
}

beforeAll(async () => {
  server = await startHttpsServer();
  t = await createTestApp({ rateLimits, env: { OUTBOUND_TEST_RESOLVE: server.resolveFor(), OUTBOUND_TEST_CA: server.caFile } });
});

afterAll(async () => {
  await t.close();
  await server.close();
});

beforeEach(async () => {
  await t.db.truncate();
  await rateLimits.close();
  server.reset();
});

describe('GET /v1/site-verification', () => {
  it('answers 401 missing_site_key without the header (or with an empty one), and a Bearer API key does not stand in', async () => {
    const { apiKey } = await seedSite();
    for (const options of [{}, { headers: { 'x-service-site-key': '' } }, { key: apiKey }]) {
      const response = await t.request('GET', '/v1/site-verification', options);
      expect(response.status).toBe(401);
      expect(response.body).toStrictEqual(MISSING);
    }
  });

  it('answers the same 404 site_not_found for an unknown, malformed or regenerated key and an archived site', async () => {
    const current = await seedSite();
    const { siteKey: oldKey } = current;
    await regenerateSiteKey(t.db.prisma, testHasher, current.id);
    const archived = await seedAccount(t.db, { ref: 'other', ownerEmail: 'o@other.test', sites: [siteFixture({ domain: 'other.test', archived: true, forms: [] })] });
    const keys = [`svc_site_${'A'.repeat(43)}`, 'svc_site_short', 'svc_live_' + 'B'.repeat(43), oldKey, archived.sites.main?.siteKey ?? ''];
    const texts = new Set<string>();
    for (const siteKey of keys) {
      const response = await t.request('GET', '/v1/site-verification', { siteKey });
      expect(response.status, siteKey.slice(0, 12)).toBe(404);
      expect(response.body).toStrictEqual(NOT_FOUND);
      texts.add(response.text);
    }
    expect(texts.size).toBe(1);
  });

  it('gives the exact status with instructions while unverified, the token unchanged by reads', async () => {
    const { id, siteKey } = await seedSite();
    const expected = { domain: 'example.test', verified: false, method: null, verifiedAt: null, lastCheckedAt: null, methods: METHODS, instructions: INSTRUCTIONS };
    const first = await t.request('GET', '/v1/site-verification', { siteKey });
    expect(first.status).toBe(200);
    expect(first.body).toStrictEqual(expected);
    expect((await t.request('GET', '/v1/site-verification', { siteKey })).body).toStrictEqual(expected);
    expect((await t.db.prisma.site.findUniqueOrThrow({ where: { id } })).verificationToken).toBe(TOKEN);
  });

  it('omits instructions once verified', async () => {
    const { siteKey } = await seedSite({ verified: true, method: 'dns_txt', verifiedAt: '2026-01-02T03:04:05.000Z', lastCheckedAt: '2026-02-01T00:00:00.000Z' });
    const response = await t.request('GET', '/v1/site-verification', { siteKey });
    expect(response.status).toBe(200);
    expect(response.body).toStrictEqual({
      domain: 'example.test',
      verified: true,
      method: 'dns_txt',
      verifiedAt: '2026-01-02T03:04:05.000Z',
      lastCheckedAt: '2026-02-01T00:00:00.000Z',
      methods: METHODS,
    });
    expect(response.text).not.toContain(TOKEN);
  });
});

describe('POST /v1/site-verification/attempt', () => {
  it('answers 401 missing_site_key and 404 site_not_found like the status route', async () => {
    await seedSite();
    const missing = await t.request('POST', '/v1/site-verification/attempt');
    expect([missing.status, missing.body]).toStrictEqual([401, MISSING]);
    const unknown = await t.request('POST', '/v1/site-verification/attempt', { siteKey: `svc_site_${'C'.repeat(43)}` });
    expect([unknown.status, unknown.body]).toStrictEqual([404, NOT_FOUND]);
    expect(server.requests).toHaveLength(0);
  });

  it('verifies the site when the plugin serves the token, answering 200 with the exact body', async () => {
    const { id, siteKey } = await seedSite();
    server.handle('/', { body: JSON.stringify({ token: TOKEN }) });
    const response = await t.request('POST', '/v1/site-verification/attempt', { siteKey });
    expect(response.status).toBe(200);
    const site = await t.db.prisma.site.findUniqueOrThrow({ where: { id } });
    expect(site.verifiedAt).not.toBeNull();
    expect(response.body).toStrictEqual({
      domain: 'example.test',
      verified: true,
      method: 'wp_plugin',
      verifiedAt: site.verifiedAt?.toISOString(),
      lastCheckedAt: site.lastCheckedAt?.toISOString(),
    });
    const status = await t.request('GET', '/v1/site-verification', { siteKey });
    expect(status.body).toStrictEqual({ ...response.body, methods: METHODS });
  });

  it('answers 422 wp_plugin_fetch_failed with both paths in order when the token is not found', async () => {
    const { id, siteKey } = await seedSite();
    server.handle('/', { body: `<p>${TOKEN}</p>` });
    const response = await t.request('POST', '/v1/site-verification/attempt', { siteKey });
    expect(response.status).toBe(422);
    expect(response.body).toStrictEqual({
      error: 'The verification token was not found on the site',
      code: 'wp_plugin_fetch_failed',
      method: 'wp_plugin',
      attempts: [
        { path: PATH_1, ok: false, reason: 'token_mismatch' },
        { path: PATH_2, ok: false, reason: 'http_404' },
      ],
    });
    const site = await t.db.prisma.site.findUniqueOrThrow({ where: { id } });
    expect(site).toMatchObject({ verified: false, verifiedAt: null, method: null });
    expect(site.lastCheckedAt).not.toBeNull();
  });

  it('answers at once for a verified site without probing, nothing changed', async () => {
    const { siteKey } = await seedSite({ verified: true, method: 'meta_tag', verifiedAt: '2026-01-02T03:04:05.000Z', lastCheckedAt: null });
    const response = await t.request('POST', '/v1/site-verification/attempt', { siteKey });
    expect([response.status, response.body]).toStrictEqual([
      200,
      { domain: 'example.test', verified: true, method: 'meta_tag', verifiedAt: '2026-01-02T03:04:05.000Z', lastCheckedAt: null },
    ]);
    expect(server.requests).toHaveLength(0);
  });

  it('allows 30 attempts per hour per site key, then 429 rate_limited, while status reads go on', async () => {
    const { siteKey } = await seedSite({ verified: true, method: 'dns_txt' });
    for (let i = 0; i < 30; i++) {
      expect((await t.request('POST', '/v1/site-verification/attempt', { siteKey })).status).toBe(200);
    }
    const limited = await t.request('POST', '/v1/site-verification/attempt', { siteKey });
    expect(limited.status).toBe(429);
    expect(limited.body).toStrictEqual({ error: expect.any(String), code: 'rate_limited', retryAfter: expect.any(Number) });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await t.request('GET', '/v1/site-verification', { siteKey })).status).toBe(200);

    // Another site's key has its own budget.
    const other = await seedAccount(t.db, { ref: 'b', ownerEmail: 'b@other.test', sites: [siteFixture({ domain: 'other.test', forms: [] })] });
    expect((await t.request('POST', '/v1/site-verification/attempt', { siteKey: other.sites.main?.siteKey ?? '' })).status).toBe(200);
  });

  it('counts failed attempts against the budget too', async () => {
    const { siteKey } = await seedSite();
    for (let i = 0; i < 30; i++) {
      expect((await t.request('POST', '/v1/site-verification/attempt', { siteKey })).status).toBe(422);
    }
    expect(server.requests).toHaveLength(60);
    expect((await t.request('POST', '/v1/site-verification/attempt', { siteKey })).status).toBe(429);
    expect(server.requests).toHaveLength(60);
  });
});
