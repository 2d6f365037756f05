import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, hasPostgres, type TestDatabase } from '../support/database.js';
import { TEST_SECRET_KEY } from '../support/seed.js';
import { killAll, startProcess, type ServiceProcess } from '../chaos/processes.js';

const TOKEN = randomBytes(24).toString('base64url');

// A worker runs on PostgreSQL only (the embedded database belongs to the server process).
describe.runIf(hasPostgres)('npm run worker with WORKER_METRICS_PORT', () => {
  let db: TestDatabase;
  let worker: ServiceProcess;
  let base: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    worker = await startProcess('worker', 'worker', {
      DATABASE_URL: db.url!,
      SECRET_KEY: TEST_SECRET_KEY.toString('base64'),
      METRICS_TOKEN: TOKEN,
      WORKER_METRICS_PORT: '0',
    });
    const port = /"metricsPort":(\d+)/.exec(worker.output())?.[1];
    expect(port).toBeDefined();
    base = `http://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    await killAll([worker].filter(Boolean));
    await db?.close();
  });

  it('serves the same registry at /metrics to the bearer of METRICS_TOKEN, 401 to anyone else', async () => {
    const response = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4');
    const text = await response.text();
    for (const name of ['webhook_deliveries_total', 'webhook_delivery_latency_seconds', 'outbox_lag_seconds', 'job_queue_depth', 'db_pool_connections', 'process_cpu_user_seconds_total']) {
      expect(text).toMatch(new RegExp(`^# TYPE ${name} `, 'm'));
    }
    expect(text).toMatch(/^outbox_lag_seconds 0$/m);
    const refused = await fetch(`${base}/metrics`);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toStrictEqual({ error: 'Unauthorized', code: 'invalid_api_key' });
    expect((await fetch(`${base}/other`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
  });

  it('stops on SIGTERM with exit code 0, a scraper\'s keep-alive connection notwithstanding', async () => {
    // undici's fetch keeps the connection of the scrapes above open.
    worker.child.kill('SIGTERM');
    expect((await worker.exited).code).toBe(0);
  });
});
