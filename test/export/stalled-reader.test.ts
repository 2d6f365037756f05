import { get, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registry } from '../../src/infra/metrics.js';
import { rawStatement, sql } from '../../src/infra/sql.js';
import { killAll, startProcess, type ServiceProcess } from '../chaos/processes.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { hasPostgres } from '../support/database.js';
import { closeHttpServer, serveOnLoopback } from '../support/http-server.js';
import { seedAccount, TEST_SECRET_KEY } from '../support/seed.js';

/**
 * Slow clients are bounded (issue #38): an export whose client stops reading is ended after STREAM_IDLE_TIMEOUT_MS,
 * and SIGTERM with stalled readers ends their responses and exits 0 within the shutdown timeout.
 */

const ROWS = 5000;
const EXPORT_ROUTE = 'route="/v1/forms/{id}/submissions/export",phase="response"';

let t: TestApp;
let key: string;
let formId: number;

beforeAll(async () => {
  t = await createTestApp({ env: { STREAM_IDLE_TIMEOUT_MS: '500', LOG_REQUESTS: 'true', METRICS_TOKEN: 'stalled-reader-test-token' } });
  const account = await seedAccount(t.db);
  key = account.apiKeys.full!.key;
  formId = Object.values(account.forms)[0]!.id;
  // ~4 KB a row: 20 MB in all, far more than the socket buffers hold.
  await t.db.sql(rawStatement(sql`
    INSERT INTO "Submission" ("accountId", "formId", "formData", "createdAt")
    SELECT ${account.id}, ${formId}, jsonb_build_object('Name', 'n' || g, 'Notes', repeat('x', 4000)), timestamp '2026-01-01' + (g || ' ms')::interval
    FROM generate_series(1, ${ROWS}) g`));
});
afterAll(async () => {
  await t?.close();
});

/** Opens the export, reads ~200 KB of it, then stops reading. */
async function stalledExport(base: { port: number }, requestId: string): Promise<IncomingMessage> {
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const request = get(
      { host: '127.0.0.1', port: base.port, path: `/v1/forms/${formId}/submissions/export`, headers: { authorization: `Bearer ${key}`, 'x-request-id': requestId } },
      resolve,
    );
    request.on('error', reject);
  });
  expect(response.statusCode).toBe(200);
  await new Promise<void>((resolve) => {
    let received = 0;
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      if (received > 200_000) {
        response.pause();
        response.off('data', onData);
        resolve();
      }
    };
    response.on('data', onData);
  });
  return response;
}

const abortsCounted = async (): Promise<number> => {
  const line = (await registry.metrics()).split('\n').find((candidate) => candidate.startsWith(`http_client_aborts_total{${EXPORT_ROUTE}}`));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
};

describe('an export whose client stops reading', () => {
  it('is ended after STREAM_IDLE_TIMEOUT_MS, logged and counted as a client abort mid-answer', async () => {
    const lines: Record<string, unknown>[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      for (const text of String(chunk).split('\n')) if (text.startsWith('{')) lines.push(JSON.parse(text) as Record<string, unknown>);
      return true;
    });
    const { server, port } = await serveOnLoopback(t.app);
    try {
      const before = await abortsCounted();
      const requestId = `stalled-${Date.now()}`;
      const response = await stalledExport({ port }, requestId);
      await vi.waitFor(() => expect(lines.find((line) => line.requestId === requestId && line.msg === 'stream ended: the client stopped reading')).toBeDefined(), {
        timeout: 10_000,
      });
      await vi.waitFor(async () => expect(await abortsCounted()).toBe(before + 1), { timeout: 5_000 });
      expect(lines.find((line) => line.requestId === requestId && line.clientAborted === 'response')).toMatchObject({ level: 'info', route: 'GET /v1/forms/{id}/submissions/export' });
      expect(lines.filter((line) => line.level === 'error')).toStrictEqual([]);
      // Reading again, the client finds the answer cut short, never taken for a whole export.
      const ended = new Promise<boolean>((resolve) => response.once('close', () => resolve(response.complete)));
      response.resume();
      expect(await ended).toBe(false);
    } finally {
      write.mockRestore();
      await closeHttpServer(server);
    }
  });
});

const streamFailuresCounted = async (): Promise<number> => {
  const line = (await registry.metrics()).split('\n').find((candidate) => candidate.startsWith('http_stream_failures_total{route="/v1/forms/{id}/submissions/export"}'));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
};

describe('an export the service fails to finish', () => {
  it('is cut, logged as `stream failed` and counted in http_stream_failures_total, never as the client\'s abort', async () => {
    const lines: Record<string, unknown>[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      for (const text of String(chunk).split('\n')) if (text.startsWith('{')) lines.push(JSON.parse(text) as Record<string, unknown>);
      return true;
    });
    const { server, port } = await serveOnLoopback(t.app);
    const failing = vi.spyOn(t.db, 'sql');
    try {
      const [aborts, failures] = [await abortsCounted(), await streamFailuresCounted()];
      const requestId = `failing-${Date.now()}`;
      const response = await stalledExport({ port }, requestId);
      // The batches still to read fail (as a statement whose connection broke would, past the first byte).
      failing.mockRejectedValue(new Error('the database failed'));
      const ended = new Promise<boolean>((resolve) => response.once('close', () => resolve(response.complete)));
      response.resume();
      expect(await ended).toBe(false);
      await vi.waitFor(async () => expect(await streamFailuresCounted()).toBe(failures + 1), { timeout: 5_000 });
      expect(await abortsCounted()).toBe(aborts);
      const mine = lines.filter((line) => line.requestId === requestId);
      expect(mine.map((line) => [line.level, line.msg])).toStrictEqual([
        ['info', undefined],
        ['error', 'stream failed'],
      ]);
      expect(mine[1]).toMatchObject({ route: 'GET /v1/forms/{id}/submissions/export', error: { name: 'Error' } });
    } finally {
      failing.mockRestore();
      write.mockRestore();
      await closeHttpServer(server);
    }
  });
});

describe.runIf(hasPostgres)('npm start with stalled export readers', () => {
  let gateway: ServiceProcess;

  afterAll(async () => {
    await killAll([gateway].filter(Boolean));
  });

  it('on SIGTERM ends their responses and exits 0 within SHUTDOWN_TIMEOUT_MS', async () => {
    gateway = await startProcess('gateway', 'gateway', {
      DATABASE_URL: t.db.url!,
      SECRET_KEY: TEST_SECRET_KEY.toString('base64'),
      WORKERS_IN_PROCESS: 'false',
      SHUTDOWN_DELAY_MS: '0',
      SHUTDOWN_TIMEOUT_MS: '5000',
      // Far longer than the shutdown: only the shutdown's own limit can end them in time.
      STREAM_IDLE_TIMEOUT_MS: '600000',
    });
    const port = Number(new URL(gateway.baseUrl).port);
    const readers = await Promise.all([stalledExport({ port }, 'stalled-a'), stalledExport({ port }, 'stalled-b')]);
    const signalled = Date.now();
    gateway.child.kill('SIGTERM');
    const exit = await gateway.exited;
    expect(exit.code).toBe(0);
    expect(exit.at - signalled).toBeLessThan(5_000 + 1_000);
    expect(gateway.output().match(/stream ended: the client stopped reading/g)).toHaveLength(2);
    for (const reader of readers) reader.destroy();
  });
});
