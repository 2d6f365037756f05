import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import {
  createOutboundFetcher,
  isBlockedAddress,
  parseTestResolve,
  type OutboundFetcher,
  type ResolvedAddress,
} from '../../src/infra/outbound-fetch.js';
import { startHttpsServer, type TestHttpsServer } from '../support/https-server.js';

const BLOCKED = [
  '127.0.0.1',
  '10.0.0.1',
  '172.16.0.1',
  '192.168.1.1',
  '100.64.0.1',
  '169.254.169.254',
  '0.0.0.0',
  '::1',
  'fc00::1',
  'fe80::1',
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
];

const urlHost = (ip: string): string => (ip.includes(':') ? `[${ip}]` : ip);

let server: TestHttpsServer;
let fetcher: OutboundFetcher;

beforeAll(async () => {
  server = await startHttpsServer();
  fetcher = createOutboundFetcher({ outboundTestResolve: server.resolveFor(), outboundTestCa: server.caFile }, { timeoutMs: 1000 });
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  server.reset();
});

describe('outbound fetch: requests and answers', () => {
  it('returns the status, lower-cased headers and body text of a 2xx answer', async () => {
    server.handle('/hello', { status: 200, headers: { 'X-Thing': 'yes' }, body: 'hi there' });
    const result = await fetcher.fetch('https://example.test/hello?x=1');
    expect(result).toMatchObject({ ok: true, status: 200, body: 'hi there' });
    expect(result.ok && result.headers['x-thing']).toBe('yes');
    expect(typeof result.latencyMs).toBe('number');
    expect(server.requests.map((r) => [r.method, r.host, r.path])).toStrictEqual([['GET', 'example.test', '/hello?x=1']]);
  });

  it('sends a POST with the given headers and body', async () => {
    server.handle('/hook', { status: 204 });
    const result = await fetcher.fetch('https://receiver.test/hook', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'webhook-id': 'msg_1' },
      body: '{"a":1}',
    });
    expect(result).toMatchObject({ ok: true, status: 204, body: '' });
    const [received] = server.requests;
    expect(received?.method).toBe('POST');
    expect(received?.body).toBe('{"a":1}');
    expect(received?.headers['webhook-id']).toBe('msg_1');
    expect(received?.headers['content-type']).toBe('application/json');
  });

  it('reports a non-2xx answer as http_<status> with its body', async () => {
    const result = await fetcher.fetch('https://example.test/missing');
    expect(result).toMatchObject({ ok: false, reason: 'http_404', status: 404, body: 'not found' });
    server.handle('/gone', { status: 410, body: 'bye' });
    expect(await fetcher.fetch('https://example.test/gone')).toMatchObject({ ok: false, reason: 'http_410', status: 410 });
  });

  it('accepts an explicit :443 in the URL', async () => {
    server.handle('/p', { body: 'ok' });
    expect(await fetcher.fetch('https://example.test:443/p')).toMatchObject({ ok: true, body: 'ok' });
  });
});

describe('outbound fetch: scheme, port and TLS', () => {
  it('refuses a port other than 443 without connecting', async () => {
    const result = await fetcher.fetch(`https://example.test:${server.port}/`);
    expect(result).toMatchObject({ ok: false, reason: 'blocked_address', status: null });
    expect(server.requests).toHaveLength(0);
  });

  it('refuses plain http and other schemes', async () => {
    for (const url of ['http://example.test/', 'ftp://example.test/', 'file:///etc/passwd', 'not a url']) {
      expect(await fetcher.fetch(url)).toMatchObject({ ok: false, reason: 'blocked_address' });
    }
    expect(server.requests).toHaveLength(0);
  });

  it('refuses URLs with credentials', async () => {
    expect(await fetcher.fetch('https://user:pass@example.test/')).toMatchObject({ ok: false, reason: 'blocked_address' });
  });

  it('fails with tls_error when the certificate is not trusted (no test CA)', async () => {
    const untrusting = createOutboundFetcher({ outboundTestResolve: server.resolveFor(), outboundTestCa: null }, { timeoutMs: 1000 });
    expect(await untrusting.fetch('https://example.test/')).toMatchObject({ ok: false, reason: 'tls_error' });
  });

  it('fails with tls_error when the certificate does not name the host', async () => {
    const mismatched = createOutboundFetcher({ outboundTestResolve: `unlisted.test:127.0.0.1:${server.port}`, outboundTestCa: server.caFile }, { timeoutMs: 1000 });
    expect(await mismatched.fetch('https://unlisted.test/')).toMatchObject({ ok: false, reason: 'tls_error' });
  });
});

describe('outbound fetch: blocked addresses', () => {
  it.each(BLOCKED)('classifies %s as blocked', (ip) => {
    expect(isBlockedAddress(ip)).toBe(true);
  });

  it('classifies public unicast addresses as allowed, and NAT64, 6to4, IPv4-compatible and broadcast forms as blocked', () => {
    expect(isBlockedAddress('8.8.8.8')).toBe(false);
    expect(isBlockedAddress('2606:4700::1111')).toBe(false);
    for (const ip of ['255.255.255.255', '224.0.0.1', 'ff02::1', '::', '64:ff9b::a00:1', '2002:a00:1::', '::7f00:1', '::ffff:10.0.0.1', '::ffff:a9fe:a9fe', 'garbage']) {
      expect(isBlockedAddress(ip), ip).toBe(true);
    }
  });

  it.each(BLOCKED)('refuses a DNS answer of %s with blocked_address', async (ip) => {
    const lookup = async (): Promise<ResolvedAddress[]> => [{ address: ip, family: ip.includes(':') ? 6 : 4 }];
    const dnsFetcher = createOutboundFetcher({ outboundTestResolve: null, outboundTestCa: server.caFile }, { timeoutMs: 1000, lookup });
    expect(await dnsFetcher.fetch('https://customer.example/')).toMatchObject({ ok: false, reason: 'blocked_address', status: null });
  });

  it.each(BLOCKED)('refuses the literal IP URL of %s with blocked_address', async (ip) => {
    const strict = createOutboundFetcher({ outboundTestResolve: null, outboundTestCa: server.caFile }, { timeoutMs: 1000 });
    expect(await strict.fetch(`https://${urlHost(ip)}/latest/meta-data/`)).toMatchObject({ ok: false, reason: 'blocked_address' });
  });

  it('refuses literal IPs written in other notations (decimal, hex) after URL normalisation', async () => {
    const strict = createOutboundFetcher({ outboundTestResolve: null, outboundTestCa: null }, { timeoutMs: 1000 });
    for (const url of ['https://2130706433/', 'https://0x7f.1/', 'https://0177.0.0.1/', 'https://169.254.43518/']) {
      expect(await strict.fetch(url), url).toMatchObject({ ok: false, reason: 'blocked_address' });
    }
  });

  it('refuses a host when any one of its DNS answers is blocked', async () => {
    const lookup = async (): Promise<ResolvedAddress[]> => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.1.2.3', family: 4 },
    ];
    const dnsFetcher = createOutboundFetcher({ outboundTestResolve: null, outboundTestCa: null }, { timeoutMs: 1000, lookup });
    expect(await dnsFetcher.fetch('https://customer.example/')).toMatchObject({ ok: false, reason: 'blocked_address' });
  });

  it('refuses a redirect to a twin host whose DNS answer is blocked (every hop is checked)', async () => {
    const lookup = async (host: string): Promise<ResolvedAddress[]> => {
      if (host === 'www.other.test') return [{ address: '169.254.169.254', family: 4 }];
      throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    };
    const mixed = createOutboundFetcher({ outboundTestResolve: server.resolveFor('other.test'), outboundTestCa: server.caFile }, { timeoutMs: 1000, lookup });
    server.handle('/', { redirect: 'https://www.other.test/' });
    expect(await mixed.fetch('https://other.test/', { allowedHosts: ['other.test', 'www.other.test'] })).toMatchObject({ ok: false, reason: 'blocked_address' });
  });

  it('answers dns_error when the name does not resolve or resolves to nothing', async () => {
    const failing = createOutboundFetcher({ outboundTestResolve: null, outboundTestCa: null }, {
      lookup: async () => {
        throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
      },
    });
    expect(await failing.fetch('https://nowhere.example/')).toMatchObject({ ok: false, reason: 'dns_error' });
    const empty = createOutboundFetcher({ outboundTestResolve: null, outboundTestCa: null }, { lookup: async () => [] });
    expect(await empty.fetch('https://nowhere.example/')).toMatchObject({ ok: false, reason: 'dns_error' });
  });

  it('asks DNS once per hop and judges the answer it got (a later, different answer is never consulted)', async () => {
    const asked: string[] = [];
    // 192.0.2.0/24 is documentation space: allowed-looking to a naive check, refused here as "reserved".
    const lookup = async (host: string): Promise<ResolvedAddress[]> => {
      asked.push(host);
      return asked.length === 1 ? [{ address: '192.0.2.10', family: 4 }] : [{ address: '127.0.0.1', family: 4 }];
    };
    const dnsFetcher = createOutboundFetcher({ outboundTestResolve: null, outboundTestCa: null }, { timeoutMs: 500, lookup });
    expect(await dnsFetcher.fetch('https://rebind.example/')).toMatchObject({ ok: false, reason: 'blocked_address' });
    expect(asked).toStrictEqual(['rebind.example']);
  });

  it('only accepts loopback targets in OUTBOUND_TEST_RESOLVE, in host:ip:port order', () => {
    expect(parseTestResolve('a.test:127.0.0.1:8443,b.test:[::1]:9443')).toStrictEqual(
      new Map([
        ['a.test', { address: '127.0.0.1', port: 8443 }],
        ['b.test', { address: '::1', port: 9443 }],
      ]),
    );
    expect(() => parseTestResolve('a.test:10.0.0.1:443')).toThrow(/loopback/);
    expect(() => parseTestResolve('a.test:8443:127.0.0.1')).toThrow();
    expect(() => parseTestResolve('a.test:127.0.0.1')).toThrow();
  });
});

describe('outbound fetch: redirects', () => {
  const twins = ['example.test', 'www.example.test'];

  it('follows a redirect to an allowed host, keeping the query of the new location', async () => {
    server.handle('/start', { redirect: 'https://www.example.test/end?b=2' }, { host: 'example.test' });
    server.handle('/end', { body: 'arrived' }, { host: 'www.example.test' });
    const result = await fetcher.fetch('https://example.test/start', { allowedHosts: twins });
    expect(result).toMatchObject({ ok: true, status: 200, body: 'arrived' });
    expect(server.requests.map((r) => `${r.host}${r.path}`)).toStrictEqual(['example.test/start', 'www.example.test/end?b=2']);
  });

  it('follows a relative redirect on the same host', async () => {
    server.handle('/a', { status: 301, redirect: '/b' });
    server.handle('/b', { body: 'b' });
    expect(await fetcher.fetch('https://example.test/a')).toMatchObject({ ok: true, body: 'b' });
  });

  it('refuses a redirect to a host outside the allowed list without contacting it', async () => {
    server.handle('/start', { redirect: 'https://other.test/' });
    const result = await fetcher.fetch('https://example.test/start', { allowedHosts: twins });
    expect(result).toMatchObject({ ok: false, reason: 'redirect_off_host' });
    expect(server.requests.map((r) => r.host)).toStrictEqual(['example.test']);
  });

  it('refuses a redirect to plain http, another port or a literal private IP on the way', async () => {
    for (const location of ['http://example.test/', `https://example.test:${server.port}/`, 'https://127.0.0.1/']) {
      server.handle('/start', { redirect: location });
      expect(await fetcher.fetch('https://example.test/start', { allowedHosts: twins }), location).toMatchObject({ ok: false, reason: 'redirect_off_host' });
    }
  });

  it('follows at most 3 redirects', async () => {
    server.handle('/r0', { redirect: '/r1' });
    server.handle('/r1', { redirect: '/r2' });
    server.handle('/r2', { redirect: '/r3' });
    server.handle('/r3', { body: 'third hop' });
    expect(await fetcher.fetch('https://example.test/r0')).toMatchObject({ ok: true, body: 'third hop' });
    server.handle('/r3', { redirect: '/r4' });
    server.handle('/r4', { body: 'too far' });
    expect(await fetcher.fetch('https://example.test/r0')).toMatchObject({ ok: false, reason: 'too_many_redirects' });
    expect(server.requests.filter((r) => r.pathname === '/r4')).toHaveLength(0);
  });

  it('follows no redirect with maxRedirects 0', async () => {
    server.handle('/r0', { redirect: '/r1' });
    expect(await fetcher.fetch('https://example.test/r0', { maxRedirects: 0 })).toMatchObject({ ok: false, reason: 'too_many_redirects' });
  });

  it('turns a POST into a GET without body on 302 and keeps it on 307', async () => {
    server.handle('/p302', { status: 302, redirect: '/landing' });
    server.handle('/p307', { status: 307, redirect: '/landing' });
    server.handle('/landing', { body: 'landed' });
    await fetcher.fetch('https://example.test/p302', { method: 'POST', body: 'x=1' });
    await fetcher.fetch('https://example.test/p307', { method: 'POST', body: 'x=1' });
    expect(server.requests.map((r) => [r.method, r.pathname, r.body])).toStrictEqual([
      ['POST', '/p302', 'x=1'],
      ['GET', '/landing', ''],
      ['POST', '/p307', 'x=1'],
      ['POST', '/landing', 'x=1'],
    ]);
  });
});

describe('outbound fetch: budget and size', () => {
  it('gives up with timeout when the server is slower than the budget', async () => {
    const quick = createOutboundFetcher({ outboundTestResolve: server.resolveFor(), outboundTestCa: server.caFile }, { timeoutMs: 300 });
    server.handle('/slow', { delayMs: 3000, body: 'late' });
    expect(await quick.fetch('https://example.test/slow')).toMatchObject({ ok: false, reason: 'timeout', status: null });
  });

  it('counts the budget over all redirect hops and accepts a per-call budget', async () => {
    server.handle('/slow', { delayMs: 3000, body: 'late' });
    server.handle('/hop', { redirect: '/slow' });
    expect(await fetcher.fetch('https://example.test/hop', { timeoutMs: 250 })).toMatchObject({ ok: false, reason: 'timeout' });
  });

  it('accepts a body of exactly 64 KB and refuses one byte more', async () => {
    server.handle('/exact', { bodyBytes: 64 * 1024 });
    const exact = await fetcher.fetch('https://example.test/exact');
    expect(exact.ok).toBe(true);
    expect(exact.ok && exact.body.length).toBe(64 * 1024);
    server.handle('/over', { bodyBytes: 64 * 1024 + 1 });
    expect(await fetcher.fetch('https://example.test/over')).toMatchObject({ ok: false, reason: 'body_too_large' });
  });

  it('refuses a large streamed body and a large declared Content-Length', async () => {
    server.handle('/huge', { bodyBytes: 5 * 1024 * 1024 });
    expect(await fetcher.fetch('https://example.test/huge')).toMatchObject({ ok: false, reason: 'body_too_large' });
    server.handle('/declared', { body: 'x'.repeat(70 * 1024) });
    expect(await fetcher.fetch('https://example.test/declared')).toMatchObject({ ok: false, reason: 'body_too_large' });
  });

  it('truncates a large non-2xx body instead of failing it differently', async () => {
    server.handle('/err', { status: 500, body: 'e'.repeat(100 * 1024) });
    const result = await fetcher.fetch('https://example.test/err');
    expect(result).toMatchObject({ ok: false, reason: 'http_500', status: 500 });
    expect(!result.ok && result.body?.length).toBe(64 * 1024);
  });
});

describe('outbound fetch: connection failures', () => {
  let closedPort: number;

  beforeAll(async () => {
    const probe: Server = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    closedPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
  });

  it('answers connection_error when nothing listens', async () => {
    const refused = createOutboundFetcher({ outboundTestResolve: `example.test:127.0.0.1:${closedPort}`, outboundTestCa: server.caFile }, { timeoutMs: 1000 });
    expect(await refused.fetch('https://example.test/')).toMatchObject({ ok: false, reason: 'connection_error' });
  });

  it('answers connection_error when the server hangs up', async () => {
    server.handle('/hangup', { hangUp: true });
    expect(await fetcher.fetch('https://example.test/hangup')).toMatchObject({ ok: false, reason: 'connection_error' });
  });
});
