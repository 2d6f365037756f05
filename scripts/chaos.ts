import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { chaosProblems, runChaos } from '../test/chaos/chaos-run.js';

/**
 * `npm run chaos [-- --seconds 20 --per-second 12 --concurrency 4 --wait-seconds 90]`: the multi-replica chaos run (test/chaos/chaos-run.ts) against a PostgreSQL
 * server and a Redis (DATABASE_URL, REDIS_URL; the Redis database should be one nothing else counts in). It creates
 * its own database on that server and drops it afterwards. Prints the figures, then one line
 * `acknowledged A / lost L / duplicated D / undelivered U`; exits 1 on any loss, duplicate, missing or badly signed
 * delivery, or a budget overrun.
 */

function argument(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
}

async function main(): Promise<number> {
  const serverUrl = process.env.DATABASE_URL;
  const redisUrl = process.env.REDIS_URL;
  if (!serverUrl || !redisUrl) {
    process.stderr.write('npm run chaos needs DATABASE_URL (a PostgreSQL server it may create a database on) and REDIS_URL\n');
    return 2;
  }
  const name = `wg_chaos_${randomBytes(4).toString('hex')}`;
  const adminUrl = new URL(serverUrl);
  adminUrl.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  try {
    const report = await runChaos({
      databaseUrl: url.toString(),
      redisUrl,
      loadMs: argument('seconds', 20) * 1000,
      concurrency: argument('concurrency', 4),
      perSecond: argument('per-second', 12),
      deliveryWaitMs: argument('wait-seconds', 90) * 1000,
      log: (line) => process.stdout.write(`chaos: ${line}\n`),
    });
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    process.stdout.write(`acknowledged ${report.acknowledged} / lost ${report.lost} / duplicated ${report.duplicated} / undelivered ${report.undelivered}\n`);
    const problems = chaosProblems(report);
    for (const problem of problems) process.stderr.write(`chaos: FAILED: ${problem}\n`);
    return problems.length ? 1 : 0;
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`chaos: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
