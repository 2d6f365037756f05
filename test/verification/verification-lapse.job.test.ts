import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/infra/db.js';
import { createOutboundFetcher, type OutboundFetcher } from '../../src/infra/outbound-fetch.js';
import { headHasVerificationMeta } from '../../src/domain/verification/meta-tag.js';
import { recheckVerifiedSites, type TxtResolver } from '../../src/worker/jobs/verification-lapse.job.js';
import { createTestDatabase, hasPostgres, type TestDatabase } from '../support/database.js';
import { startHttpsServer, type TestHttpsServer } from '../support/https-server.js';
import { seedAccount, siteFixture, testHasher } from '../support/seed.js';
import { createTestApp } from '../support/app.js';
import { createDemoData } from '../../src/fixtures/demo.service.js';

const TOKEN = 'lapseTOKEN_abcdefghijklmnopqrstu';
const T0 = new Date('2026-03-01T03:00:00.000Z');
const VERIFIED_AT = new Date('2026-01-15T12:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;
const at = (days: number, ms = 0): Date => new Date(T0.getTime() + days * DAY + ms);

let db: TestDatabase;
let server: TestHttpsServer;
let fetcher: OutboundFetcher;

type SiteOverrides = Parameters<typeof siteFixture>[0];

async function seedSites(...sites: SiteOverrides[]): Promise<Record<string, number>> {
  const account = await seedAccount(db, {
    sites: sites.map((overrides, index) =>
      siteFixture({
        ref: `s${index}`,
        domain: 'example.test',
        verified: true,
        method: 'dns_txt',
        verifiedAt: VERIFIED_AT.toISOString(),
        verificationToken: TOKEN,
        forms: [],
        ...overrides,
      }),
    ),
  });
  return Object.fromEntries(Object.entries(account.sites).map(([ref, site]) => [ref, site.id]));
}

const site = (id: number | undefined) => db.prisma.site.findUniqueOrThrow({ where: { id: id ?? -1 } });

/** TXT answers per hostname; records every lookup. */
function txtResolver(answers: Record<string, string[][]>): TxtResolver & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (hostname: string): Promise<string[][]> => {
    asked.push(hostname);
    const records = answers[hostname];
    if (!records) throw Object.assign(new Error('queryTxt ENOTFOUND'), { code: 'ENOTFOUND' });
    return records;
  };
  return Object.assign(resolve, { asked });
}

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
});

describe('verification lapse job', () => {
  it('turns a site unverified after three failed daily checks in a row, clearing verifiedAt and keeping the method', async () => {
    const { s0 } = await seedSites({});
    const resolveTxt = txtResolver({});

    expect(await recheckVerifiedSites({ prisma: db.prisma, fetcher, resolveTxt }, at(0))).toStrictEqual({ checked: 1, lapsed: 0 });
    expect(await site(s0)).toMatchObject({ verified: true, verifiedAt: VERIFIED_AT, failedChecks: 1, lastCheckedAt: at(0) });

    expect(await recheckVerifiedSites({ prisma: db.prisma, fetcher, resolveTxt }, at(1))).toStrictEqual({ checked: 1, lapsed: 0 });
    expect(await site(s0)).toMatchObject({ verified: true, verifiedAt: VERIFIED_AT, failedChecks: 2, lastCheckedAt: at(1) });

    expect(await recheckVerifiedSites({ prisma: db.prisma, fetcher, resolveTxt }, at(2))).toStrictEqual({ checked: 1, lapsed: 1 });
    expect(await site(s0)).toMatchObject({ verified: false, verifiedAt: null, method: 'dns_txt', failedChecks: 3, lastCheckedAt: at(2) });

    // Unverified now: later runs leave it alone.
    expect(await recheckVerifiedSites({ prisma: db.prisma, fetcher, resolveTxt }, at(3))).toStrictEqual({ checked: 0, lapsed: 0 });
    expect(resolveTxt.asked).toStrictEqual(['example.test', 'example.test', 'example.test']);
  });

  it('leaves the first-start demo site verified: its fictional hostname fails every check, yet form creation keeps working', async () => {
    const demo = await createDemoData(db.prisma, testHasher, at(0));
    const { s0 } = await seedSites({});
    const resolveTxt = txtResolver({});
    for (const day of [0, 1, 2, 3]) await recheckVerifiedSites({ prisma: db.prisma, fetcher, resolveTxt }, at(day));

    expect(await site(demo.siteId)).toMatchObject({ demo: true, verified: true, method: 'dns_txt', failedChecks: 0, lastCheckedAt: null });
    // The ordinary site beside it lapsed on the same failures, and the demo's hostname was never even looked up.
    expect(await site(s0)).toMatchObject({ demo: false, verified: false });
    expect(resolveTxt.asked).toStrictEqual(['example.test', 'example.test', 'example.test']);

    const app = await createTestApp({ db });
    const created = await app.request('POST', '/v1/forms', {
      key: demo.apiKey,
      body: { name: 'After the lapse runs', domainId: demo.siteId, fields: [{ id: 'email', type: 'email', label: 'Email' }] },
    });
    expect(created.status).toBe(201);
    await app.close();
  });

  it('checks a site at most once a day', async () => {
    const { s0 } = await seedSites({});
    const resolveTxt = txtResolver({});
    await recheckVerifiedSites({ prisma: db.prisma, fetcher, resolveTxt }, at(0));
    expect(await recheckVerifiedSites({ prisma: db.prisma, fetcher, resolveTxt }, at(0, 60 * 60 * 1000))).toStrictEqual({ checked: 0, lapsed: 0 });
    expect(await recheckVerifiedSites({ prisma: db.prisma, fetcher, resolveTxt }, at(0, 12 * 60 * 60 * 1000))).toStrictEqual({ checked: 0, lapsed: 0 });
    expect((await site(s0)).failedChecks).toBe(1);
    // A daily schedule starting a few minutes early must not skip the day.
    expect(await recheckVerifiedSites({ prisma: db.prisma, fetcher, resolveTxt }, at(1, -10 * 60 * 1000))).toStrictEqual({ checked: 1, lapsed: 0 });
  });

  it('resets the failure count on a passing check, so only failures in a row count', async () => {
    const { s0 } = await seedSites({});
    const failing = txtResolver({});
    const passing = txtResolver({ 'example.test': [['v=spf1 -all'], [`service-verify=${TOKEN}`]] });
    await recheckVerifiedSites({ prisma: db.prisma, fetcher, resolveTxt: failing }, at(0));
    await recheckVerifiedSites({ prisma: db.prisma, fetcher, resolveTxt: failing }, at(1));
    expect(await recheckVerifiedSites({ prisma: db.prisma, fetcher, resolveTxt: passing }, at(2))).toStrictEqual({ checked: 1, lapsed: 0 });
    expect(await site(s0)).toMatchObject({ verified: true, failedChecks: 0, verifiedAt: at(2), lastCheckedAt: at(2) });
    await recheckVerifiedSites({ prisma: db.prisma, fetcher, resolveTxt: failing }, at(3));
    await recheckVerifiedSites({ prisma: db.prisma, fetcher, resolveTxt: failing }, at(4));
    expect(await site(s0)).toMatchObject({ verified: true, failedChecks: 2, verifiedAt: at(2) });
  });

  it('dns_txt: needs the exact value in a TXT record of the hostname itself (chunks joined)', async () => {
    const { s0, s1, s2 } = await seedSites({ domain: 'one.test' }, { domain: 'two.test' }, { domain: 'three.test' });
    const resolveTxt = txtResolver({
      'one.test': [['service-verify=', TOKEN]],
      'two.test': [[`service-verify=${TOKEN}x`], [`xservice-verify=${TOKEN}`]],
      '_service-verify.three.test': [[`service-verify=${TOKEN}`]],
    });
    expect(await recheckVerifiedSites({ prisma: db.prisma, fetcher, resolveTxt }, at(0))).toStrictEqual({ checked: 3, lapsed: 0 });
    expect((await site(s0)).failedChecks).toBe(0);
    expect((await site(s1)).failedChecks).toBe(1);
    expect((await site(s2)).failedChecks).toBe(1);
  });

  it('meta_tag: fetches https://<host>/ and finds the tag in the head only', async () => {
    const { s0 } = await seedSites({ method: 'meta_tag' });
    server.handle('/', { body: `<!doctype html><html><head><title>Hi</title>\n<META content='${TOKEN}' NAME="service-verify" /></head><body></body></html>` });
    expect(await recheckVerifiedSites({ prisma: db.prisma, fetcher }, at(0))).toStrictEqual({ checked: 1, lapsed: 0 });
    expect((await site(s0)).failedChecks).toBe(0);
    expect(server.requests.map((r) => `${r.host}${r.path}`)).toStrictEqual(['example.test/']);

    server.handle('/', { body: `<html><head><title>Hi</title></head><body><meta name="service-verify" content="${TOKEN}"></body></html>` });
    await recheckVerifiedSites({ prisma: db.prisma, fetcher }, at(1));
    expect((await site(s0)).failedChecks).toBe(1);
  });

  it('meta_tag: parses the head exactly', () => {
    expect(headHasVerificationMeta(`<head><meta name="service-verify" content="${TOKEN}"></head>`, TOKEN)).toBe(true);
    expect(headHasVerificationMeta(`<head><meta name=service-verify content=${TOKEN}></head>`, TOKEN)).toBe(true);
    expect(headHasVerificationMeta(`<head><meta name="service-verify" content="${TOKEN}x"></head>`, TOKEN)).toBe(false);
    expect(headHasVerificationMeta(`<head><meta name="description" content="${TOKEN}"></head>`, TOKEN)).toBe(false);
    expect(headHasVerificationMeta(`<head><meta property="service-verify" content="${TOKEN}"></head>`, TOKEN)).toBe(false);
    expect(headHasVerificationMeta(`<head></head><body><meta name="service-verify" content="${TOKEN}"></body>`, TOKEN)).toBe(false);
  });

  it('meta_tag: a fetch failure (404, off-host redirect) counts as a failed check', async () => {
    const { s0 } = await seedSites({ method: 'meta_tag' });
    await recheckVerifiedSites({ prisma: db.prisma, fetcher }, at(0));
    server.handle('/', { redirect: 'https://other.test/' });
    server.handle('/', { body: `<head><meta name="service-verify" content="${TOKEN}"></head>` }, { host: 'other.test' });
    await recheckVerifiedSites({ prisma: db.prisma, fetcher }, at(1));
    expect((await site(s0)).failedChecks).toBe(2);
    expect(server.requests.every((r) => r.host === 'example.test')).toBe(true);
  });

  it('wp_plugin: runs the probes', async () => {
    const { s0 } = await seedSites({ method: 'wp_plugin' });
    server.handle('/wp-admin/admin-ajax.php', { body: JSON.stringify({ token: TOKEN }) });
    expect(await recheckVerifiedSites({ prisma: db.prisma, fetcher }, at(0))).toStrictEqual({ checked: 1, lapsed: 0 });
    expect((await site(s0)).failedChecks).toBe(0);
    expect(server.requests.map((r) => r.pathname)).toStrictEqual(['/', '/wp-admin/admin-ajax.php']);
    server.reset();
    await recheckVerifiedSites({ prisma: db.prisma, fetcher }, at(1));
    expect((await site(s0)).failedChecks).toBe(1);
  });

  it('leaves unverified, archived and method-less sites alone', async () => {
    const ids = await seedSites({ verified: false, verifiedAt: null }, { archived: true }, { method: null });
    const resolveTxt = txtResolver({});
    expect(await recheckVerifiedSites({ prisma: db.prisma, fetcher, resolveTxt }, at(0))).toStrictEqual({ checked: 0, lapsed: 0 });
    expect(resolveTxt.asked).toStrictEqual([]);
    for (const id of Object.values(ids)) expect(await site(id)).toMatchObject({ failedChecks: 0, lastCheckedAt: null });
  });

  it('checks every due site once when two runs overlap', async () => {
    const fixtures = Array.from({ length: 12 }, (_, i) => ({ domain: `site${i}.test` }));
    const ids = await seedSites(...fixtures);
    const resolveTxt = txtResolver({});
    const slow: TxtResolver = async (hostname) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return resolveTxt(hostname);
    };
    const [a, b] = await Promise.all([
      recheckVerifiedSites({ prisma: db.prisma, fetcher, resolveTxt: slow }, at(0)),
      recheckVerifiedSites({ prisma: db.prisma, fetcher, resolveTxt: slow }, at(0)),
    ]);
    expect(a.checked + b.checked).toBe(12);
    expect([...resolveTxt.asked].sort()).toStrictEqual(fixtures.map((f) => f.domain).sort());
    for (const id of Object.values(ids)) expect((await site(id)).failedChecks).toBe(1);
  });
});

describe.runIf(hasPostgres)('verification lapse job on PostgreSQL with two workers', () => {
  it('two workers with their own connections never check one site twice', async () => {
    const fixtures = Array.from({ length: 20 }, (_, i) => ({ domain: `w${i}.test` }));
    const ids = await seedSites(...fixtures);
    const second = await openDatabase({ databaseUrl: db.url, dataDir: '' });
    try {
      const resolveTxt = txtResolver({});
      const slow: TxtResolver = async (hostname) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return resolveTxt(hostname);
      };
      const [a, b] = await Promise.all([
        recheckVerifiedSites({ prisma: db.prisma, fetcher, resolveTxt: slow }, at(0)),
        recheckVerifiedSites({ prisma: second.prisma, fetcher, resolveTxt: slow }, at(0)),
      ]);
      expect(a.checked + b.checked).toBe(20);
      expect(new Set(resolveTxt.asked).size).toBe(20);
      expect(resolveTxt.asked).toHaveLength(20);
      for (const id of Object.values(ids)) expect((await site(id)).failedChecks).toBe(1);
    } finally {
      await second.close();
    }
  });
});
