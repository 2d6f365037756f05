import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type RequestOptions, type TestApp, type TestResponse } from '../support/app.js';
import { closeHttpServer, serveOnLoopback } from '../support/http-server.js';
import { driveCorpus, type Step } from './corpus.js';

/*
 * The OpenAPI document checked by a validator written outside the project: Stoplight's Prism, as a proxy in front of
 * the live service, validates every request and every answer of the corpus (test/rest/corpus.ts: every route's
 * success and its errors) against the document the service publishes, and reports what breaks it in an
 * `sl-violations` header. Requests the corpus breaks on purpose (no key, bad input) are request violations; an
 * answer that says other than the document is a response violation, and there must be none.
 */

const require = createRequire(import.meta.url);
const PRISM = require.resolve('@stoplight/prism-cli/dist/index.js');
// Prism 5.16 declares Node >= 24.18 (notes/stack.md); on the floor of engines.node (22.15) it does not run.
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const prismRuns = major > 24 || (major === 24 && minor >= 18);

interface Violation {
  location: string[];
  severity: string;
  message: string;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Prism proxying to `upstream` with `document`; resolves once it listens. */
async function startPrism(document: string, upstream: string): Promise<{ process: ChildProcess; baseUrl: string }> {
  const port = await freePort();
  const file = join(mkdtempSync(join(tmpdir(), 'wg-prism-')), 'openapi.json');
  writeFileSync(file, document);
  const child = spawn(process.execPath, [PRISM, 'proxy', file, upstream, '--host', '127.0.0.1', '--port', String(port), '--errors', 'false'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Prism did not start:\n${output}`)), 60_000);
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes('Prism is listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => reject(new Error(`Prism exited with ${code}:\n${output}`)));
  });
  return { process: child, baseUrl: `http://127.0.0.1:${port}` };
}

/** Sends a corpus step through Prism (which serves the document's paths without the /v1 of its `servers`). */
function sendThrough(prismUrl: string, violations: { step: string; violation: Violation }[]) {
  return async (method: string, path: string, options: RequestOptions): Promise<TestResponse> => {
    const headers = new Headers(options.headers);
    if (options.key !== undefined) headers.set('authorization', `Bearer ${options.key}`);
    if (options.siteKey !== undefined) headers.set('x-service-site-key', options.siteKey);
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    }
    const response = await fetch(`${prismUrl}${path.replace(/^\/v1/, '')}`, { method, headers, body });
    const text = await response.text();
    for (const violation of JSON.parse(response.headers.get('sl-violations') ?? '[]') as Violation[]) violations.push({ step: `${method} ${path}`, violation });
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    return { status: response.status, headers: response.headers, text, body: parsed };
  };
}

/** Prism answers no request whose body is not JSON (notes/stack.md): those steps go straight to the service. */
const prismCanSend = (step: Pick<Step, 'body'>): boolean => {
  if (typeof step.body !== 'string') return true;
  try {
    JSON.parse(step.body);
    return true;
  } catch {
    return false;
  }
};

describe.runIf(prismRuns)("the OpenAPI document, checked by Prism's validating proxy", () => {
  let t: TestApp;
  let service: Server;
  let serviceUrl: string;
  let prism: ChildProcess | undefined;
  let prismUrl: string;
  let document: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ server: service, baseUrl: serviceUrl } = await serveOnLoopback(t.app));
    document = await (await fetch(`${serviceUrl}/v1/openapi.json`)).text();
    ({ process: prism, baseUrl: prismUrl } = await startPrism(document, `${serviceUrl}/v1`));
  }, 90_000);
  afterAll(async () => {
    prism?.kill();
    await closeHttpServer(service);
    await t.close();
  });

  it('finds no answer of the corpus that says other than the document', async () => {
    const violations: { step: string; violation: Violation }[] = [];
    const throughPrism = sendThrough(prismUrl, violations);
    const sent: string[] = [];
    const answers = await driveCorpus(t, async (method, path, options) => {
      if (!prismCanSend({ body: options.body })) return t.request(method, path, options);
      sent.push(`${method} ${path}`);
      return throughPrism(method, path, options);
    });
    // The proxy really saw the corpus, its successes and its refusals alike: all but the malformed-JSON steps.
    const direct = answers.filter(({ step }) => !prismCanSend(step)).length;
    expect(direct).toBeLessThanOrEqual(2);
    expect(sent.length).toBe(answers.length - direct);
    expect(answers.filter(({ response }) => response.status < 300).length).toBeGreaterThan(40);
    expect(answers.filter(({ response }) => response.status >= 400).length).toBeGreaterThan(60);
    // ...and validated it: the corpus's deliberate bad requests are reported as such.
    expect(violations.some(({ violation }) => violation.location[0] === 'request')).toBe(true);
    expect(violations.filter(({ violation }) => violation.location[0] === 'response')).toStrictEqual([]);
  }, 120_000);

  it('would report an answer that breaks the document (a list whose body is not the documented envelope)', async () => {
    const impostor = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      response.end(JSON.stringify({ data: 'not a list', total: 3 }));
    });
    await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', resolve));
    const { port } = impostor.address() as AddressInfo;
    const checked = await startPrism(document, `http://127.0.0.1:${port}/v1`);
    try {
      const violations: { step: string; violation: Violation }[] = [];
      await sendThrough(checked.baseUrl, violations)('GET', '/v1/forms', { key: 'svc_live_any' });
      expect(violations.filter(({ violation }) => violation.location[0] === 'response').length).toBeGreaterThan(0);
    } finally {
      checked.process.kill();
      await closeHttpServer(impostor);
    }
  }, 90_000);
});
