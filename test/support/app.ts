import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, vi } from 'vitest';
import { createApp, type App } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import type { AppDeps } from '../../src/deps.js';
import { startJobQueue, type JobQueue } from '../../src/infra/jobs.js';
import { createOutboundFetcher } from '../../src/infra/outbound-fetch.js';
import { createKeyHasher, createPhiCipher } from '../../src/infra/keyring.js';
import { MemoryRateLimitStore, type RateLimitStore } from '../../src/infra/rate-limit.js';
import { MemoryStreamSlots, type StreamSlots } from '../../src/infra/stream-slots.js';
import { EventStreams } from '../../src/streams/event-streams.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { TEST_SECRET_KEY, testHasher } from './seed.js';

export interface RequestOptions {
  /** API key, sent as `Authorization: Bearer <key>`. */
  key?: string;
  siteKey?: string;
  /** JSON-encoded unless already a string. */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON, or null for an empty body or an export's text. */
  // The one deliberate `any`: tests index into response JSON freely and pin shapes with toStrictEqual.
  body: any;
  text: string;
}

export interface TestApp {
  app: App;
  db: TestDatabase;
  deps: AppDeps;
  queue: JobQueue;
  /** The one request helper: a real Request through the app's fetch handler (no port). */
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  /**
   * Uses a key once and waits for its lastUsedAt write (made off the request's path, once a minute), so that
   * statement counts taken afterwards see only the request under test.
   */
  useKeyOnce(key: string): Promise<void>;
  /** POST /graphql with a key. */
  graphql(query: string, variables?: Record<string, unknown>, key?: string): Promise<TestResponse>;
  close(): Promise<void>;
}

const QUIET_MS = 300;

/** A response's text; an event stream never ends by itself: what it sent until it fell quiet, then the client leaves. */
export async function responseText(response: Response): Promise<string> {
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) return response.text();
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  for (;;) {
    let timer: NodeJS.Timeout | undefined;
    const quiet = new Promise<null>((resolve) => (timer = setTimeout(resolve, QUIET_MS, null)));
    const next = await Promise.race([reader.read(), quiet]);
    clearTimeout(timer);
    if (next === null || next.done) break;
    text += next.value;
  }
  await reader.cancel();
  return text;
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    SECRET_KEY: TEST_SECRET_KEY.toString('base64'),
    DATA_DIR: mkdtempSync(join(tmpdir(), 'wg-test-')),
    LOG_REQUESTS: 'false',
    LOG_JOBS: 'false',
    ...overrides,
  });
}

export async function createTestApp(
  options: {
    db?: TestDatabase;
    rateLimits?: RateLimitStore;
    streamSlots?: StreamSlots;
    env?: Record<string, string>;
    secrets?: { secretKey: Buffer; previousSecretKeys?: Buffer[] };
  } = {},
): Promise<TestApp> {
  const db = options.db ?? (await createTestDatabase());
  // `secrets`: an app under another SECRET_KEY (rotation tests); by default every test's own key.
  const secrets = { secretKey: options.secrets?.secretKey ?? TEST_SECRET_KEY, previousSecretKeys: options.secrets?.previousSecretKeys ?? [] };
  const config = { ...testConfig(options.env), ...secrets };
  const queue = await startJobQueue({ db, databaseUrl: db.url });
  const streams = new EventStreams({ db, directDatabaseUrl: db.url, slots: options.streamSlots ?? new MemoryStreamSlots() });
  const deps: AppDeps = {
    config,
    db,
    hasher: options.secrets ? createKeyHasher(secrets) : testHasher,
    phi: createPhiCipher(secrets),
    rateLimits: options.rateLimits ?? new MemoryRateLimitStore(),
    fetcher: createOutboundFetcher(config),
    queue,
    streams,
  };
  const app = createApp(deps);

  async function request(method: string, path: string, opts: RequestOptions = {}): Promise<TestResponse> {
    const headers = new Headers(opts.headers);
    if (opts.key !== undefined) headers.set('authorization', `Bearer ${opts.key}`);
    if (opts.siteKey !== undefined) headers.set('x-service-site-key', opts.siteKey);
    let body: string | undefined;
    if (opts.body !== undefined) {
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
      if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    }
    const response = await app.fetch(new Request(`http://gateway.test${path}`, { method, headers, body }));
    const text = await responseText(response);
    // Streamed bodies (NDJSON, CSV exports, event streams) are read as text only.
    const streamed = /^(application\/x-ndjson|text\/csv|text\/event-stream)/.test(response.headers.get('content-type') ?? '');
    return { status: response.status, headers: response.headers, text, body: text && !streamed ? JSON.parse(text) : null };
  }

  return {
    app,
    db,
    deps,
    queue,
    request,
    useKeyOnce: async (key) => {
      await request('GET', '/healthz');
      await app.fetch(new Request('http://gateway.test/graphql', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }' }),
      }));
      const keyHash = deps.hasher.hash(key);
      await vi.waitFor(async () => expect((await db.prisma.apiKey.findUniqueOrThrow({ where: { keyHash } })).lastUsedAt).not.toBeNull());
    },
    graphql: (query, variables = {}, key) => request('POST', '/graphql', { key, body: { query, variables } }),
    close: async () => {
      await streams.close();
      await queue.stop();
      if (!options.db) await db.close();
    },
  };
}
