import type { Server } from 'node:http';
import { ConfigError, loadConfig } from '../config.js';
import { openDatabase } from '../infra/db.js';
import { logger } from '../infra/log.js';
import { observeDependencies } from '../infra/metrics-sources.js';
import { applyPostgresRuntimeTuning } from '../infra/runtime-tuning.js';
import { onStopSignal, runShutdown } from '../shutdown.js';
import { serveWorkerMetrics } from './metrics-server.js';
import { startWorker } from './start-worker.js';
import { startTracing, stopTracing } from '../infra/tracing.js';

/**
 * `npm run worker` (`npm run worker:prod` from the build): the delivery worker as its own process, against the project's PostgreSQL. The
 * embedded database can be opened by one process only (the server), so it is refused here.
 */
/** A scraper's keep-alive connection would hold close() open: they are closed with the listener. */
function closeServer(server: Server | null): Promise<void> {
  if (!server) return Promise.resolve();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  return closed;
}

/** Exit 2: the configuration is wrong (as the server's, operator guide "Configuration"); 1: the worker failed. */
function fail(message: string, exitCode: 1 | 2, code: 'invalid_config' | 'database_required' | 'worker_failed'): never {
  process.stderr.write(`${JSON.stringify({ error: message, code })}\n`);
  process.exit(exitCode);
}

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message, 2, 'invalid_config');
    throw error;
  }
  if (!config.databaseUrl) {
    fail(
      'npm run worker needs DATABASE_URL: the embedded database (DATA_DIR) belongs to the server process, whose in-process worker already delivers (WORKERS_IN_PROCESS, default true).',
      2,
      'database_required',
    );
  }
  logger.level = config.logLevel;
  await startTracing(config, 'widgets-gateway-worker');
  // The same V8 settings as a gateway on PostgreSQL (Prisma's WebAssembly on Liftoff, a bounded old generation).
  applyPostgresRuntimeTuning();
  const db = await openDatabase(config);
  const worker = await startWorker({ config, db });
  observeDependencies(db, worker.queue);
  const metrics = config.workerMetricsPort === null ? null : await serveWorkerMetrics({ host: config.host, port: config.workerMetricsPort, token: config.metricsToken });
  const address = metrics?.address();
  logger.info({ pid: process.pid, ...(address && typeof address === 'object' && { metricsPort: address.port }) }, 'worker started');

  // No listener, so no readiness delay: jobs under way finish within SHUTDOWN_TIMEOUT_MS, the rest go back to the queue.
  onStopSignal(async (signal) => {
    logger.info({ signal }, 'worker stopping');
    const code = await runShutdown(
      {
        drain: [{ name: 'jobs', run: (msLeft) => worker.stop({ timeoutMs: msLeft }) }],
        close: [
          { name: 'metrics', run: () => closeServer(metrics) },
          { name: 'database', run: () => db.close() },
          { name: 'tracing', run: (msLeft) => stopTracing(msLeft) },
        ],
      },
      { delayMs: 0, timeoutMs: config.shutdownTimeoutMs, log: logger },
    );
    logger.info({ drained: code === 0 }, 'worker stopped');
    return code;
  });
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error), 1, 'worker_failed'));
