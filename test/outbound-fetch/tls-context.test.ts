import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createOutboundFetcher } from '../../src/infra/outbound-fetch.js';
import { startHttpsServer, type TestHttpsServer } from '../support/https-server.js';

/**
 * The fetcher's own calls to `createSecureContext` (node:tls as src/infra/outbound-fetch.ts imports it). Given the
 * CA as `ca` instead, Node built a context per connection from all 121 root certificates (~9 ms of the event loop
 * each): a worker opening its connections to a receiver stalled for up to a second (bench webhooks stage).
 */
const contexts = vi.hoisted(() => ({ built: 0 }));
vi.mock('node:tls', async (importOriginal) => {
  const tls = await importOriginal<typeof import('node:tls')>();
  return {
    ...tls,
    createSecureContext: (...args: Parameters<typeof tls.createSecureContext>) => {
      contexts.built++;
      return tls.createSecureContext(...args);
    },
  };
});

let server: TestHttpsServer;

beforeAll(async () => {
  server = await startHttpsServer();
  // Held answers: every request in flight at once needs a connection (and a TLS handshake) of its own.
  server.handle('/held', { status: 200, body: 'ok', delayMs: 150 });
});

afterAll(async () => {
  await server.close();
});

describe('outbound fetch: TLS with a test CA', () => {
  it('builds one TLS context for all its connections, to every host', async () => {
    const fetcher = createOutboundFetcher({ outboundTestResolve: server.resolveFor(), outboundTestCa: server.caFile }, { timeoutMs: 5000 });
    try {
      const urls = [...Array.from({ length: 12 }, () => 'https://example.test/held'), ...Array.from({ length: 4 }, () => 'https://other.test/held')];
      const results = await Promise.all(urls.map((url) => fetcher.fetch(url)));
      expect(results.map((result) => result.status)).toEqual(urls.map(() => 200));
      expect(server.requests).toHaveLength(16);
      expect(contexts.built).toBe(1);
    } finally {
      await fetcher.close?.();
    }
  });
});
