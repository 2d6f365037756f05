import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../src/config.js';
import type { EmailSender } from '../../src/worker/jobs/email.job.js';
import type { OutgoingEmail } from '../../src/worker/jobs/outgoing-email.js';
import type { RetryPolicy } from '../../src/worker/jobs/webhook-delivery.job.js';
import type { Database } from '../../src/infra/db.js';
import type { TestHttpsServer } from '../support/https-server.js';

/** A config whose outbound fetches reach the local HTTPS receiver (and nothing else). */
export function testConfig(options: { databaseUrl: string | null; receiver?: TestHttpsServer; smtpUrl?: string; env?: Record<string, string> }): Config {
  const env: Record<string, string> = {
    SECRET_KEY: randomBytes(32).toString('base64'),
    DATA_DIR: mkdtempSync(join(tmpdir(), 'wg-pipeline-')),
    NODE_ENV: 'test',
    // The job lines (job-runs.ts) would fill the test output; test/tracing reads them from real processes.
    LOG_JOBS: 'false',
    ...options.env,
  };
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  if (options.receiver) {
    env.OUTBOUND_TEST_RESOLVE = options.receiver.resolveFor();
    env.OUTBOUND_TEST_CA = options.receiver.caFile;
  }
  if (options.smtpUrl) env.SMTP_URL = options.smtpUrl;
  return loadConfig(env);
}

/** Retries after a few milliseconds instead of hours. */
export const fastRetries = (maxAttempts = 8): RetryPolicy => ({ maxAttempts, delayMs: () => 10 });

export function recordingSender(): EmailSender & { sent: OutgoingEmail[] } {
  const sent: OutgoingEmail[] = [];
  return {
    sent,
    async send(email) {
      sent.push(email);
    },
    close() {},
  };
}

export async function waitFor<T>(probe: () => Promise<T | null | undefined | false>, timeoutMs = 15_000, label = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Waits until no job of the queue can still run (none created, retrying or active): after it, "nothing more
 * happens" is a fact of the queue, not a guess about how long a retry might take.
 */
export async function waitForIdleQueue(db: Pick<Database, 'withSession'>, queue: string, timeoutMs = 15_000): Promise<void> {
  await waitFor(async () => {
    const [row] = await db.withSession((s) =>
      s.query<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND state IN ('created', 'retry', 'active')`, [queue]),
    );
    return row?.n === 0;
  }, timeoutMs, `an idle ${queue} queue`);
}
