import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { chromium, type Browser, type ConsoleMessage, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoData } from '../../src/fixtures/demo.service.js';
import { GRAPHIQL_KEY_PLACEHOLDER } from '../../src/graphql/graphiql-page.js';
import { closeHttpServer, serveOnLoopback } from '../support/http-server.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { testHasher } from '../support/seed.js';

/** Debian's chromium; CI installs it (`.ci/run`) and requires it. Elsewhere without it the browser check is reported as skipped. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let t: TestApp;
let demoKey: string;
beforeAll(async () => {
  t = await createTestApp();
  ({ apiKey: demoKey } = await createDemoData(t.db.prisma, testHasher));
});
afterAll(async () => t.close());

/** As a browser asks: the app's own answer, its body as text. */
async function browserGet(path: string): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await t.app.fetch(new Request(`http://gateway.test${path}`, { headers: { Accept: 'text/html' } }));
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describe('GET /graphql in a browser (GraphiQL)', () => {
  it('is a small page that embeds no key, with the security headers, its bundle served as cacheable files', async () => {
    const page = await browserGet('/graphql');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; worker-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    );
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    // Was 9 MB: the whole bundle inline, on every visit.
    expect(page.text.length).toBeLessThan(4000);
    expect(page.text).not.toMatch(/svc_live_[A-Za-z0-9_-]{10}/);
    expect(page.text).not.toMatch(/<script>/);
    for (const [path, type] of [
      ['/graphiql/graphiql.js', 'text/javascript; charset=utf-8'],
      ['/graphiql/graphiql.css', 'text/css; charset=utf-8'],
      ['/graphiql/graphql.worker.js', 'text/javascript; charset=utf-8'],
    ]) {
      const asset = await browserGet(path!);
      expect(asset.status, path).toBe(200);
      expect(asset.headers.get('content-type'), path).toBe(type);
      expect(asset.headers.get('cache-control'), path).toBe('public, max-age=86400');
      expect(asset.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
    const zipped = await t.app.fetch(new Request('http://gateway.test/graphiql/graphiql.js', { headers: { 'Accept-Encoding': 'gzip, deflate, br' } }));
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.headers.get('vary')).toBe('Accept-Encoding');
    const bytes = Buffer.from(await zipped.arrayBuffer());
    expect(bytes.length).toBeLessThan(2_000_000);
    expect(gunzipSync(bytes).toString()).toBe((await browserGet('/graphiql/graphiql.js')).text);
    expect((await browserGet('/graphiql/other.js')).status).toBe(404);
    expect((await browserGet('/graphiql/constructor')).status).toBe(404);
  });

  it('answers /favicon.ico with a small icon', async () => {
    const icon = await t.app.fetch(new Request('http://gateway.test/favicon.ico'));
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/x-icon');
    const bytes = Buffer.from(await icon.arrayBuffer());
    expect(bytes.length).toBeLessThan(5000);
    // ICONDIR: reserved 0, type 1 (icon), one image of 32x32.
    expect([bytes.readUInt16LE(0), bytes.readUInt16LE(2), bytes.readUInt16LE(4), bytes[6], bytes[7]]).toStrictEqual([0, 1, 1, 32, 32]);
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

    /** Console errors and requests to any other origin, from the moment the page opens. */
    function watch(page: Page) {
      const errors: string[] = [];
      const foreign: string[] = [];
      page.on('console', (message: ConsoleMessage) => {
        if (message.type() === 'error') errors.push(`${message.text()} @ ${message.location().url}`);
      });
      page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
      page.on('request', (request) => {
        const url = request.url();
        if (!url.startsWith(baseUrl) && !url.startsWith('data:') && !url.startsWith(`blob:${baseUrl}`)) foreign.push(url);
      });
      return { errors, foreign };
    }

    it("opens on the service's own 401 (no browser error), then answers the example query once the demo key is pasted", async () => {
      const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
      const page = await context.newPage();
      const { errors, foreign } = watch(page);
      // The first request GraphiQL sends (its schema introspection) reaches the service and gets its 401.
      const firstAnswer = page.waitForResponse((response) => response.url() === `${baseUrl}/graphql` && response.request().method() === 'POST');
      await page.goto(`${baseUrl}/graphql`);
      const first = await firstAnswer;
      expect(first.status()).toBe(401);
      expect(first.request().headers().authorization).toBe(`Bearer ${GRAPHIQL_KEY_PLACEHOLDER}`);
      expect((await first.json()).errors[0].extensions.code).toBe('invalid_api_key');
      await expect.poll(() => page.locator('.graphiql-response').innerText(), { timeout: 20_000 }).toContain('invalid_api_key');
      // The only console lines are the browser's notes of that 401 (GraphiQL asks for the schema twice), no failure of the page.
      expect(errors.length).toBeGreaterThan(0);
      expect(new Set(errors)).toStrictEqual(new Set([`Failed to load resource: the server responded with a status of 401 (Unauthorized) @ ${baseUrl}/graphql`]));
      errors.length = 0;

      // Paste the demo key over the whole headers editor, as a person would, and run the example query.
      const headersEditor = page.locator('.graphiql-editor-tool .graphiql-editor').last();
      await headersEditor.click();
      await page.evaluate((text) => navigator.clipboard.writeText(text), JSON.stringify({ Authorization: `Bearer ${demoKey}` }));
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.press('ControlOrMeta+V');
      const answer = page.waitForResponse((response) => response.url() === `${baseUrl}/graphql` && (response.request().postData() ?? '').includes('Dashboard'));
      await page.locator('button.graphiql-execute-button').click();
      const response = await answer;
      expect(response.status()).toBe(200);
      const body = await response.json();
      expect(body.errors).toBeUndefined();
      expect(body.data.forms.pagination.total).toBe(3);
      expect(body.data.forms.data[0]).toMatchObject({ name: expect.any(String), submissionCount: expect.any(Number) });
      await expect.poll(() => page.locator('.graphiql-response').innerText()).toContain('submissionCount');
      expect(errors).toStrictEqual([]);
      expect(foreign).toStrictEqual([]);
      await context.close();
    }, 60_000);

    it('cannot be framed, by another page of its own origin either', async () => {
      const page = await browser.newPage();
      const { errors } = watch(page);
      // A framing page at an address of the same origin (answered by the browser, not the service).
      await page.route(`${baseUrl}/framing-page`, (route) =>
        route.fulfill({ contentType: 'text/html', body: `<iframe src="${baseUrl}/graphql"></iframe><iframe src="${baseUrl}/docs"></iframe>` }),
      );
      await page.goto(`${baseUrl}/framing-page`);
      await expect.poll(() => errors.filter((error) => error.includes("frame-ancestors 'none'")).length).toBe(2);
      expect(page.frames().slice(1).map((frame) => frame.url())).toStrictEqual(['chrome-error://chromewebdata/', 'chrome-error://chromewebdata/']);
      await page.close();
    }, 30_000);
  });
});
