import { spawn, type ChildProcess } from 'node:child_process';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/infra/db.js';
import { migrate, readMigrations } from '../../src/infra/migrations.js';
import { adminUrl, createTestDatabase, hasPostgres, hasRedis } from '../support/database.js';
import { seedAccount, TEST_SECRET_KEY } from '../support/seed.js';

interface Server {
  child: ChildProcess;
  output: () => string;
  baseUrl: string;
  stop(): Promise<number | null>;
}

const running: Server[] = [];
afterAll(async () => {
  for (const server of running) await server.stop();
});

/** What `npm start` runs (package.json: `exec node <flags> scripts/start.mjs`), with this Node. */
const NPM_START_ARGS = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start.replace(/^exec /, '').split(' ').slice(1);

/** Starts the real `npm start` command on a free port and waits for its "listening" line. */
async function startServer(env: Record<string, string>): Promise<Server> {
  const child = spawn(process.execPath, NPM_START_ARGS, {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 45_000);
    const poll = setInterval(() => {
      const match = /"url":"([^"]+)".*"msg":"listening"/.exec(output);
      if (match?.[1]) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve(match[1]);
      }
    }, 50);
    void exited.then(() => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`server exited:\n${output}`));
    });
  });
  const server: Server = {
    child,
    output: () => output,
    baseUrl,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
  running.push(server);
  return server;
}

interface Page<T> {
  data: T[];
  pagination: { total: number };
}

async function getJson<T>(baseUrl: string, path: string, apiKey: string): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

/** The options object GraphiQL's page hands to its renderer (a JSON data block), as the browser receives it. */
function graphiqlOptions(page: string): Record<string, unknown> {
  const json = /<script type="application\/json" id="graphiql-options">(.*?)<\/script>/s.exec(page)?.[1];
  expect(json, 'GraphiQL options in the page').toBeDefined();
  return JSON.parse(json!) as Record<string, unknown>;
}

/** What a newcomer finds with the printed key: lists that are not empty, dated over the last few weeks. */
async function expectDemoContents(baseUrl: string, apiKey: string, forms: Page<{ id: number; name: string; submissionCount: number }>): Promise<void> {
  expect(forms.data.map((form) => form.name).sort()).toStrictEqual(['Contact us', 'Newsletter signup', 'Workshop feedback']);
  expect(forms.data.map((form) => form.submissionCount).sort((a, b) => a - b)).toStrictEqual([9, 12, 18]);
  const contact = forms.data.find((form) => form.name === 'Contact us')!;
  const submissions = await getJson<Page<{ createdAt: string; formData: Record<string, unknown> }>>(baseUrl, `/v1/forms/${contact.id}/submissions?limit=100`, apiKey);
  expect(submissions.pagination.total).toBe(18);
  expect(Object.keys(submissions.data[0]!.formData).sort()).toStrictEqual(['Email', 'Message', 'Name', 'Topic']);
  const ages = submissions.data.map((row) => (Date.now() - Date.parse(row.createdAt)) / 86_400_000);
  expect(Math.min(...ages)).toBeGreaterThan(0);
  expect(Math.max(...ages)).toBeLessThan(36);
  expect(Math.max(...ages) - Math.min(...ages)).toBeGreaterThan(14); // spread over weeks, not one burst

  const calendars = await getJson<Page<{ id: number; bookingCount: number }>>(baseUrl, '/v1/calendar-widgets', apiKey);
  expect(calendars.data.map((calendar) => calendar.bookingCount)).toStrictEqual([12]);
  const bookings = await getJson<Page<{ status: string; slotIso: string }>>(baseUrl, `/v1/calendar-widgets/${calendars.data[0]!.id}/bookings?limit=100`, apiKey);
  expect(bookings.pagination.total).toBe(12);
  expect(new Set(bookings.data.map((booking) => booking.status))).toStrictEqual(new Set(['scheduled', 'completed', 'cancelled', 'no_show']));
  expect(bookings.data.filter((booking) => booking.status === 'scheduled').every((booking) => Date.parse(booking.slotIso) > Date.now())).toBe(true);

  const shops = await getJson<Page<{ id: number; orderCount: number }>>(baseUrl, '/v1/ecommerce-widgets', apiKey);
  expect(shops.data.map((shop) => shop.orderCount)).toStrictEqual([10]);
  const orders = await getJson<Page<{ status: string }>>(baseUrl, `/v1/ecommerce-widgets/${shops.data[0]!.id}/orders?limit=100`, apiKey);
  expect(orders.pagination.total).toBe(10);
  expect(orders.data.some((order) => order.status === 'shipped')).toBe(true);

  // Collections have no v1 route: GraphQL, with the same key.
  const graphql = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ collections { data { id name } } }' }),
  });
  const collections = ((await graphql.json()) as { data: { collections: { data: { id: number; name: string }[] } } }).data.collections.data;
  expect(collections.map((collection) => collection.name)).toStrictEqual(['Workshop tickets']);
  const collectionOrders = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: `{ collectionOrders(collectionId: ${collections[0]!.id}) { pagination { total } } }` }),
  });
  expect(((await collectionOrders.json()) as { data: { collectionOrders: { pagination: { total: number } } } }).data.collectionOrders.pagination.total).toBe(6);
}

describe('npm start on the embedded database', () => {
  it('creates demo data on first start, prints the credentials once, serves them, and stops cleanly on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'wg-e2e-'));
    // A first start that cannot listen (the port is taken) says so and seeds nothing: the next start still shows the keys.
    const taken = createNetServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = String((taken.address() as AddressInfo).port);
    const failed = await startServer({ DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', SECRET_KEY: '', PORT: port }).then(
      () => null,
      (error: Error) => error.message,
    );
    await new Promise((resolve) => taken.close(resolve));
    expect(failed).toContain(`widgets-gateway: cannot listen on 127.0.0.1:${port} (EADDRINUSE)`);
    expect(failed).not.toMatch(/\n\s+at /);
    const first = await startServer({ DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', SECRET_KEY: '' });
    const apiKey = /demo API key \(all scopes\): (svc_live_[A-Za-z0-9_-]{43})/.exec(first.output())?.[1];
    const siteKey = /demo site key: +(svc_site_[A-Za-z0-9_-]{43})/.exec(first.output())?.[1];
    expect(apiKey).toBeDefined();
    expect(siteKey).toBeDefined();
    // Read when the "listening" line arrived, so the banner must come before it, never after (a race CI once lost).
    expect(first.output().indexOf('demo API key')).toBeLessThan(first.output().indexOf('"msg":"listening"'));
    expect(first.output()).toContain(`GraphiQL:                  ${first.baseUrl}/graphql`);
    expect(first.output()).toContain(`curl -H "Authorization: Bearer ${apiKey}" ${first.baseUrl}/v1/forms`);

    const forms = await fetch(`${first.baseUrl}/v1/forms`, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(forms.status).toBe(200);
    // Written in one piece with its length (not streamed in chunks): the app answers with the adapter's Response.
    const formsBody = await forms.text();
    expect(forms.headers.get('transfer-encoding')).toBeNull();
    expect(forms.headers.get('content-length')).toBe(String(Buffer.byteLength(formsBody)));
    await expectDemoContents(first.baseUrl, apiKey!, JSON.parse(formsBody) as Page<{ id: number; name: string; submissionCount: number }>);
    const catalog = await fetch(`${first.baseUrl}/v1/site-verification`, { headers: { 'x-service-site-key': siteKey! } });
    expect(catalog.status).toBe(200);
    expect((await fetch(`${first.baseUrl}/healthz`)).status).toBe(200);
    expect((await fetch(`${first.baseUrl}/readyz`)).status).toBe(200);
    const graphiql = await fetch(`${first.baseUrl}/graphql`, { headers: { accept: 'text/html' } });
    const page = await graphiql.text();
    expect(page).toContain('<html');
    // The page is served without auth: it shows where the key goes, with a placeholder, and never a real key.
    const options = graphiqlOptions(page);
    expect(options.headers).toBe('{"Authorization":"Bearer <paste your svc_live_ API key here>"}');
    expect(options.defaultHeaders).toBe(options.headers);
    expect(options.defaultQuery).toContain('query Dashboard');
    expect(page).not.toContain(apiKey!);
    expect(page).not.toMatch(/svc_(live|site)_[A-Za-z0-9_-]{20}/);

    // The request log names the route and ids, never the key.
    expect(first.output()).toContain('"route":"GET /v1/forms","status":200');
    expect(first.output().split(apiKey!).length - 1).toBe(2); // the banner's two mentions only

    expect(await first.stop()).toBe(0);
    expect(first.output()).toContain('"msg":"stopped"');

    const second = await startServer({ DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', SECRET_KEY: '' });
    expect(second.output()).not.toContain('demo API key');
    const again = await fetch(`${second.baseUrl}/v1/forms`, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(again.status).toBe(200);
    expect(await second.stop()).toBe(0);
  }, 120_000);
});

describe.runIf(hasPostgres)('migrations on PostgreSQL', () => {
  it('two migrators racing on an empty database apply each migration exactly once', async () => {
    const pg = (await import('pg')).default;
    const admin = new pg.Client({ connectionString: adminUrl(process.env.DATABASE_URL!) });
    await admin.connect();
    const name = `wg_race_${process.pid}`;
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${name}`;
    const a = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
    const b = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
    const [appliedA, appliedB] = await Promise.all([migrate(a), migrate(b)]);
    expect([...appliedA, ...appliedB].sort()).toEqual(readMigrations().map((m) => m.name));
    const rows = await a.withSession((s) => s.query<{ n: number }>('SELECT count(*)::int AS n FROM "_prisma_migrations"'));
    expect(rows[0]?.n).toBe(readMigrations().length);
    await a.close();
    await b.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });
});

describe.runIf(hasPostgres && hasRedis)('two server processes sharing Redis', () => {
  it('never let one key exceed its hourly budget', async () => {
    const db = await createTestDatabase();
    const account = await seedAccount(db, { apiKeys: [{ ref: 'full', scopes: ['read:forms'], rateLimitPerHour: 20 }] });
    const key = account.apiKeys.full!;
    const redis = new Redis(process.env.REDIS_URL!);
    await redis.del(`rl:key:${key.id}`);
    const env = { DATABASE_URL: db.url!, REDIS_URL: process.env.REDIS_URL!, SECRET_KEY: TEST_SECRET_KEY.toString('base64'), MIGRATE_ON_START: 'false', LOG_REQUESTS: 'false' };
    const [one, two] = await Promise.all([startServer(env), startServer(env)]);
    const statuses = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        fetch(`${(i % 2 ? one : two).baseUrl}/v1/forms`, { headers: { authorization: `Bearer ${key.key}` } }).then((res) => res.status),
      ),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40);
    await one.stop();
    await two.stop();
    await redis.del(`rl:key:${key.id}`);
    redis.disconnect();
    await db.close();
  }, 120_000);
});
