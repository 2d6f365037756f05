import http from 'node:http';
import { join } from 'node:path';
import { dropDatabase, fillForm, queryOne, recreateDatabase, seedBase, BENCH_DB, countersExact } from '../dataset.js';
import { measureInterleaved, type Child } from '../driver.js';
import { ratio, round } from '../report.js';
import { startSqlCounter } from '../sql-counter.js';
import { holds, type Stage, type StageContext } from './stage.js';

/**
 * Decisions §7.6 on one form of 1,000,000 submissions spread over a year, in a database of its own
 * (`<BENCH_DB>_deeplist`, dropped at the end), against the compiled gateway (production mode), by HTTP:
 *
 * - page 1 of the submissions list (limit 100) without a window, and with a median-wide window (`createdBefore` or
 *   `createdFrom` at the form's median createdAt): per-request latency, one connection, interleaved;
 * - a cursor page at depth 500,000 (the `Link` a full walk followed there) against page 1;
 * - a full cursor walk (page 1, then every `Link`) against the streamed NDJSON export of the same form, in database
 *   time: the database's `active_time` (pg_stat_database: time its backends spent running statements; PostgreSQL 14+;
 *   pg_stat_statements needs a preloaded library this shared server lacks), read before and after each with the
 *   gateway's sessions idle long enough to have reported; wall time is shown beside it;
 * - SQL statements per request through the wire-protocol counter: a deep cursor page against page 1.
 */

const ROWS = 1_000_000;
const DAYS = 365;
const LIMIT = 100;
const DEPTH = 500_000;

interface Fetched {
  status: number;
  body: string;
  link: string | null;
}

function fetchText(baseUrl: string, path: string, apiKey: string): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${apiKey}` } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const link = /^<([^>]+)>; rel="next"$/.exec(String(response.headers.link ?? ''))?.[1] ?? null;
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), link });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

/** Reads a whole response, counting its bytes (the export). */
function drain(baseUrl: string, path: string, apiKey: string): Promise<{ status: number; lines: number }> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${apiKey}` } }, (response) => {
      let lines = 0;
      response.on('data', (chunk: Buffer) => {
        for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, lines }));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The database's active_time in ms, after its idle backends have reported (they do at most once a second, when idle). */
async function activeMs(url: string, database: string): Promise<number> {
  await settle(2500);
  const row = await queryOne<{ ms: number }>(url, 'SELECT active_time AS ms FROM pg_stat_database WHERE datname = $1', [database]);
  return Number(row?.ms ?? NaN);
}

/** Database time and wall time of `work`, as active_time deltas (the settle before each read is not in the wall time). */
async function timed<T>(url: string, database: string, work: () => Promise<T>): Promise<{ result: T; dbMs: number; wallMs: number }> {
  const before = await activeMs(url, database);
  const started = performance.now();
  const result = await work();
  const wallMs = performance.now() - started;
  return { result, dbMs: (await activeMs(url, database)) - before, wallMs };
}

/** Walks the whole list by cursor; returns the rows seen and the `Link` that starts at row DEPTH + 1. */
async function cursorWalk(baseUrl: string, apiKey: string, formId: number): Promise<{ rows: number; pages: number; deepLink: string | null }> {
  let path: string | null = `/v1/forms/${formId}/submissions?limit=${LIMIT}`;
  let rows = 0;
  let pages = 0;
  let deepLink: string | null = null;
  while (path) {
    const page = await fetchText(baseUrl, path, apiKey);
    if (page.status !== 200) throw new Error(`cursor walk: ${path} answered ${page.status}`);
    rows += (JSON.parse(page.body) as { data: unknown[] }).data.length;
    pages++;
    if (rows === DEPTH) deepLink = page.link;
    path = page.link;
  }
  return { rows, pages, deepLink };
}

/** Statements one request sends (after a warm-up of the same request), through the wire-protocol counter. */
async function statementsPerRequest(context: StageContext, url: string, apiKey: string, paths: Record<string, string>): Promise<Record<string, { count: number; texts: Record<string, number> }>> {
  const target = new URL(url);
  const counter = await startSqlCounter({ host: target.hostname, port: Number(target.port || 5432) }, { ignore: /pgboss\./ });
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(counter.port);
  let gateway: Child | null = null;
  try {
    gateway = await context.startGateway(proxied.toString(), join(context.scratch, 'gateway-deeplist-sql'));
    const baseUrl = `http://127.0.0.1:${gateway.port}`;
    const counted: Record<string, { count: number; texts: Record<string, number> }> = {};
    for (const [name, path] of Object.entries(paths)) {
      await fetchText(baseUrl, path, apiKey);
      counter.reset();
      const res = await fetchText(baseUrl, path, apiKey);
      if (res.status !== 200) throw new Error(`${name}: ${path} answered ${res.status}`);
      counted[name] = { count: counter.count(), texts: Object.fromEntries(counter.texts()) };
    }
    return counted;
  } finally {
    await gateway?.stop();
    await counter.close();
  }
}

export const deepListStage: Stage = {
  name: 'deep-list',
  title: `lists at any depth (decisions §7.6): one form of ${ROWS / 1e6}M submissions over ${DAYS} days: windowed page 1, deep cursor page, full cursor walk vs export, statements`,
  async run(context) {
    const name = `${BENCH_DB}_deeplist`;
    const url = await recreateDatabase(context.serverUrl, name);
    let gateway: Child | null = null;
    try {
      const dataset = await seedBase(url, Buffer.from(context.secretKey, 'base64'));
      const formId = dataset.formIds[0]!;
      const filled = await fillForm(url, dataset, formId, ROWS, DAYS);
      context.log(`deep-list database ${name}: form ${formId} holds ${ROWS} submissions over ${DAYS} days (${(filled.ms / 1000).toFixed(1)} s)`);
      // As ISO text in SQL: the column holds UTC wall times without a zone, which pg would read as local times.
      const median = await queryOne<{ at: string }>(
        url,
        `SELECT to_char("createdAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at FROM "Submission" WHERE "formId" = $1 ORDER BY "createdAt" DESC, id DESC OFFSET $2 LIMIT 1`,
        [formId, ROWS / 2],
      );
      const medianIso = median!.at;
      const list = `/v1/forms/${formId}/submissions?limit=${LIMIT}`;
      const paths = {
        page1: list,
        page1CreatedBefore: `${list}&createdBefore=${encodeURIComponent(medianIso)}`,
        page1CreatedFrom: `${list}&createdFrom=${encodeURIComponent(medianIso)}`,
      };

      gateway = await context.startGateway(url, join(context.scratch, 'gateway-deeplist'));
      const baseUrl = `http://127.0.0.1:${gateway.port}`;
      const totals: Record<string, number> = {};
      for (const [key, path] of Object.entries(paths)) {
        const res = await fetchText(baseUrl, path, dataset.apiKey);
        if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
        totals[key] = (JSON.parse(res.body) as { pagination: { total: number } }).pagination.total;
      }
      const exact = await queryOne<{ before: number; from: number }>(
        url,
        `SELECT count(*) FILTER (WHERE "createdAt" < $2::timestamptz AT TIME ZONE 'UTC')::int AS before,
                count(*) FILTER (WHERE "createdAt" >= $2::timestamptz AT TIME ZONE 'UTC')::int AS from FROM "Submission" WHERE "formId" = $1`,
        [formId, medianIso],
      );
      const totalsExact = totals.page1 === ROWS && totals.page1CreatedBefore === exact?.before && totals.page1CreatedFrom === exact?.from;

      // The idle gateway's own statements (job-queue polling, the relay) run meanwhile: their rate, to take out.
      const idle = await timed(url, name, () => settle(10_000));
      const backgroundPerMs = Math.max(0, idle.dbMs / idle.wallMs);
      const net = (run: { dbMs: number; wallMs: number }): number => run.dbMs - backgroundPerMs * run.wallMs;
      const walk = await timed(url, name, () => cursorWalk(baseUrl, dataset.apiKey, formId));
      if (walk.result.rows !== ROWS || !walk.result.deepLink) throw new Error(`cursor walk: ${walk.result.rows} rows, deep link ${walk.result.deepLink}`);
      const exported = await timed(url, name, () => drain(baseUrl, `/v1/forms/${formId}/submissions/export?format=ndjson`, dataset.apiKey));
      if (exported.result.status !== 200 || exported.result.lines !== ROWS) throw new Error(`export: ${exported.result.status}, ${exported.result.lines} lines`);
      context.log(
        `deep-list: idle gateway ${idle.dbMs.toFixed(0)} ms of db time in ${idle.wallMs.toFixed(0)} ms; cursor walk ${walk.result.pages} pages, db ${Math.round(walk.dbMs)} ms (net ${Math.round(net(walk))}), ` +
          `wall ${Math.round(walk.wallMs)} ms; export db ${Math.round(exported.dbMs)} ms (net ${Math.round(net(exported))}), wall ${Math.round(exported.wallMs)} ms`,
      );

      const deep = walk.result.deepLink;
      const targets = { ...paths, cursorAt500k: deep };
      const auth = { authorization: `Bearer ${dataset.apiKey}` };
      const measured = await measureInterleaved(
        Object.entries(targets).map(([label, path]) => ({ label, url: baseUrl, requests: [{ method: 'GET', path, headers: auth }] })),
        { durationS: 12, warmupS: 1, connections: 1, rounds: 6 },
      );
      const p50 = (label: string): number | null => round(measured.get(label)?.p50Ms, 2);
      const latency = Object.fromEntries(Object.keys(targets).map((label) => [label, { p50Ms: p50(label), p99Ms: round(measured.get(label)?.p99Ms, 2), requests: measured.get(label)?.ok ?? 0 }]));
      await gateway.stop();
      gateway = null;

      const statements = await statementsPerRequest(context, url, dataset.apiKey, { ...paths, cursorAt500k: deep });
      const countersHold = await countersExact(url);

      const windowRatio = Math.max(ratio(p50('page1CreatedBefore'), p50('page1')) ?? Infinity, ratio(p50('page1CreatedFrom'), p50('page1')) ?? Infinity);
      const deepRatio = ratio(p50('cursorAt500k'), p50('page1'));
      const walkRatio = ratio(net(walk), net(exported));
      const walkRatioRaw = ratio(walk.dbMs, exported.dbMs);
      const cursorStatements = statements.cursorAt500k!.count;
      const page1Statements = statements.page1!.count;
      return {
        figures: {
          database: name,
          loadSeconds: round(filled.ms / 1000, 1),
          medianCreatedAt: medianIso,
          totals,
          totalsExact,
          countersExact: countersHold,
          latency,
          idleGatewayDbMsPerS: round(backgroundPerMs * 1000, 2),
          cursorWalk: { pages: walk.result.pages, rows: walk.result.rows, dbMs: round(walk.dbMs, 0), netDbMs: round(net(walk), 0), wallMs: round(walk.wallMs, 0) },
          export: { rows: exported.result.lines, dbMs: round(exported.dbMs, 0), netDbMs: round(net(exported), 0), wallMs: round(exported.wallMs, 0) },
          walkVsExportDbRaw: walkRatioRaw,
          statements: Object.entries(statements).map(([request, counted]) => ({ request, count: counted.count, texts: JSON.stringify(counted.texts) })),
        },
        targets: [
          { name: 'deep-list: page 1 with a median-wide window (worst of createdBefore, createdFrom) vs page 1, p50', target: '<= 1.5', value: round(windowRatio, 2), holds: holds(windowRatio, (v) => v <= 1.5) },
          { name: `deep-list: cursor page at depth ${DEPTH} vs page 1, p50`, target: '<= 1.5', value: deepRatio, holds: holds(deepRatio, (v) => v <= 1.5) },
          { name: 'deep-list: full cursor walk vs streamed NDJSON export, database active_time net of the idle gateway', target: '<= 2', value: walkRatio, holds: holds(walkRatio, (v) => v <= 2) },
          { name: 'deep-list: SQL statements of a cursor page at depth 500000 minus page 1', target: '<= 0', value: cursorStatements - page1Statements, holds: cursorStatements <= page1Statements },
          { name: 'deep-list: window totals equal the rows, counters and day counts exact', target: '0 wrong', value: totalsExact && countersHold ? 0 : 1, holds: totalsExact && countersHold },
        ],
        notes: [
          `deep-list: database ${name} (dropped afterwards), one form of ${ROWS} submissions ${(DAYS * 86400 / ROWS).toFixed(1)} s apart over ${DAYS} days (INSERT … SELECT generate_series, counters and day counts recomputed exactly, VACUUM ANALYZE). ` +
            `Latency: one connection, interleaved slices (autocannon), limit ${LIMIT}. Database time: pg_stat_database.active_time of that database before and after (2.5 s settle each side), ` +
            'net of the idle gateway\'s own rate (job-queue polling, measured over 10 s before the walk; raw figures beside). The walk\'s time includes each request\'s API-key lookup. Statements: a gateway behind the wire-protocol counter, the second of two identical requests, job-queue polling not counted.',
        ],
      };
    } finally {
      await gateway?.stop();
      await dropDatabase(context.serverUrl, name);
    }
  },
};
