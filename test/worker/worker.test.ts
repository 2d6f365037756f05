import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.js';
import { QUEUE, startJobQueue, type JobQueue, type QueueName } from '../../src/infra/jobs.js';
import type { OutboundFetcher } from '../../src/infra/outbound-fetch.js';
import { startWorker, type RunningWorker } from '../../src/worker/start-worker.js';
import { createTestDatabase, hasPostgres, type TestDatabase } from '../support/database.js';
import { startHttpsServer, type TestHttpsServer } from '../support/https-server.js';
import { createAccount, createForm, ingest, subscribe } from '../webhooks/fixtures.js';
import { fastRetries, recordingSender, testConfig, waitFor, waitForIdleQueue } from '../webhooks/support.js';

/**
 * Crash recovery and exclusivity. A job held by a dead worker is retried once it expires; tests shorten
 * the expiry (2 s), the retry delay (1 s) and pg-boss's supervision interval (1 s).
 */
const fastRecovery = {
  superviseIntervalSeconds: 1,
  queueOverrides: { 'webhook.deliver': { expireInSeconds: 2, retryDelay: 1 } } as Partial<Record<QueueName, { expireInSeconds: number; retryDelay: number }>>,
};

let db: TestDatabase;
let receiver: TestHttpsServer;
let config: Config;
const running: RunningWorker[] = [];
const queues: JobQueue[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  receiver = await startHttpsServer();
  config = testConfig({ databaseUrl: db.url, receiver });
});
afterEach(async () => {
  for (const worker of running.splice(0)) await worker.stop();
  for (const queue of queues.splice(0)) await queue.stop({ graceful: false });
  receiver.reset();
  await db.truncate();
});
afterAll(async () => {
  await receiver?.close();
  await db?.close();
});

async function seedSubscription(path: string) {
  const account = await createAccount(db.prisma, { ownerEmail: null });
  const form = await createForm(db.prisma, account.id);
  const sub = await subscribe(db.prisma, account.id, `https://receiver.test${path}`);
  return { account, form, sub };
}

async function producer(): Promise<JobQueue> {
  const queue = await startJobQueue({ db, databaseUrl: db.url, schedule: false, ...fastRecovery });
  queues.push(queue);
  return queue;
}

const settled = (count: number) =>
  waitFor(async () => {
    const rows = await db.prisma.webhookDelivery.findMany({ where: { status: { not: 'pending' } } });
    return rows.length >= count ? rows : null;
  }, 30_000, `${count} settled deliveries`);

describe('workers in one process', () => {
  it('two workers deliver each event exactly once', async () => {
    receiver.handle('/once', { status: 200, delayMs: 20 });
    const { form } = await seedSubscription('/once');
    for (let i = 0; i < 2; i++) {
      running.push(await startWorker({ config, db, retryPolicy: fastRetries(), emailSender: recordingSender(), batchSize: 3, pollingIntervalSeconds: 0.5 }));
    }
    for (let i = 0; i < 20; i++) await ingest(db.prisma, form, { 'Full name': `n${i}` });
    const rows = await settled(20);
    await waitForIdleQueue(db, QUEUE.webhookDelivery);
    expect(rows.every((row) => row.status === 'succeeded' && row.attempts === 1)).toBe(true);
    const ids = receiver.requests.map((r) => String(r.headers['webhook-id']));
    expect(ids).toHaveLength(20);
    expect(new Set(ids).size).toBe(20);
  });

  it('a worker that dies holding a delivery does not lose it: another one delivers after the job expires', async () => {
    receiver.handle('/recover', { status: 200 });
    const { form, sub } = await seedSubscription('/recover');
    let calls = 0;
    // The first worker hangs inside the HTTP call, then is stopped without waiting (its process "dies").
    const hanging: OutboundFetcher = {
      fetch: () => {
        calls++;
        return new Promise(() => undefined);
      },
    };
    const doomed = await startWorker({ config, db, fetcher: hanging, emailSender: recordingSender(), queueOptions: fastRecovery, pollingIntervalSeconds: 0.5 });
    await ingest(db.prisma, form, { 'Full name': 'Ada' });
    await waitFor(async () => calls >= 1, 10_000, 'the doomed worker to start sending');
    await doomed.queue.stop({ graceful: false });

    const main = await producer();
    running.push(await startWorker({ config, db, queue: main, retryPolicy: fastRetries(), emailSender: recordingSender(), pollingIntervalSeconds: 0.5 }));
    const [row] = await settled(1);
    expect(row).toMatchObject({ subscriptionId: sub.id, status: 'succeeded', attempts: 1, lastStatusCode: 200 });
    expect(receiver.requests).toHaveLength(1);
  });
});

/** `npm run worker` as a real process, killed with SIGKILL where the test says so. */
function spawnWorker(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/worker/main.ts'], {
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: db.url ?? '',
      SECRET_KEY: config.secretKey.toString('base64'),
      DATA_DIR: config.dataDir,
      NODE_ENV: 'test',
      OUTBOUND_TEST_RESOLVE: config.outboundTestResolve ?? '',
      OUTBOUND_TEST_CA: config.outboundTestCa ?? '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`worker did not start: ${output}`)), 30_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes('worker started')) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited with ${code}: ${output}`));
    });
  });
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

describe.runIf(hasPostgres)('npm run worker processes (PostgreSQL)', () => {
  it('two worker processes deliver each event exactly once', async () => {
    receiver.handle('/procs', { status: 200, delayMs: 20 });
    const { form } = await seedSubscription('/procs');
    await Promise.all([spawnWorker(), spawnWorker()]);
    await producer();
    for (let i = 0; i < 20; i++) await ingest(db.prisma, form, { 'Full name': `n${i}` });
    const rows = await settled(20);
    await waitForIdleQueue(db, QUEUE.webhookDelivery, 30_000);
    expect(rows.every((row) => row.status === 'succeeded' && row.attempts === 1)).toBe(true);
    const ids = receiver.requests.map((r) => String(r.headers['webhook-id']));
    expect(ids).toHaveLength(20);
    expect(new Set(ids).size).toBe(20);
  }, 90_000);

  it('a worker process killed mid-delivery: the delivery happens after restart, with the same webhook-id', async () => {
    let calls = 0;
    receiver.handle('/killed', () => (++calls === 1 ? { status: 200, delayMs: 60_000 } : { status: 200 }));
    const { form, sub } = await seedSubscription('/killed');
    const child = await spawnWorker();
    await producer();
    await ingest(db.prisma, form, { 'Full name': 'Ada' });
    await receiver.waitForRequests(1, 20_000);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));

    await spawnWorker();
    const [row] = await settled(1);
    expect(row).toMatchObject({ subscriptionId: sub.id, status: 'succeeded', attempts: 1, lastStatusCode: 200 });
    expect(receiver.requests).toHaveLength(2);
    expect(receiver.requests[1]?.headers['webhook-id']).toBe(receiver.requests[0]?.headers['webhook-id']);
  }, 90_000);

  it('refuses to start without DATABASE_URL, exit code 2', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/worker/main.ts'], {
      env: { PATH: process.env.PATH ?? '', DATA_DIR: config.dataDir, NODE_ENV: 'test' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toContain('DATABASE_URL');
  }, 30_000);

  it('refuses a bad setting with exit code 2 and says which, as the server does', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/worker/main.ts'], {
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: 'postgresql://127.0.0.1:1/none', SECRET_KEY: Buffer.alloc(32, 1).toString('base64'), WORKER_METRICS_PORT: '99999', NODE_ENV: 'test' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(JSON.parse(stderr.trim().split('\n').at(-1)!)).toMatchObject({ code: 'invalid_config', error: expect.stringContaining('WORKER_METRICS_PORT') });
  }, 30_000);
});
