import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registry } from '../../src/infra/metrics.js';
import { SCOPES } from '../../src/scopes.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { closeHttpServer, serveOnLoopback } from '../support/http-server.js';
import { accountFixture, seedAccount } from '../support/seed.js';

let t: TestApp;
let port: number;
let close: () => Promise<void>;
let key: string;
let formId: number;
const lines: Record<string, unknown>[] = [];

/** Sends the head and part of a body that announces more, then closes the socket: a client gone mid-body. */
async function abortMidBody(path: string, requestId: string, headers: Record<string, string> = {}): Promise<void> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  const head = Object.entries({ host: '127.0.0.1', 'content-type': 'application/json', 'content-length': '5000', 'x-request-id': requestId, ...headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n{"query":"{ forms { pagination { total } } }", "variables": {"padding": "`);
  // Long enough for the server to have begun reading the body.
  await new Promise((resolve) => setTimeout(resolve, 100));
  socket.destroy();
}

const lineOf = (requestId: string) => lines.find((line) => line.requestId === requestId && 'status' in line);
const count = async (labels: string): Promise<number> => {
  const text = await registry.metrics();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`http_requests_total{${labels}}`));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
};

beforeAll(async () => {
  t = await createTestApp({ env: { LOG_REQUESTS: 'true', METRICS_TOKEN: 'client-abort-test-token' } });
  const account = await seedAccount(t.db, accountFixture({ apiKeys: [{ ref: 'full', scopes: [...SCOPES] }] }));
  key = account.apiKeys.full!.key;
  formId = account.forms.contact!.id;
  const served = await serveOnLoopback(t.app);
  port = served.port;
  close = () => closeHttpServer(served.server);
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    for (const text of String(chunk).split('\n')) if (text.startsWith('{')) lines.push(JSON.parse(text) as Record<string, unknown>);
    return true;
  });
});

afterAll(async () => {
  vi.restoreAllMocks();
  await close?.();
  await t?.close();
});

describe('a client that disconnects mid-body', () => {
  it.each([
    ['POST /graphql', '/graphql', 'route="/graphql",method="POST"'],
    ['POST /v1/forms/{id}/submissions', `/v1/forms/${'FORM'}/submissions`, 'route="/v1/forms/{id}/submissions",method="POST"'],
  ])('%s is logged and counted as a client abort (499), never a 5xx or an error line', async (_name, path, labels) => {
    const requestId = `abort-${Math.random().toString(36).slice(2)}`;
    const before = { aborted: await count(`${labels},status="499"`), failed: await count(`${labels},status="500"`) };
    await abortMidBody(path.replace('FORM', String(formId)), requestId, { authorization: `Bearer ${key}` });
    await vi.waitFor(() => expect(lineOf(requestId)).toBeDefined(), { timeout: 5_000 });
    expect(lineOf(requestId)).toMatchObject({ level: 'info', status: 499, clientAborted: 'request' });
    expect(lines.filter((line) => line.level === 'error' || line.level === 'fatal')).toStrictEqual([]);
    expect(await count(`${labels},status="499"`)).toBe(before.aborted + 1);
    expect(await count(`${labels},status="500"`)).toBe(before.failed);
  });
});

const abortsCounted = async (labels: string): Promise<number> => {
  const line = (await registry.metrics()).split('\n').find((candidate) => candidate.startsWith(`http_client_aborts_total{${labels}}`));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
};

describe('a client that closes an event stream', () => {
  it('is logged as the stream ending (the only way it ends), not as a client abort mid-answer', async () => {
    const labels = 'route="/v1/events/stream",phase="response"';
    const before = await abortsCounted(labels);
    const requestId = `stream-${Math.random().toString(36).slice(2)}`;
    const controller = new AbortController();
    const response = await fetch(`http://127.0.0.1:${port}/v1/events/stream`, {
      headers: { authorization: `Bearer ${key}`, 'x-request-id': requestId },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    // The keep-alive comment sent at once: the stream is open and being answered.
    expect(new TextDecoder().decode((await reader.read()).value)).toContain(': keep-alive');
    controller.abort();
    await reader.read().catch(() => undefined);
    await vi.waitFor(() => expect(lines.find((line) => line.requestId === requestId && 'streamEnded' in line)).toBeDefined(), { timeout: 5_000 });
    expect(lines.find((line) => line.requestId === requestId && 'streamEnded' in line)).toMatchObject({ level: 'info', route: 'GET /v1/events/stream', streamEnded: 'client' });
    expect(lines.filter((line) => line.requestId === requestId && 'clientAborted' in line)).toStrictEqual([]);
    expect(lineOf(requestId)).toMatchObject({ status: 200 });
    expect(await abortsCounted(labels)).toBe(before);
    expect(lines.filter((line) => line.level === 'error' || line.level === 'fatal')).toStrictEqual([]);
  });
});
