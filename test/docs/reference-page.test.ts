import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../src/execution/routes.js';
import { closeHttpServer, serveOnLoopback } from '../support/http-server.js';
import { createTestApp, type TestApp } from '../support/app.js';

/** Debian's chromium; CI installs it (`.ci/run`) and requires it. Elsewhere without it the browser check is reported as skipped. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

describe('GET /docs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('serves the reference page and its Redoc bundle from the service itself, without auth', async () => {
    const page = await t.app.fetch(new Request('http://gateway.test/docs'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; worker-src blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    );
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    // Everything the page loads comes from this origin: it renders offline.
    expect(await page.text()).not.toMatch(/https?:\/\//);
    const script = await t.app.fetch(new Request('http://gateway.test/docs/redoc.standalone.js'));
    expect(script.status).toBe(200);
    expect((await script.text()).length).toBeGreaterThan(500_000);
    expect((await t.request('GET', '/docs/other.js')).status).toBe(404);
  });

  describe.runIf(existsSync(CHROMIUM) || process.env.CI_REQUIRE_CHROMIUM === '1')('in a real browser', () => {
    let browser: Browser;
    let baseUrl: string;
    let http: Server;
    beforeAll(async () => {
      ({ server: http, baseUrl } = await serveOnLoopback(t.app));
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    });
    afterAll(async () => {
      await browser?.close();
      await closeHttpServer(http);
    });

    it('renders every route of the table and a request sample, with no request leaving the machine', async () => {
      const page = await browser.newPage();
      // Redoc's footer shows a logo from its CDN: the served bundle no longer names it, so nothing is even asked for.
      const isLocal = (url: string) => url.startsWith(baseUrl) || url.startsWith(`blob:${baseUrl}`) || url.startsWith('data:');
      const foreign: string[] = [];
      const errors: string[] = [];
      page.on('request', (request) => {
        if (!isLocal(request.url())) foreign.push(request.url());
      });
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${baseUrl}/docs`);
      // Redoc gives each operation a section named after its operationId.
      for (const route of routes) {
        await page.locator(`[data-section-id="operation/${route.operationId}"]`).first().waitFor({ state: 'attached', timeout: 20_000 });
      }
      const createForm = page.locator('[data-section-id="operation/create-form"]');
      await expect.poll(() => createForm.getByText('Request samples').count()).toBeGreaterThan(0);
      await expect.poll(() => createForm.getByText('"name"').count()).toBeGreaterThan(0);
      expect(foreign).toEqual([]);
      expect(errors).toEqual([]);
      await page.close();
    }, 60_000);
  });
});
