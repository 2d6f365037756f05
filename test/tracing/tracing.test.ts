import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { TEST_SECRET_KEY } from '../support/seed.js';
import { startHttpsServer, type TestHttpsServer } from '../support/https-server.js';
import { killAll, startProcess, type ServiceProcess } from '../chaos/processes.js';

/**
 * Tracing end to end (decisions §7.5), with the service's real processes: a gateway and a worker on PostgreSQL (the
 * embedded database: one gateway with its in-process worker), exporting to an OTLP/HTTP receiver on 127.0.0.1.
 * The exporter sends OTLP/JSON (@opentelemetry/exporter-trace-otlp-http), so the receiver only parses JSON: no
 * protobuf decoding to get wrong. Spans are batched, and the SIGTERM at the end must flush them.
 */

interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  attributes: Record<string, unknown>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpBody {
  resourceSpans?: { resource?: { attributes?: OtlpAttribute[] }; scopeSpans?: { spans?: (Omit<ReceivedSpan, 'service' | 'attributes'> & { attributes?: OtlpAttribute[] })[] }[] }[];
}

const valueOf = (value: OtlpValue): unknown => value.stringValue ?? (value.intValue === undefined ? value.boolValue : Number(value.intValue));
const attributesOf = (list: OtlpAttribute[] = []): Record<string, unknown> => Object.fromEntries(list.map(({ key, value }) => [key, valueOf(value)]));

/** A minimal OTLP/HTTP trace receiver: POST /v1/traces with a JSON body. */
async function startReceiver(): Promise<{ server: Server; url: string; spans: ReceivedSpan[]; posts: () => number }> {
  const spans: ReceivedSpan[] = [];
  let posts = 0;
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      posts++;
      if (request.method !== 'POST' || request.url !== '/v1/traces' || !request.headers['content-type']?.startsWith('application/json')) {
        response.writeHead(404).end();
        return;
      }
      for (const resourceSpans of (JSON.parse(body) as OtlpBody).resourceSpans ?? []) {
        const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name']);
        for (const scope of resourceSpans.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) spans.push({ ...span, service, attributes: attributesOf(span.attributes) });
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { server, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, spans, posts: () => posts };
}

const WATCH = `--import=${pathToFileURL(join(import.meta.dirname, 'otel-watch.mjs')).href}`;
/** The OpenTelemetry packages a process loaded (otel-watch.mjs). */
const otelPackages = (service: ServiceProcess): string[] => [...service.output().matchAll(/^otel-module-loaded (\S+)$/gm)].map((match) => match[1]!).sort();
/**
 * Loaded whatever the setting: prom-client's process CPU series (src/infra/metrics.ts) requires the OpenTelemetry API,
 * a no-op facade until an SDK registers, to attach exemplars. The SDK, exporter and their parts are what tracing adds.
 */
const ALWAYS = ['@opentelemetry/api'];
const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const PARENT_ID = 'b7ad6b7169203331';
const GRAPHQL_TRACE_ID = '5b8aa5a2d2c872e8321cf37308d69df2';

/**
 * One set of service processes with their own database; `otel` sets OTEL_EXPORTER_OTLP_ENDPOINT, `webhooks` lets
 * deliveries reach the local HTTPS receiver as `receiver.test`.
 */
async function startServices(otel: string | null, webhooks?: TestHttpsServer): Promise<{ processes: ServiceProcess[]; gateway: ServiceProcess; close(): Promise<void> }> {
  const db: TestDatabase | null = process.env.DATABASE_URL ? await createTestDatabase() : null;
  const dataDir = mkdtempSync(join(tmpdir(), 'wg-tracing-'));
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    SEED_DEMO: 'true',
    SECRET_KEY: TEST_SECRET_KEY.toString('base64'),
    NODE_OPTIONS: WATCH,
    ...(db?.url && { DATABASE_URL: db.url }),
    ...(otel && { OTEL_EXPORTER_OTLP_ENDPOINT: otel }),
    ...(webhooks && { OUTBOUND_TEST_RESOLVE: webhooks.resolveFor('receiver.test'), OUTBOUND_TEST_CA: webhooks.caFile }),
  };
  // On PostgreSQL the jobs run in a worker process of their own, as deployed; traced, each process exports.
  const separateWorker = db !== null && otel !== null;
  const gateway = await startProcess('gateway', 'gateway', { ...env, ...(separateWorker && { WORKERS_IN_PROCESS: 'false' }) });
  const processes = [gateway, ...(separateWorker ? [await startProcess('worker', 'worker', env)] : [])];
  return {
    processes,
    gateway,
    async close() {
      await killAll(processes);
      await db?.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

type Line = Record<string, unknown>;
const linesOf = (processes: ServiceProcess[]): Line[] =>
  processes.flatMap((p) => p.output().split('\n')).filter((text) => text.startsWith('{')).map((text) => JSON.parse(text) as Line);

const demoKey = (gateway: ServiceProcess): string => {
  const key = /demo API key \(all scopes\): (\S+)/.exec(gateway.output())?.[1];
  if (!key) throw new Error(`no demo key banner:\n${gateway.output()}`);
  return key;
};

/** Sends a traced ingest (and a traced read) with the demo key, and waits until the job lines of the ingest are logged. */
async function ingestTraced(services: { processes: ServiceProcess[]; gateway: ServiceProcess }, webhook = false): Promise<{ formId: number }> {
  const headers = { authorization: `Bearer ${demoKey(services.gateway)}`, traceparent: `00-${TRACE_ID}-${PARENT_ID}-01`, 'content-type': 'application/json' };
  const forms = (await (await fetch(`${services.gateway.baseUrl}/v1/forms`, { headers })).json()) as { data: { id: number }[] };
  const formId = forms.data[0]!.id;
  const ingest = await fetch(`${services.gateway.baseUrl}/v1/forms/${formId}/submissions`, {
    method: 'POST',
    headers: { ...headers, 'x-request-id': 'traced-ingest' },
    body: JSON.stringify({ formData: { name: 'Ada', email: 'ada@example.com' } }),
  });
  expect(ingest.status).toBe(201);
  // The owner's notification (and a confirmation when the form has an email field).
  await vi.waitFor(() => expect(linesOf(services.processes).filter((line) => line.msg === 'job done' && line.queue === 'email.send').length).toBeGreaterThan(0), {
    timeout: 30_000,
    interval: 200,
  });
  if (webhook) {
    await vi.waitFor(() => expect(linesOf(services.processes).filter((line) => line.msg === 'job done' && line.queue === 'webhook.deliver')).toHaveLength(1), {
      timeout: 30_000,
      interval: 200,
    });
  }
  return { formId };
}

describe('with OTEL_EXPORTER_OTLP_ENDPOINT set', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let webhooks: TestHttpsServer;
  let services: Awaited<ReturnType<typeof startServices>>;
  let formId: number;
  let lines: Line[];

  beforeAll(async () => {
    receiver = await startReceiver();
    webhooks = await startHttpsServer({ hostnames: ['receiver.test'] });
    webhooks.handle('/secret-path', { status: 200 });
    services = await startServices(receiver.url, webhooks);
    const key = demoKey(services.gateway);
    const subscribed = await fetch(`${services.gateway.baseUrl}/v1/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://receiver.test/secret-path', event: 'submission.created' }),
    });
    expect(subscribed.status).toBe(201);
    const graphql = await fetch(`${services.gateway.baseUrl}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', traceparent: `00-${GRAPHQL_TRACE_ID}-${PARENT_ID}-01` },
      body: JSON.stringify({ query: 'query Named { __typename }' }),
    });
    expect(graphql.status).toBe(200);
    ({ formId } = await ingestTraced(services, true));
    // Graceful stops flush the batched spans.
    for (const service of services.processes) service.child.kill('SIGTERM');
    for (const service of services.processes) expect((await service.exited).code).toBe(0);
    lines = linesOf(services.processes);
  }, 120_000);

  afterAll(async () => {
    await services?.close();
    receiver?.server.close();
    await webhooks?.close();
  });

  it('loads the SDK and exports the request span: incoming trace id and parent, route template, status, no id in any attribute', () => {
    expect(otelPackages(services.gateway)).toEqual(expect.arrayContaining(['@opentelemetry/sdk-trace', '@opentelemetry/exporter-trace-otlp-http']));
    const request = receiver.spans.find((span) => span.name === 'POST /v1/forms/{id}/submissions');
    expect(request).toMatchObject({ service: 'widgets-gateway', traceId: TRACE_ID, parentSpanId: PARENT_ID });
    expect(request?.attributes).toStrictEqual({ 'http.request.method': 'POST', 'http.route': '/v1/forms/{id}/submissions', 'http.response.status_code': 201 });
    expect(receiver.spans.find((span) => span.name === 'GET /v1/forms')?.attributes).toStrictEqual({
      'http.request.method': 'GET',
      'http.route': '/v1/forms',
      'http.response.status_code': 200,
    });
    // Nothing raw anywhere: no path with the form's id, no key, address or URL in a span's name or attribute.
    const text = JSON.stringify(receiver.spans.map(({ name, attributes }) => ({ name, attributes })));
    expect(text).not.toContain(`/forms/${formId}`);
    expect(text).not.toMatch(/@|https?:|receiver\.test|secret-path|wg_|Bearer|Named/);
  });

  it('has a span for a GraphQL execution inside its request\'s', () => {
    const request = receiver.spans.find((span) => span.name === 'POST /graphql');
    expect(request).toMatchObject({ traceId: GRAPHQL_TRACE_ID, parentSpanId: PARENT_ID });
    const execution = receiver.spans.find((span) => span.name === 'graphql query');
    expect(execution).toMatchObject({ traceId: GRAPHQL_TRACE_ID, parentSpanId: request!.spanId });
    expect(execution?.attributes).toStrictEqual({ 'graphql.operation.type': 'query' });
  });

  it("continues the request's trace in the worker: the fan-out and the email jobs are its descendants", () => {
    const worker = process.env.DATABASE_URL ? 'widgets-gateway-worker' : 'widgets-gateway';
    const request = receiver.spans.find((span) => span.name === 'POST /v1/forms/{id}/submissions')!;
    const fanout = receiver.spans.find((span) => span.name === 'outbox process' && span.traceId === TRACE_ID);
    expect(fanout).toMatchObject({ service: worker, parentSpanId: request.spanId });
    expect(fanout?.attributes).toStrictEqual({
      'messaging.system': 'outbox',
      'messaging.operation.type': 'process',
      'messaging.destination.name': 'outbox',
      'event.type': 'submission.created',
    });
    const emails = receiver.spans.filter((span) => span.name === 'email.send process');
    expect(emails.length).toBeGreaterThan(0);
    for (const email of emails) {
      expect(email).toMatchObject({ service: worker, traceId: TRACE_ID, parentSpanId: fanout!.spanId });
      expect(email.attributes).toStrictEqual({ 'messaging.system': 'pg-boss', 'messaging.operation.type': 'process', 'messaging.destination.name': 'email.send' });
    }
    // The delivery, and its POST to the receiver: method and status only, never the address.
    const delivery = receiver.spans.find((span) => span.name === 'webhook.deliver process');
    expect(delivery).toMatchObject({ service: worker, traceId: TRACE_ID, parentSpanId: fanout!.spanId });
    const post = receiver.spans.find((span) => span.name === 'POST' && span.traceId === TRACE_ID);
    expect(post).toMatchObject({ service: worker, parentSpanId: delivery!.spanId });
    expect(post?.attributes).toStrictEqual({ 'http.request.method': 'POST', 'http.response.status_code': 200 });
  });

  it("logs the request's trace id on its line and on the lines of the jobs it caused", () => {
    expect(lines.find((line) => line.requestId === 'traced-ingest')).toMatchObject({ traceId: TRACE_ID, status: 201 });
    expect(lines.find((line) => line.msg === 'event fanned out')).toMatchObject({ traceId: TRACE_ID, eventType: 'submission.created' });
    const jobs = lines.filter((line) => line.msg === 'job done' && (line.queue === 'email.send' || line.queue === 'webhook.deliver'));
    expect(jobs.length).toBeGreaterThan(0);
    expect(new Set(jobs.map((line) => line.traceId))).toStrictEqual(new Set([TRACE_ID]));
  });
});

describe('without OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let services: Awaited<ReturnType<typeof startServices>>;

  beforeAll(async () => {
    receiver = await startReceiver();
    services = await startServices(null);
    await ingestTraced(services);
  }, 120_000);

  afterAll(async () => {
    await services?.close();
    receiver?.server.close();
  });

  it('loads no OpenTelemetry SDK module and sends nothing, yet the request and its jobs log the same trace id', () => {
    for (const service of services.processes) expect(otelPackages(service)).toStrictEqual(ALWAYS);
    expect(receiver.posts()).toBe(0);
    const lines = linesOf(services.processes);
    expect(lines.find((line) => line.requestId === 'traced-ingest')).toMatchObject({ traceId: TRACE_ID });
    expect(lines.find((line) => line.msg === 'event fanned out')).toMatchObject({ traceId: TRACE_ID });
    expect(new Set(lines.filter((line) => line.msg === 'job done' && line.queue === 'email.send').map((line) => line.traceId))).toStrictEqual(new Set([TRACE_ID]));
  });
});

describe('with the collector down', () => {
  it('stops on SIGTERM with exit code 0 within the flush bound, the spans lost with one warning', async () => {
    // A port that refuses connections: bound, then released.
    const closed = await startReceiver();
    await new Promise((resolve) => closed.server.close(resolve));
    const services = await startServices(closed.url);
    try {
      expect((await fetch(`${services.gateway.baseUrl}/healthz`, { headers: { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` } })).status).toBe(200);
      const signalled = Date.now();
      for (const service of services.processes) service.child.kill('SIGTERM');
      for (const service of services.processes) {
        const { code, at } = await service.exited;
        expect(code).toBe(0);
        // SHUTDOWN_DELAY_MS (1 s by default) and the 2 s bound on the last export, with room for a loaded machine.
        expect(at - signalled).toBeLessThan(6_000);
      }
      expect(linesOf([services.gateway]).filter((line) => typeof line.msg === 'string' && line.msg.startsWith('tracing: the last spans'))).toHaveLength(1);
    } finally {
      await services.close();
    }
  }, 120_000);
});
