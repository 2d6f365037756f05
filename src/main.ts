import { createApp } from './app.js';
import { logger } from './infra/log.js';
import { ConfigError, loadConfig } from './config.js';
import { DataDirLockedError, openDatabase } from './infra/db.js';
import { trackConnections } from './http-drain.js';
import { createHttpServer } from './server.js';
import { createDemoData, isDatabaseEmpty, type DemoData } from './fixtures/demo.service.js';
import { queueConnections, startJobQueue } from './infra/jobs.js';
import { createOutboundFetcher } from './infra/outbound-fetch.js';
import { migrate } from './infra/migrations.js';
import { createRateLimitStore } from './infra/rate-limit.js';
import { connectRedis } from './infra/redis.js';
import { createKeyHasher, createPhiCipher } from './infra/keyring.js';
import { applyEmbeddedRuntimeTuning, applyPostgresRuntimeTuning } from './infra/runtime-tuning.js';
import { onStopSignal, runShutdown } from './shutdown.js';
import { createStreamSlots } from './infra/stream-slots.js';
import { EventStreams } from './streams/event-streams.js';
import { shortenStreamIdle } from './rest/streamed-body.js';
import { startTracing, stopTracing } from './infra/tracing.js';

/** At shutdown, how long a streamed response's client may go without reading before the response is ended. */
const STALLED_AT_SHUTDOWN_MS = 1_000;

function printDemo(demo: DemoData, baseUrl: string): void {
  const lines = [
    '',
    'widgets-gateway: first start on an empty database; demo data created. These are shown ONCE:',
    `  demo API key (all scopes): ${demo.apiKey}`,
    `  demo site key:             ${demo.siteKey}`,
    `  GraphiQL:                  ${baseUrl}/graphql`,
    `  try:  curl -H "Authorization: Bearer ${demo.apiKey}" ${baseUrl}/v1/forms`,
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function main(): Promise<void> {
  const config = loadConfig();
  logger.level = config.logLevel;
  // Loads the OpenTelemetry SDK only when OTEL_EXPORTER_OTLP_ENDPOINT is set.
  await startTracing(config, 'widgets-gateway');
  if (config.databaseUrl) applyPostgresRuntimeTuning();
  else applyEmbeddedRuntimeTuning();
  // The pool connected before listening, and kept: a burst at start or after a quiet spell waits for no connection.
  const db = await openDatabase({ ...config, holdPoolOpen: true });
  const applied = config.migrateOnStart ? await migrate(db) : [];
  const hasher = createKeyHasher(config);
  const queue = await startJobQueue({ db, ...queueConnections(config), listen: config.workersInProcess });
  const fetcher = createOutboundFetcher(config);
  // Loaded only when jobs run here: a gateway beside separate workers never loads nodemailer and the job handlers.
  const worker = config.workersInProcess ? await (await import('./worker/start-worker.js')).startWorker({ config, db, queue, fetcher }) : null;
  // One Redis connection for the rate limits and the stream slots: one state, logged once as it changes.
  const redis = config.redisUrl ? await connectRedis(config.redisUrl) : null;
  const rateLimits = await createRateLimitStore(config, { redis });
  const streamSlots = await createStreamSlots(config, { redis });
  const streams = new EventStreams({ db, directDatabaseUrl: config.directDatabaseUrl, slots: streamSlots });
  const readiness = { draining: false };
  const app = createApp({ config, db, hasher, phi: createPhiCipher(config), rateLimits, fetcher, queue, streams }, { readiness });
  const server = createHttpServer(app);
  const http = trackConnections(server);
  const refused = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
    server.once('error', resolve);
    server.listen(config.port, config.host, () => resolve(null));
  });
  if (refused) {
    // Nothing is seeded yet (the demo's keys are shown once: they must not be made by a start that then fails), and
    // what was opened is closed, the embedded database cleanly.
    await worker?.stop({ timeoutMs: 1_000 }).catch(() => undefined);
    await queue.stop({ graceful: false, timeoutMs: 1_000 }).catch(() => undefined);
    await Promise.all([rateLimits.close(), streamSlots.close()]).catch(() => undefined);
    redis?.disconnect();
    await db.close();
    throw new ConfigError(`cannot listen on ${config.host}:${config.port} (${refused.code ?? refused.message}): set HOST and PORT to an address this machine has and no other process uses`);
  }
  // Seeded once listening: a start that cannot listen leaves the database empty, for the next start to seed and show.
  const demo = config.seedDemo && (await isDatabaseEmpty(db.prisma)) ? await createDemoData(db.prisma, hasher) : null;
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const baseUrl = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  // The banner goes out before "listening": whatever waits for that line as the ready signal has the credentials too.
  if (demo) printDemo(demo, baseUrl);
  logger.info({ url: baseUrl, database: db.kind, migrationsApplied: applied.length, worker: worker !== null }, 'listening');

  onStopSignal(async (signal) => {
    // Readiness first: /readyz answers 503 and responses close their connections while the listener stays open.
    readiness.draining = true;
    http.startDraining();
    logger.info({ signal, inFlight: http.inFlight }, 'stopping');
    const code = await runShutdown(
      {
        drain: [
          {
            name: 'http',
            run: (msLeft) => {
              // A reader that stalls now would hold its connection to the deadline: a second without reading ends it.
              shortenStreamIdle(Math.min(config.streamIdleTimeoutMs, STALLED_AT_SHUTDOWN_MS));
              return http.close(Date.now() + msLeft);
            },
          },
          // Open event streams end cleanly at once (they would never end by themselves); clients resume elsewhere.
          { name: 'streams', run: () => streams.close() },
          { name: 'jobs', run: async (msLeft) => worker?.stop({ timeoutMs: msLeft }) },
        ],
        close: [
          // Fails jobs still running (past the deadline) back to the queue, then closes pg-boss's connections.
          { name: 'queue', run: (msLeft) => queue.stop({ graceful: true, timeoutMs: msLeft }) },
          { name: 'rate limits', run: () => rateLimits.close() },
          { name: 'stream slots', run: () => streamSlots.close() },
          { name: 'redis', run: async () => void (await redis?.quit().catch(() => redis.disconnect())) },
          { name: 'database', run: () => db.close() },
          // Last: the spans of everything above are sent before the process ends.
          { name: 'tracing', run: (msLeft) => stopTracing(msLeft) },
        ],
      },
      { delayMs: signal === 'SIGTERM' ? config.shutdownDelayMs : 0, timeoutMs: config.shutdownTimeoutMs, log: logger },
    );
    logger.info({ drained: code === 0 }, 'stopped');
    return code;
  });
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    process.stderr.write(`widgets-gateway: ${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`widgets-gateway failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
