import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpServer, serveOnLoopback } from '../support/http-server.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { seedAccount } from '../support/seed.js';

/* The client as an integrator gets it: clients/typescript/README.md's one install command, run in a fresh directory
   outside the checkout (its dependencies come from the npm registry), then used from plain JavaScript on the
   suite's Node, and the README's example type-checked under three module resolutions. */

const CLIENT_DIR = fileURLToPath(new URL('../../clients/typescript/', import.meta.url));
const TSC = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));
const TYPE_ROOTS = fileURLToPath(new URL('../../node_modules/@types', import.meta.url));

const SCRIPT = `import { createWidgetsClient } from '@widgets-gateway/client';
const client = createWidgetsClient({ baseUrl: process.env.BASE_URL, apiKey: process.env.API_KEY });
const list = await client.GET('/forms', { params: { query: { limit: 5 } } });
const ingest = () => client.POST('/forms/{id}/submissions', {
  params: { path: { id: Number(process.env.FORM_ID) }, header: { 'Idempotency-Key': 'install-test-1' } },
  body: { formData: { Name: 'Ada' } },
});
const first = await ingest();
const replay = await ingest();
const missing = await client.GET('/forms/{id}', { params: { path: { id: 2000000 } } });
console.log(JSON.stringify({
  list: [list.response.status, list.data.pagination.total],
  ingest: [first.response.status, replay.response.status, replay.response.headers.get('idempotent-replayed'), replay.data.id === first.data.id],
  missing: [missing.response.status, missing.error],
}));
`;

/** The README's example, as an integrator's TypeScript project holds it. */
const EXAMPLE = `import { createWidgetsClient } from '@widgets-gateway/client';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function main(): Promise<void> {
  const client = createWidgetsClient({ baseUrl: 'http://127.0.0.1:4000', apiKey: process.env.WIDGETS_API_KEY });
  const { data: forms } = await client.GET('/forms', { params: { query: { limit: 100 } } });
  console.log(forms?.data.map((form) => form.name));
  const { data, error, response } = await client.POST('/forms/{id}/submissions', {
    params: { path: { id: 1 }, header: { 'Idempotency-Key': 'order-42' } },
    body: { formData: { Name: 'Ada', Email: 'ada@example.com' } },
  });
  if (error) {
    if (error.code === 'rate_limited') await sleep(Number(response.headers.get('retry-after')) * 1000);
  } else if (response.status === 200) {
    console.log('replayed', data.id);
  }
  let etag = '"x"';
  const listed = await client.GET('/forms', { params: { header: { 'If-None-Match': etag } } });
  if (listed.response.status === 304) {
    console.log('unchanged');
  } else if (listed.data) {
    etag = listed.response.headers.get('etag') ?? etag;
  }
  const catalog = await client.GET('/site-catalog', { headers: { 'X-Service-Site-Key': 'svc_site_example' } });
  console.log(etag, catalog.data);
}
`;

let t: TestApp;
let http: Server;
let baseUrl: string;
let key: string;
let formId: number;
let project: string;

beforeAll(async () => {
  t = await createTestApp();
  const account = await seedAccount(t.db, { apiKeys: [{ ref: 'full', scopes: ['read:forms', 'write:forms', 'read:submissions', 'write:submissions'] }] });
  key = account.apiKeys.full!.key;
  formId = account.forms.contact!.id;
  ({ server: http, baseUrl } = await serveOnLoopback(t.app));
  project = mkdtempSync(join(tmpdir(), 'wg-client-install-'));
  // The README's one command (--install-links: a copy with its own dependencies, not a link back into the checkout).
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--install-links', CLIENT_DIR], { cwd: project, stdio: 'pipe', env: { ...process.env, NODE_OPTIONS: '' } });
}, 180_000);
afterAll(async () => {
  await closeHttpServer(http);
  await t.close();
});

describe('clients/typescript installed into a fresh project', () => {
  it('lists, ingests with an Idempotency-Key and reads a typed 404 against a live service, from JavaScript', async () => {
    writeFileSync(join(project, 'check.mjs'), SCRIPT);
    // Asynchronously: the service answering it runs in this process.
    const { stdout } = await promisify(execFile)(process.execPath, ['check.mjs'], { cwd: project, encoding: 'utf8', env: { ...process.env, BASE_URL: baseUrl, API_KEY: key, FORM_ID: String(formId) } });
    expect(JSON.parse(stdout)).toStrictEqual({
      list: [200, 1],
      ingest: [201, 200, 'true', true],
      missing: [404, { error: 'Not found', code: 'not_found', resource: 'form' }],
    });
  });

  it.each([
    ['node16', { module: 'node16', moduleResolution: 'node16' }],
    ['bundler', { module: 'esnext', moduleResolution: 'bundler' }],
    ['node10', { module: 'esnext', moduleResolution: 'node10' }],
  ])("type-checks the README's example under moduleResolution %s with exactOptionalPropertyTypes", (name, resolution) => {
    // An ES module (.mts): under node16 the client, ESM only, is imported from ESM.
    const tsconfig = {
      compilerOptions: { target: 'ES2022', strict: true, exactOptionalPropertyTypes: true, noEmit: true, types: ['node'], typeRoots: [TYPE_ROOTS], ...resolution },
      files: [`example-${name}.mts`],
    };
    writeFileSync(join(project, `example-${name}.mts`), EXAMPLE);
    writeFileSync(join(project, `tsconfig.${name}.json`), JSON.stringify(tsconfig));
    const run = () => execFileSync(process.execPath, [TSC, '-p', `tsconfig.${name}.json`], { cwd: project, encoding: 'utf8' });
    expect(run).not.toThrow();
  }, 90_000);
});
