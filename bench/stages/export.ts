import http from 'node:http';
import { join } from 'node:path';
import { dropDatabase, fillForm, recreateDatabase, seedBase, BENCH_DB } from '../dataset.js';
import { readRss, sampleRss, type Child } from '../driver.js';
import { ratio, round } from '../report.js';
import { startSqlCounter, type SqlCounter } from '../sql-counter.js';
import { holds, type Stage, type StageContext } from './stage.js';

/**
 * `GET /forms/{id}/submissions/export` (contract §6.4) over one form of 100k and then 1M submissions, in a database
 * of its own (`<BENCH_DB>_export`, dropped at the end): rows/s, MB/s, time to the first byte, and the gateway's
 * peak RSS above its idle RSS while it streams, per format and size. "Memory does not grow with the number of
 * rows" is the figure that matters: peak minus idle must stay a few MB and the same at 1M as at 100k.
 *
 * Two checks of how it reads, through the wire-protocol statement counter on a gateway of its own: a whole
 * export runs one statement per keyset batch of 500 rows (plus a few), and a client that stops reading stops the
 * reads (no statement while it pauses, once the socket buffers are full), i.e. backpressure reaches the database.
 */

const SIZES = [100_000, 1_000_000];
const FORMATS = ['ndjson', 'csv'] as const;
type Format = (typeof FORMATS)[number];
/** The export's keyset batch (src/domain/submissions/export.service.ts). */
const BATCH = 500;
/** A second, small form: a warm-up export before the idle RSS is read. */
const WARM_ROWS = 2_000;

interface Streamed {
  status: number;
  bytes: number;
  lines: number;
  firstByteMs: number;
  totalMs: number;
}

/** Reads a whole export as a client would, counting bytes and line ends (a row per line; CSV has a header line). */
function download(baseUrl: string, path: string, apiKey: string): Promise<Streamed> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.get(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${apiKey}` } }, (response) => {
      let bytes = 0;
      let lines = 0;
      let firstByteMs = NaN;
      response.on('data', (chunk: Buffer) => {
        if (bytes === 0) firstByteMs = performance.now() - started;
        bytes += chunk.length;
        for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, bytes, lines, firstByteMs, totalMs: performance.now() - started }));
      response.on('error', reject);
      response.on('aborted', () => reject(new Error(`${path}: the connection was cut after ${bytes} bytes`)));
    });
    request.on('error', reject);
  });
}

const exportPath = (formId: number, format: Format): string => `/v1/forms/${formId}/submissions/export?format=${format}`;

async function settle(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

interface Row {
  submissions: number;
  format: Format;
  pass: 'first' | 'repeat';
  rowsPerSec: number | null;
  mbPerSec: number | null;
  firstByteMs: number | null;
  seconds: number | null;
  mb: number | null;
  idleRssMb: number | null;
  peakRssMb: number | null;
  peakMinusIdleMb: number | null;
}

/** One size: a fresh gateway, a warm-up export of the small form, then each format twice, RSS sampled every 50 ms. */
async function measureSize(context: StageContext, url: string, apiKey: string, formId: number, warmFormId: number, size: number): Promise<Row[]> {
  const gateway = await context.startGateway(url, join(context.scratch, `gateway-export-${size}`));
  const baseUrl = `http://127.0.0.1:${gateway.port}`;
  const rows: Row[] = [];
  try {
    for (const format of FORMATS) {
      const warm = await download(baseUrl, exportPath(warmFormId, format), apiKey);
      if (warm.status !== 200) throw new Error(`warm-up export answered ${warm.status}`);
    }
    // Each format twice: the first export in a fresh process also grows V8's heap to its working size once (the
    // young generation under this allocation rate); the repeat shows what one export holds on its own.
    for (const [format, pass] of [...FORMATS.map((f) => [f, 'first'] as const), ...FORMATS.map((f) => [f, 'repeat'] as const)]) {
      await settle(1000);
      const idle = readRss(gateway.pid)?.rssMb ?? null;
      const stopSampling = sampleRss(gateway.pid, 50);
      const streamed = await download(baseUrl, exportPath(formId, format), apiKey);
      const peak = stopSampling();
      const expectedLines = size + (format === 'csv' ? 1 : 0);
      if (streamed.status !== 200 || streamed.lines !== expectedLines) {
        throw new Error(`export ${format} of ${size}: status ${streamed.status}, ${streamed.lines} lines, expected ${expectedLines}`);
      }
      const seconds = streamed.totalMs / 1000;
      const row: Row = {
        submissions: size,
        format,
        pass,
        rowsPerSec: round(size / seconds, 0),
        mbPerSec: round(streamed.bytes / 2 ** 20 / seconds, 1),
        firstByteMs: round(streamed.firstByteMs, 0),
        seconds: round(seconds, 1),
        mb: round(streamed.bytes / 2 ** 20, 1),
        idleRssMb: round(idle, 1),
        peakRssMb: round(peak, 1),
        peakMinusIdleMb: idle === null || peak === null ? null : round(peak - idle, 1),
      };
      context.log(`export ${format} @ ${size} (${pass}): ${row.rowsPerSec} rows/s, ${row.mbPerSec} MB/s, first byte ${row.firstByteMs} ms, RSS idle ${row.idleRssMb} MB, peak +${row.peakMinusIdleMb} MB`);
      rows.push(row);
    }
  } finally {
    await gateway.stop();
  }
  return rows;
}

/** A batch's text (Kysely's): the form's submissions in keyset order, oldest first; the newest-row probe orders desc. */
const BATCH_READ = /from "Submission" as "s" where .* order by "s"\."createdAt", "s"\."id" limit \$\d+$/;

/** The export's keyset batch reads among the counted statements (the key lookup, the form, background checks aside). */
const batchReads = (counter: SqlCounter): number => counter.countMatching(BATCH_READ);

/** Polls until no batch was read for `quietMs` (the socket buffers are full and the reads stopped). */
async function untilQuiet(counter: SqlCounter, quietMs: number, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  let last = batchReads(counter);
  let since = performance.now();
  while (performance.now() < deadline) {
    await settle(100);
    const now = batchReads(counter);
    if (now !== last) {
      last = now;
      since = performance.now();
    } else if (performance.now() - since >= quietMs) return true;
  }
  return false;
}

interface ReadChecks {
  batchReadsPerExport: number;
  /** Every statement of that export, with how often it ran. */
  exportStatements: Record<string, number>;
  paused: { bytesRead: number; batchesBeforeQuiet: number; batchesWhilePaused: number; rssGrowthWhilePausedMb: number | null };
}

/**
 * On the 1M form, through the statement counter: one whole NDJSON export (its batch reads), then a client that
 * reads 4 MB, stops reading for 5 s (batch reads and RSS while it waits), and hangs up.
 */
async function readChecks(context: StageContext, url: string, apiKey: string, formId: number, rowsInForm: number): Promise<ReadChecks> {
  const target = new URL(url);
  // The job queue's polling (pg-boss, on its timers) is not the export's.
  const counter = await startSqlCounter({ host: target.hostname, port: Number(target.port || 5432) }, { ignore: /pgboss\./ });
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(counter.port);
  let gateway: Child | null = null;
  try {
    gateway = await context.startGateway(proxied.toString(), join(context.scratch, 'gateway-export-sql'));
    const baseUrl = `http://127.0.0.1:${gateway.port}`;
    counter.reset();
    const whole = await download(baseUrl, exportPath(formId, 'ndjson'), apiKey);
    if (whole.lines !== rowsInForm) throw new Error(`export through the counter: ${whole.lines} lines, expected ${rowsInForm}`);
    const batchReadsPerExport = batchReads(counter);
    const exportStatements = Object.fromEntries(counter.texts());

    counter.reset();
    const pid = gateway.pid;
    const paused = await new Promise<ReadChecks['paused']>((resolve, reject) => {
      const request = http.get(`${baseUrl}${exportPath(formId, 'ndjson')}`, { headers: { authorization: `Bearer ${apiKey}` } }, (response) => {
        let bytesRead = 0;
        // Hanging up below cuts the body: expected, not a failure.
        response.on('error', () => undefined);
        const onData = (chunk: Buffer): void => {
          bytesRead += chunk.length;
          if (bytesRead < 4 * 2 ** 20) return;
          response.off('data', onData);
          response.pause();
          void (async () => {
            // Reads go on until the socket buffers between the two are full, then stop: wait for that, then watch.
            if (!(await untilQuiet(counter, 1500, 30_000))) throw new Error('the export kept reading while its client did not');
            const before = { batches: batchReads(counter), rss: readRss(pid)?.rssMb ?? null };
            await settle(5000);
            const after = { batches: batchReads(counter), rss: readRss(pid)?.rssMb ?? null };
            request.destroy();
            resolve({
              bytesRead,
              batchesBeforeQuiet: before.batches,
              batchesWhilePaused: after.batches - before.batches,
              rssGrowthWhilePausedMb: before.rss === null || after.rss === null ? null : round(after.rss - before.rss, 1),
            });
          })().catch(reject);
        };
        response.on('data', onData);
      });
      request.on('error', (error) => {
        if (!request.destroyed) reject(error);
      });
    });
    return { batchReadsPerExport, exportStatements, paused };
  } finally {
    await gateway?.stop();
    await counter.close();
  }
}

export const exportStage: Stage = {
  name: 'export',
  title: 'submissions export (NDJSON, CSV) over one form of 100k and 1M submissions: throughput and gateway memory',
  async run(context) {
    const name = `${BENCH_DB}_export`;
    const url = await recreateDatabase(context.serverUrl, name);
    try {
      const dataset = await seedBase(url, Buffer.from(context.secretKey, 'base64'));
      const [formId, warmFormId] = [dataset.formIds[0]!, dataset.formIds[1]!];
      await fillForm(url, dataset, warmFormId, WARM_ROWS);
      const rows: Row[] = [];
      const loadSeconds: Record<string, number | null> = {};
      for (const size of SIZES) {
        const filled = await fillForm(url, dataset, formId, size);
        loadSeconds[String(size)] = round(filled.ms / 1000, 1);
        context.log(`export database ${name}: form ${formId} holds ${size} submissions (${(filled.ms / 1000).toFixed(1)} s)`);
        rows.push(...(await measureSize(context, url, dataset.apiKey, formId, warmFormId, size)));
      }
      const checks = await readChecks(context, url, dataset.apiKey, formId, SIZES.at(-1)!);
      const at = (size: number, format: Format, pass: Row['pass']): Row | undefined => rows.find((row) => row.submissions === size && row.format === format && row.pass === pass);
      const [small, large] = [SIZES[0]!, SIZES.at(-1)!];
      const worst = (size: number, pass: Row['pass']): number => Math.max(...FORMATS.map((format) => at(size, format, pass)?.peakMinusIdleMb ?? Infinity));
      const worstAtLarge = worst(large, 'first');
      const worstRepeatAtLarge = worst(large, 'repeat');
      const growth = Math.max(
        ...(['first', 'repeat'] as const).flatMap((pass) => FORMATS.map((format) => (at(large, format, pass)?.peakMinusIdleMb ?? Infinity) - (at(small, format, pass)?.peakMinusIdleMb ?? 0))),
      );
      const slowdown = Math.min(...FORMATS.map((format) => ratio(at(large, format, 'first')?.rowsPerSec ?? null, at(small, format, 'first')?.rowsPerSec ?? null) ?? 0));
      const minRowsPerSec = Math.min(...rows.map((row) => row.rowsPerSec ?? 0));
      const batches = Math.ceil((large + 1) / BATCH);
      return {
        figures: {
          database: name,
          loadSeconds,
          batchReadsOf1mNdjsonExport: checks.batchReadsPerExport,
          keysetBatchesOf500: batches,
          pausedClientBytesRead: checks.paused.bytesRead,
          pausedClientBatchesBeforeQuiet: checks.paused.batchesBeforeQuiet,
          pausedClientBatchesIn5s: checks.paused.batchesWhilePaused,
          pausedClientRssGrowthMb: checks.paused.rssGrowthWhilePausedMb,
          exportStatements: Object.entries(checks.exportStatements).map(([statement, times]) => ({ statement, times })),
          runs: rows.map((row) => ({ ...row })),
        },
        targets: [
          { name: `export: gateway peak RSS minus idle at ${large / 1e6}M rows, first export per format on a fresh gateway, MB (worst format)`, target: '<= 32', value: round(worstAtLarge, 1), holds: holds(worstAtLarge, (v) => v <= 32) },
          { name: `export: gateway peak RSS minus idle at ${large / 1e6}M rows, repeated export, MB (worst format)`, target: '<= 4', value: round(worstRepeatAtLarge, 1), holds: holds(worstRepeatAtLarge, (v) => v <= 4) },
          { name: `export: peak RSS minus idle, ${large / 1e6}M rows minus ${small / 1e3}k rows, MB (worst format and pass)`, target: '<= 8', value: round(growth, 1), holds: holds(growth, (v) => v <= 8) },
          { name: `export: rows/s at ${large / 1e6}M vs at ${small / 1e3}k (worst format)`, target: '>= 0.8', value: slowdown, holds: holds(slowdown, (v) => v >= 0.8) },
          { name: 'export: rows/s (slowest format and size)', target: '>= 20000', value: minRowsPerSec, holds: holds(minRowsPerSec, (v) => v >= 20_000) },
          // One read per keyset batch of 500 (the last one finds fewer or none): batched, not one cursor or one read.
          { name: `export: batch reads for ${large / 1e6}M rows (keyset batches of ${BATCH})`, target: String(batches), value: checks.batchReadsPerExport, holds: checks.batchReadsPerExport === batches },
          { name: 'export: batch reads while its client stops reading (5 s)', target: '0', value: checks.paused.batchesWhilePaused, holds: checks.paused.batchesWhilePaused === 0 },
        ],
        notes: [
          `export: database ${name} (dropped afterwards), one form filled to each size with the bench loader; per size a fresh gateway, one warm-up export of a ${WARM_ROWS}-row form per format, then each format once, ` +
            'read by a node:http client in the bench process; idle RSS read 1 s before each export, peak = the largest VmRSS sampled every 50 ms during it. ' +
            'The read checks run on a gateway behind the wire-protocol statement counter: a whole 1M NDJSON export, then a client that stops reading after 4 MB.',
        ],
      };
    } finally {
      await dropDatabase(context.serverUrl, name);
    }
  },
};
