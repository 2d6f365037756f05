import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LOG_LEVELS, type LogLevel } from './infra/log.js';

/** Every environment variable the service reads, parsed and validated once (contract §1). */
export interface Config {
  host: string;
  port: number;
  nodeEnv: string;
  /** null: the embedded PGlite database under `dataDir`. */
  databaseUrl: string | null;
  /**
   * A connection straight to PostgreSQL, never through a pooler (DIRECT_DATABASE_URL, default DATABASE_URL): what
   * needs a session of its own (LISTEN/NOTIFY, the migration lock) goes here.
   */
  directDatabaseUrl: string | null;
  /**
   * `transaction`: DATABASE_URL points at a pooler in transaction mode (PgBouncer < 1.21), so no statement is
   * prepared under a name (the next transaction may run on another server connection). `none`: a direct URL.
   */
  databasePooler: 'none' | 'transaction';
  /** Connections of the process's main pool (requests' and Prisma's statements, the worker's deliveries and emails). */
  databasePoolSize: number;
  /** Connections of the job queue's (pg-boss) pool. */
  jobQueuePoolSize: number;
  /** Connections of the worker's outbox relay and fan-out (opened only where a worker runs). */
  pipelinePoolSize: number;
  dataDir: string;
  redisUrl: string | null;
  migrateOnStart: boolean;
  seedDemo: boolean;
  workersInProcess: boolean;
  secretKey: Buffer;
  /** Older SECRET_KEYs during a rotation: they still open PHI rows and match old key hashes, never seal or hash anew. */
  previousSecretKeys: Buffer[];
  smtpUrl: string | null;
  /** Test-only widening of the outbound-fetch rules; refused in production. */
  outboundTestResolve: string | null;
  outboundTestCa: string | null;
  logRequests: boolean;
  /** One line per job run and per event the relay fans out, with the trace id of what caused it (LOG_JOBS). */
  logJobs: boolean;
  /** pino's level names; `debug` adds each request's headers (credentials redacted) to its line. */
  logLevel: LogLevel;
  /** Submissions an erasure job examines per transaction (each batch commits with its progress). */
  erasureBatchSize: number;
  /** Webhook deliveries one worker process runs at once. */
  deliveryConcurrency: number;
  /** Webhook deliveries to one endpoint running at once, across every worker (at most `deliveryConcurrency`). */
  deliveryPerEndpoint: number;
  /** SIGTERM: how long /readyz answers 503 while new connections are still served, before the listener closes. */
  shutdownDelayMs: number;
  /** The bound on finishing in-flight requests and jobs once the listener closed; what is left is then cut. */
  shutdownTimeoutMs: number;
  /** `GET /metrics` exists only when set, and answers only `Authorization: Bearer <metricsToken>` (decisions §7.5). */
  metricsToken: string | null;
  /** Requests worked on at once past which new ones are refused with 503 `overloaded` (null: no limit). */
  maxConcurrentRequests: number | null;
  /** Requests that may wait for a place past maxConcurrentRequests (a burst), before the next are refused. */
  maxQueuedRequests: number;
  /** /graphql's cache of answers over forms and submissions (src/execution/answer-cache.ts), in bytes; 0 turns it off. */
  graphqlAnswerCacheBytes: number;
  /** A streamed response (an export) whose client has not read for this long is ended. */
  streamIdleTimeoutMs: number;
  /** A worker process (`npm run worker`) serves `/metrics` on this port when set (and metricsToken is). */
  workerMetricsPort: number | null;
  /** The longest silence on an event stream before a `: keep-alive` comment (contract §7.2: at most 15 s). */
  streamKeepAliveMs: number;
  /** How long a dead replica's open streams keep their key's slots (leases renewed by live replicas). */
  streamLeaseMs: number;
  /**
   * Where spans go (OTLP over HTTP): OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, else OTEL_EXPORTER_OTLP_ENDPOINT. Null: no
   * tracing SDK is loaded at all (decisions §7.5); the exporter reads its other OTEL_EXPORTER_OTLP_* settings itself.
   */
  otelEndpoint: string | null;
  /** OTEL_SERVICE_NAME: the spans' `service.name` (default: `widgets-gateway`, or `widgets-gateway-worker`). */
  otelServiceName: string | null;
}

export class ConfigError extends Error {}

/**
 * One gateway process (2 cores) serves the forms list at ~1,300 requests/s with a p99 of ~60 ms at 32 connections;
 * past that, requests only wait. Measured at 3 x saturation (bench stage overload, open loop): with 64 at once the
 * admitted p99 was 2.7-3.1 x saturation's and the goodput 0.68-0.70 x; with 32, 1.3-1.7 x and 0.79-0.90 x; with 16,
 * 1.45-1.5 x and 0.84-0.98 x. 32 more wait (a burst) rather than be refused: with them, a client's 64 requests at
 * once on an idle replica are all served, as with the earlier limit of 64.
 */
const DEFAULT_MAX_CONCURRENT_REQUESTS = 32;
const DEFAULT_MAX_QUEUED_REQUESTS = 32;

type Env = Record<string, string | undefined>;

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['true', '1', 'yes'].includes(raw.toLowerCase())) return true;
  if (['false', '0', 'no'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function logLevel(env: Env): LogLevel {
  const raw = env.LOG_LEVEL;
  if (raw === undefined || raw === '') return 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(raw)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
  return raw as LogLevel;
}

function positiveInt(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^[1-9][0-9]{0,5}$/.test(raw)) throw new ConfigError(`${name} must be a whole number from 1 to 999999, got "${raw}"`);
  return value;
}

/** A whole number from 0 (`0`: off or none, as the setting documents) to 999999. */
function wholeNumber(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^(0|[1-9][0-9]{0,5})$/.test(raw)) throw new ConfigError(`${name} must be a whole number from 0 to 999999, got "${raw}"`);
  return Number(raw);
}

/**
 * A URL setting whose scheme is one of `schemes` and whose host and port parse (a typo such as `redis://host:port`
 * or `garbage` is refused at start, not met as a failing connection or a silent per-replica fallback later). The
 * value is never quoted: it may carry a password.
 */
function serviceUrl(env: Env, name: string, schemes: readonly string[]): string | null {
  const raw = env[name];
  if (raw === undefined || raw === '') return null;
  const url = URL.parse(raw);
  if (!url || !schemes.includes(url.protocol.slice(0, -1)) || url.hostname === '') throw new ConfigError(`${name} must be a ${schemes.map((scheme) => `${scheme}://`).join(' or ')} URL with a host`);
  return raw;
}

function milliseconds(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 3_600_000) throw new ConfigError(`${name} must be a whole number of milliseconds, got "${raw}"`);
  return value;
}

function portNumber(env: Env, name: string): number {
  const value = Number(env[name]);
  if (!Number.isInteger(value) || value < 0 || value > 65535) throw new ConfigError(`${name} must be a port number, got "${env[name]}"`);
  return value;
}

function decodeSecret(raw: string, name = 'SECRET_KEY'): Buffer {
  const key = Buffer.from(raw, 'base64');
  if (key.length < 32) throw new ConfigError(`${name} must be at least 32 bytes, base64-encoded`);
  return key;
}

/** Comma-separated, so a second rotation can start before the first one's old key is retired. */
function loadPreviousSecretKeys(env: Env): Buffer[] {
  const raw = env.SECRET_KEY_PREVIOUS;
  if (raw === undefined || raw.trim() === '') return [];
  return raw.split(',').map((part, index) => decodeSecret(part.trim(), `SECRET_KEY_PREVIOUS (key ${index + 1})`));
}

/**
 * The embedded default keeps its generated secret beside the data so that a restart can still verify
 * the keys it issued; a real database must be given one (it would otherwise differ between replicas).
 */
function loadSecretKey(env: Env, databaseUrl: string | null, dataDir: string): Buffer {
  if (env.SECRET_KEY) return decodeSecret(env.SECRET_KEY);
  if (databaseUrl) throw new ConfigError('SECRET_KEY is required with DATABASE_URL (32+ bytes, base64)');
  const file = join(dataDir, 'secret.key');
  if (existsSync(file)) return decodeSecret(readFileSync(file, 'utf8').trim());
  mkdirSync(dataDir, { recursive: true });
  const generated = randomBytes(32).toString('base64');
  writeFileSync(file, `${generated}\n`, { mode: 0o600 });
  return decodeSecret(generated);
}

export function loadConfig(env: Env = process.env): Config {
  const port = Number(env.PORT ?? 4000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`PORT must be a port number, got "${env.PORT}"`);
  const databaseUrl = env.DATABASE_URL || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) throw new ConfigError('DATABASE_URL must be a postgresql:// URL');
  const directDatabaseUrl = env.DIRECT_DATABASE_URL || databaseUrl;
  if (directDatabaseUrl && !/^postgres(ql)?:\/\//.test(directDatabaseUrl)) throw new ConfigError('DIRECT_DATABASE_URL must be a postgresql:// URL');
  if (directDatabaseUrl && !databaseUrl) throw new ConfigError('DIRECT_DATABASE_URL needs DATABASE_URL');
  const databasePooler = env.DATABASE_POOLER || 'none';
  if (databasePooler !== 'none' && databasePooler !== 'transaction') throw new ConfigError(`DATABASE_POOLER must be none or transaction, got "${databasePooler}"`);
  const dataDir = resolve(env.DATA_DIR || './.data');
  const nodeEnv = env.NODE_ENV ?? 'development';
  const outboundTestResolve = env.OUTBOUND_TEST_RESOLVE || null;
  const outboundTestCa = env.OUTBOUND_TEST_CA || null;
  if (nodeEnv === 'production' && (outboundTestResolve || outboundTestCa)) {
    throw new ConfigError('OUTBOUND_TEST_RESOLVE and OUTBOUND_TEST_CA are test-only and refused with NODE_ENV=production');
  }
  const deliveryConcurrency = positiveInt(env, 'DELIVERY_CONCURRENCY', 200);
  const deliveryPerEndpoint = positiveInt(env, 'DELIVERY_PER_ENDPOINT', 25);
  if (deliveryPerEndpoint > deliveryConcurrency) {
    throw new ConfigError(`DELIVERY_PER_ENDPOINT (${deliveryPerEndpoint}) must not exceed DELIVERY_CONCURRENCY (${deliveryConcurrency})`);
  }
  return {
    host: env.HOST || '127.0.0.1',
    port,
    nodeEnv,
    databaseUrl,
    directDatabaseUrl,
    databasePooler,
    databasePoolSize: positiveInt(env, 'DATABASE_POOL_SIZE', 10),
    jobQueuePoolSize: positiveInt(env, 'JOB_QUEUE_POOL_SIZE', 4),
    pipelinePoolSize: positiveInt(env, 'PIPELINE_POOL_SIZE', 2),
    dataDir,
    redisUrl: serviceUrl(env, 'REDIS_URL', ['redis', 'rediss']),
    migrateOnStart: flag(env, 'MIGRATE_ON_START', true),
    seedDemo: flag(env, 'SEED_DEMO', databaseUrl === null),
    workersInProcess: flag(env, 'WORKERS_IN_PROCESS', true),
    secretKey: loadSecretKey(env, databaseUrl, dataDir),
    previousSecretKeys: loadPreviousSecretKeys(env),
    smtpUrl: serviceUrl(env, 'SMTP_URL', ['smtp', 'smtps']),
    outboundTestResolve,
    outboundTestCa,
    logRequests: flag(env, 'LOG_REQUESTS', true),
    logJobs: flag(env, 'LOG_JOBS', true),
    logLevel: logLevel(env),
    erasureBatchSize: positiveInt(env, 'ERASURE_BATCH_SIZE', 500),
    deliveryConcurrency,
    deliveryPerEndpoint,
    shutdownDelayMs: milliseconds(env, 'SHUTDOWN_DELAY_MS', 1_000),
    shutdownTimeoutMs: milliseconds(env, 'SHUTDOWN_TIMEOUT_MS', 10_000),
    metricsToken: env.METRICS_TOKEN || null,
    streamIdleTimeoutMs: milliseconds(env, 'STREAM_IDLE_TIMEOUT_MS', 30_000),
    graphqlAnswerCacheBytes: wholeNumber(env, 'GRAPHQL_ANSWER_CACHE_MB', 16) * 1024 * 1024,
    maxConcurrentRequests: env.MAX_CONCURRENT_REQUESTS === 'off' ? null : positiveInt(env, 'MAX_CONCURRENT_REQUESTS', DEFAULT_MAX_CONCURRENT_REQUESTS),
    maxQueuedRequests: wholeNumber(env, 'MAX_QUEUED_REQUESTS', DEFAULT_MAX_QUEUED_REQUESTS),
    workerMetricsPort: env.WORKER_METRICS_PORT ? portNumber(env, 'WORKER_METRICS_PORT') : null,
    streamKeepAliveMs: Math.min(milliseconds(env, 'STREAM_KEEP_ALIVE_MS', 15_000), 15_000) || 15_000,
    streamLeaseMs: Math.max(milliseconds(env, 'STREAM_LEASE_MS', 30_000), 1_000),
    otelEndpoint: env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT || null,
    otelServiceName: env.OTEL_SERVICE_NAME || null,
  };
}
