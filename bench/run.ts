import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { AutocannonRequest } from 'autocannon';
import { BENCH_DB, countersExact, dropDatabase, queryOne, recreateDatabase, seedBase, submissionTotal, topUpSubmissions, type BenchDataset } from './dataset.js';
import { freePort, load, mergeResults, productionArgs, readRss, readyOnHttp, readyOnListeningLine, sampleRss, startChild, type Child, type LoadResult } from './driver.js';
import { mainThreadProfile, summarizeProfile, type ProfileSummary } from './profile.js';
import { ratio, round, SCENARIOS, writeReport, type Results, type ScenarioName, type ScenarioResult, type Target } from './report.js';
import { startSqlCounter } from './sql-counter.js';
import { STAGES } from './stages/index.js';
import type { StageContext, StageResult } from './stages/stage.js';

/**
 * `npm run bench`: builds the dataset on PostgreSQL (database wg_bench at N submissions, plus
 * wg_bench_n<size> for the two scaling sizes, dropped afterwards), starts the gateway (production
 * mode) and the references as child processes, drives each scenario with autocannon over loopback
 * (comparisons interleaved in slices), counts SQL statements per request in a separate pass through
 * a wire-protocol proxy, and writes bench/results.{json,md,png,svg}.
 * Flags: --submissions N (100000), --duration S (10), --warmup S (3), --connections C (32),
 * --scaling 10000,1000000 | none, --profile forms-list,ingest (cpu profiles of the gateway),
 * --rounds R (3: slices per interleaved comparison), --database-url URL (else DATABASE_URL, else the
 * local server), --no-sql-count, --count-requests N (200), --stages main,webhooks,… (all: `main` is the
 * scenarios above, the others are bench/stages/*; a run without `main` writes bench/out/results-partial.*
 * and leaves bench/results.* alone).
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BENCH = join(ROOT, 'bench');

const { values: flags } = parseArgs({
  options: {
    submissions: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '32' },
    scaling: { type: 'string', default: '10000,1000000' },
    profile: { type: 'string', default: '' },
    'database-url': { type: 'string' },
    'no-sql-count': { type: 'boolean', default: false },
    'count-requests': { type: 'string', default: '200' },
    rounds: { type: 'string', default: '3' },
    stages: { type: 'string', default: 'all' },
  },
});

const positive = (name: string, raw: string | undefined): number => {
  const value = Number(String(raw).replace(/_/g, '').replace(/k$/i, '000').replace(/m$/i, '000000'));
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number, got "${raw}"`);
  return value;
};

const N = Math.round(positive('submissions', flags.submissions));
const DURATION = positive('duration', flags.duration);
const WARMUP = Number(flags.warmup) >= 0 ? Number(flags.warmup) : 3;
const CONNECTIONS = Math.round(positive('connections', flags.connections));
const ROUNDS = Math.round(positive('rounds', flags.rounds));
const COUNT_REQUESTS = Math.round(positive('count-requests', flags['count-requests']));
const SCALING = flags.scaling === 'none' ? [] : (flags.scaling ?? '').split(',').filter(Boolean).map((raw) => Math.round(positive('scaling', raw)));
const [SCALE_LOW, SCALE_HIGH] = [SCALING[0] ?? null, SCALING[1] ?? null];
const PROFILE = (flags.profile ?? '').split(',').filter(Boolean) as ScenarioName[];
for (const name of PROFILE) if (!SCENARIOS.includes(name)) throw new Error(`--profile: unknown scenario ${name}`);
const STAGE_NAMES = flags.stages === 'all' ? ['main', ...STAGES.map((stage) => stage.name)] : (flags.stages ?? '').split(',').filter(Boolean);
for (const name of STAGE_NAMES) if (name !== 'main' && !STAGES.some((stage) => stage.name === name)) throw new Error(`--stages: unknown stage ${name} (known: main, ${STAGES.map((stage) => stage.name).join(', ')})`);
const RUN_MAIN = STAGE_NAMES.includes('main');
const SERVER_URL = flags['database-url'] ?? process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

const started = performance.now();
const log = (message: string): void => {
  process.stdout.write(`[bench ${((performance.now() - started) / 1000).toFixed(0).padStart(4)}s] ${message}\n`);
};

/** The dashboard: 100 forms with their counts and latest 5 submissions (one batched lateral query in the schema). */
const GRAPHQL_DASHBOARD = `query Dashboard {
  forms(limit: 100) {
    data { id name submissionCount latestSubmissions(limit: 5) { id createdAt } }
  }
}`;

const INGEST_BODY = (i: number): string =>
  JSON.stringify({ formData: { Name: `Bench ${i}`, Email: `bench${i}@bench.example`, Message: 'Sent by npm run bench' } });

const RUN_ID = randomBytes(4).toString('hex');

/** The autocannon requests of a scenario; ids rotate so that no single row is hot. */
function requestsFor(name: ScenarioName, dataset: BenchDataset, apiKey: string): AutocannonRequest[] {
  const auth = { authorization: `Bearer ${apiKey}` };
  let i = 0;
  const next = (): number => i++;
  switch (name) {
    case 'forms-list':
      return [{ method: 'GET', path: '/v1/forms?limit=100', headers: auth }];
    case 'submissions-list':
      return [{ method: 'GET', path: '/v1/forms/0/submissions', headers: auth, setupRequest: (req) => ({ ...req, path: `/v1/forms/${dataset.formIds[next() % dataset.formIds.length]}/submissions?limit=100` }) }];
    case 'order-get':
      return [{ method: 'GET', path: '/v1/orders/0', headers: auth, setupRequest: (req) => ({ ...req, path: `/v1/orders/${dataset.orderIds[(next() * 7919) % dataset.orderIds.length]}` }) }];
    case 'ingest':
      return [
        {
          method: 'POST',
          path: '/v1/forms/0/submissions',
          headers: { ...auth, 'content-type': 'application/json' },
          setupRequest: (req) => {
            const n = next();
            return {
              ...req,
              path: `/v1/forms/${dataset.formIds[n % dataset.formIds.length]}/submissions`,
              headers: { ...req.headers, 'idempotency-key': `bench-${RUN_ID}-${process.hrtime.bigint()}-${n}` },
              body: INGEST_BODY(n),
            };
          },
        },
      ];
    case 'graphql-dashboard':
      return [{ method: 'POST', path: '/graphql', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ query: GRAPHQL_DASHBOARD }) }];
  }
}

/** One request outside autocannon: proves the scenario answers 2xx (and GraphQL without errors) first. */
async function preflight(baseUrl: string, request: AutocannonRequest): Promise<{ ok: boolean; status: number; body: Buffer }> {
  const built = request.setupRequest ? request.setupRequest({ ...request }, {}) : request;
  let response: Response;
  try {
    response = await fetch(`${baseUrl}${built.path ?? '/'}`, {
      method: built.method ?? 'GET',
      headers: built.headers ?? {},
      ...(built.body ? { body: typeof built.body === 'string' ? built.body : new Uint8Array(built.body) } : {}),
    });
  } catch (error) {
    const cause = (error as Error & { cause?: Error }).cause;
    return { ok: false, status: 0, body: Buffer.from(`no answer: ${cause?.message ?? (error as Error).message}`) };
  }
  const body = Buffer.from(await response.arrayBuffer());
  let ok = response.status >= 200 && response.status < 300;
  if (ok && built.path === '/graphql') {
    const parsed = JSON.parse(body.toString('utf8')) as { errors?: unknown[] };
    if (parsed.errors?.length) ok = false;
  }
  return { ok, status: response.status, body };
}

interface Measured extends LoadResult {
  rssMb: number | null;
}

const runs: Record<string, unknown>[] = [];
const notes: string[] = [];

interface LoadTarget {
  label: string;
  baseUrl: string;
  /** Whose RSS to sample (the gateway's); null for references. */
  pid: number | null;
  /** Overrides the group's requests (another database, another key). */
  requests?: AutocannonRequest[];
  /** The process behind it, to notice and report a crash instead of measuring refused connections. */
  child?: Child;
}

const died = new Set<Child>();

/** True (and reported once, with its last output) when the process behind a target has exited. */
function crashed(target: LoadTarget): boolean {
  const child = target.child;
  const exit = child?.exit() ?? null;
  if (!child || exit === null) return false;
  if (!died.has(child)) {
    died.add(child);
    const tail = child.tail().slice(-2000);
    log(`${child.name} ${exit} during "${target.label}"; its last output:\n${tail}`);
    notes.push(`${child.name} ${exit} during "${target.label}"; last output: ${tail.slice(-800)}`);
  }
  return true;
}

/**
 * Measures targets on the same requests, interleaved: ROUNDS slices of DURATION / ROUNDS each, in
 * turn (A B C A B C …), merged per target. Other work on a shared machine then weighs on every target
 * alike instead of on whichever ran during a busy spell, which is what the ratios need.
 */
async function measureGroup(targets: LoadTarget[], requests: AutocannonRequest[]): Promise<Map<string, Measured | null>> {
  const out = new Map<string, Measured | null>();
  const live: LoadTarget[] = [];
  for (const target of targets) {
    if (crashed(target)) {
      out.set(target.label, null);
      continue;
    }
    const check = await preflight(target.baseUrl, (target.requests ?? requests)[0]!);
    if (check.ok) {
      live.push(target);
      continue;
    }
    const text = check.body.toString('utf8').slice(0, 300);
    log(`${target.label}: preflight answered ${check.status}: ${text}`);
    notes.push(`${target.label}: not measured, preflight answered ${check.status}: ${text}`);
    runs.push({ label: target.label, error: `preflight ${check.status}`, body: text });
    out.set(target.label, null);
  }
  if (WARMUP > 0) for (const target of live) await load({ url: target.baseUrl, connections: CONNECTIONS, duration: WARMUP, requests: target.requests ?? requests });
  const rounds = live.length > 1 ? ROUNDS : 1;
  const slices = new Map<string, LoadResult[]>(live.map((target) => [target.label, []]));
  const rss = new Map<string, number | null>();
  for (let round = 0; round < rounds; round++) {
    for (const target of live) {
      if (crashed(target)) continue;
      const stopSampling = sampleRss(target.pid);
      slices.get(target.label)!.push(await load({ url: target.baseUrl, connections: CONNECTIONS, duration: DURATION / rounds, requests: target.requests ?? requests }));
      const peak = stopSampling();
      const before = rss.get(target.label) ?? null;
      rss.set(target.label, peak === null ? before : Math.max(peak, before ?? 0));
    }
  }
  for (const target of live) {
    if (crashed(target)) {
      out.set(target.label, null);
      runs.push({ label: target.label, error: `${target.child?.name} ${target.child?.exit()}` });
      continue;
    }
    const result = mergeResults(slices.get(target.label)!);
    const rssMb = rss.get(target.label) ?? null;
    out.set(target.label, { ...result, rssMb });
    runs.push({
      label: target.label,
      reqPerSec: round(result.reqPerSec, 1),
      p50Ms: round(result.p50Ms, 2),
      p99Ms: round(result.p99Ms, 2),
      meanMs: round(result.meanMs, 2),
      ok: result.ok,
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      statusCodes: result.statusCodes,
      rssMb: round(rssMb, 1),
      slices: rounds,
      sliceReqPerSec: slices.get(target.label)!.map((slice) => round(slice.reqPerSec, 1)),
    });
    log(`${target.label}: ${result.reqPerSec.toFixed(0)} req/s, p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms${rssMb ? `, RSS ${rssMb.toFixed(0)} MB` : ''}${result.non2xx || result.errors ? `, non-2xx ${result.non2xx}, errors ${result.errors}` : ''}`);
    if (result.non2xx || result.errors || result.timeouts) notes.push(`${target.label}: ${result.non2xx} non-2xx (${JSON.stringify(result.statusCodes)}), ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return out;
}

async function measure(label: string, child: Child, requests: AutocannonRequest[]): Promise<Measured | null> {
  return (await measureGroup([{ label, baseUrl: base(child), pid: child.pid, child }], requests)).get(label) ?? null;
}

const GATEWAY_SOURCE = join(ROOT, 'src', 'main.ts');
/** Production mode is the compiled build (`npm run build`, then `npm run start:prod`'s node arguments), rebuilt at the start of every run. */
const GATEWAY_ARGS = productionArgs(ROOT, 'start:prod');

async function startGateway(databaseUrl: string, secretKey: string, dataDir: string, nodeFlags: string[] = [], env: Record<string, string> = {}): Promise<Child> {
  const port = await freePort();
  return startChild({
    name: 'gateway',
    cwd: ROOT,
    args: [...nodeFlags, ...GATEWAY_ARGS],
    env: {
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      SECRET_KEY: secretKey,
      NODE_ENV: 'production',
      SEED_DEMO: 'false',
      // Jobs are enqueued in the ingest transaction but not run here, like the hand-written outbox.
      WORKERS_IN_PROCESS: 'false',
      LOG_REQUESTS: 'false',
      // The in-process rate-limit window, like the hand-written reference's.
      REDIS_URL: '',
      // Counted and timed as a production gateway is (the metrics stage measures what that costs).
      METRICS_TOKEN: 'bench-metrics-token',
      DATA_DIR: dataDir,
      ...env,
    },
    ready: readyOnHttp(port, '/v1/forms'),
  });
}

type RefMode = 'bare' | 'handwritten' | 'handwritten-counters';

async function startReference(mode: RefMode, databaseUrl: string, secretKey: string, bodyFile?: string): Promise<Child> {
  return startChild({
    name: `reference ${mode}`,
    cwd: ROOT,
    args: ['--import', 'tsx', join(BENCH, 'reference-server.ts')],
    env: { REF_MODE: mode, DATABASE_URL: databaseUrl, SECRET_KEY: secretKey, PORT: '0', ...(bodyFile ? { REF_BODY_FILE: bodyFile } : {}) },
    ready: (child) => readyOnListeningLine(child),
  });
}

const base = (child: Child): string => `http://127.0.0.1:${child.port}`;

async function fetchBody(url: string, apiKey: string): Promise<Buffer> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${apiKey}` } });
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${body.toString('utf8').slice(0, 300)}`);
  return body;
}

async function jobCounts(url: string): Promise<Record<string, number | null>> {
  const row = await queryOne<{ submissions: number; outbox: number; events: number | null; pgboss: number | null }>(
    url,
    `SELECT (SELECT count(*) FROM "Submission")::int AS submissions,
            (SELECT count(*) FROM "BenchOutbox")::int AS outbox,
            CASE WHEN to_regclass('"OutboxEvent"') IS NULL THEN NULL ELSE (SELECT count(*) FROM "OutboxEvent")::int END AS events,
            CASE WHEN to_regclass('pgboss.job') IS NULL THEN NULL ELSE (SELECT count(*) FROM pgboss.job)::int END AS pgboss`,
  );
  return { submissions: row?.submissions ?? null, outbox: row?.outbox ?? null, recordedEvents: row?.events ?? null, pgbossJobs: row?.pgboss ?? null };
}

const diff = (after: Record<string, number | null>, before: Record<string, number | null>): Record<string, number | null> =>
  Object.fromEntries(Object.keys(after).map((key) => [key, after[key] === null || before[key] === null ? null : after[key]! - before[key]!]));

async function main(): Promise<void> {
  const loadAverageAtStart = os.loadavg().map((v) => round(v, 2));
  const secretKey = randomBytes(32).toString('base64');
  const scratch = mkdtempSync(join(os.tmpdir(), 'wg-bench-'));
  const gatewayExists = existsSync(GATEWAY_SOURCE);
  if (!gatewayExists) notes.push('src/main.ts does not exist yet: only the references were measured.');
  else {
    log('npm run build (the gateway runs compiled, as npm run start:prod does)');
    execFileSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' });
  }

  log(`dataset on ${new URL(SERVER_URL).host}: database ${BENCH_DB}, ${N} submissions, scaling ${SCALING.join(', ') || 'off'}`);
  const url = await recreateDatabase(SERVER_URL, BENCH_DB);
  const dataset = await seedBase(url, Buffer.from(secretKey, 'base64'));
  const pgVersion = (await queryOne<{ version: string }>(url, 'SELECT version()'))?.version ?? 'unknown';

  const scenarios = new Map<ScenarioName, Measured | null>();
  const sql = new Map<string, number | null>();
  const sqlTexts: Record<string, Record<string, number>> = {};
  const refs: Record<string, Measured | null> = {};
  const scaling: Record<'formsList10k' | 'formsList1m', Measured | null> = { formsList10k: null, formsList1m: null };
  const checks: Record<string, unknown> = {};
  const loadTimes: Record<string, number> = {};
  let gateway: Child | null = null;
  let peakRss: number | null = null;
  const stageResults: Record<string, StageResult> = {};

  try {
    const topUp = await topUpSubmissions(url, dataset, N);
    loadTimes[String(N)] = Math.round(topUp.ms);
    log(`submissions: ${await submissionTotal(url)} (${(topUp.ms / 1000).toFixed(1)} s)`);
    if (gatewayExists && RUN_MAIN) {
      log('starting the gateway (npm run start:prod entry, NODE_ENV=production)');
      gateway = await startGateway(url, secretKey, join(scratch, 'gateway'));
      checks.gatewayIdleRssMb = round(readRss(gateway.pid)?.rssMb, 1);
      // One warm-up over every route before anything is measured.
      for (const name of SCENARIOS) {
        const requests = requestsFor(name, dataset, dataset.apiKey);
        if ((await preflight(base(gateway), requests[0]!)).ok) await load({ url: base(gateway), connections: CONNECTIONS, duration: Math.max(1, WARMUP), requests });
      }
    }
    if (RUN_MAIN) await mainStage(url, dataset, secretKey, gateway, scratch, { scenarios, refs, checks });
    checks.countersExactAfterRun = await countersExact(url);
    if (gateway) {
      peakRss = readRss(gateway.pid)?.hwmMb ?? null;
      await gateway.stop();
      gateway = null;
    }
    if (RUN_MAIN && !flags['no-sql-count']) await sqlPass(url, dataset, secretKey, gatewayExists, scratch, sql, sqlTexts);
    if (RUN_MAIN && gatewayExists && SCALE_LOW !== null && SCALE_HIGH !== null) {
      const measured = await scalingStage(secretKey, scratch, loadTimes);
      scaling.formsList10k = measured.low;
      scaling.formsList1m = measured.high;
    }
    for (const name of PROFILE) if (gatewayExists) profiles[name] = await profilePass(name, url, dataset, secretKey, scratch);
    const context: StageContext = {
      serverUrl: SERVER_URL,
      url,
      dataset,
      secretKey,
      scratch,
      settings: { submissions: N, durationS: DURATION, warmupS: WARMUP, connections: CONNECTIONS },
      log,
      startGateway: (databaseUrl, dataDir, env = {}, nodeFlags = []) => startGateway(databaseUrl, secretKey, dataDir, nodeFlags, env),
      startReference: (mode) => startReference(mode, url, secretKey),
      requestsFor: (scenario) => requestsFor(scenario, dataset, dataset.apiKey),
      rounds: ROUNDS,
    };
    for (const stage of STAGES.filter((candidate) => STAGE_NAMES.includes(candidate.name))) {
      log(`stage ${stage.name}: ${stage.title}`);
      try {
        stageResults[stage.name] = await stage.run(context);
      } catch (error) {
        // One broken stage must not cost the figures of the others: it is reported, with no targets met.
        const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
        log(`stage ${stage.name} FAILED: ${message}`);
        stageResults[stage.name] = { figures: { failed: message.split('\n')[0] ?? message }, targets: [{ name: `stage ${stage.name} ran`, target: 'yes', value: null, holds: false }] };
      }
    }
  } finally {
    if (gateway) await gateway.stop();
    rmSync(scratch, { recursive: true, force: true });
  }

  const pick = (m: Measured | null | undefined) => ({
    reqPerSec: round(m?.reqPerSec, 1),
    p50Ms: round(m?.p50Ms, 2),
    p99Ms: round(m?.p99Ms, 2),
  });
  const scenarioResults: ScenarioResult[] = SCENARIOS.map((name) => {
    const m = scenarios.get(name);
    return { name, ...pick(m), sqlPerRequest: round(sql.get(`gateway ${name}`), 2), rssMb: round(m?.rssMb, 1) };
  });
  const formsList = scenarioResults.find((s) => s.name === 'forms-list')!;
  const ingest = scenarioResults.find((s) => s.name === 'ingest')!;
  const counters = pick(refs.handwrittenCounters);
  const hand = pick(refs.handwritten);
  const handIngest = pick(refs.handwrittenIngest);
  const bare = pick(refs.bare);
  const low = round(scaling.formsList10k?.reqPerSec, 1);
  const high = round(scaling.formsList1m?.reqPerSec, 1);
  const ratios = {
    formsListVsHandwritten: ratio(formsList.reqPerSec, counters.reqPerSec),
    formsListP99VsHandwritten: ratio(formsList.p99Ms, counters.p99Ms),
    ingestVsHandwritten: ratio(ingest.reqPerSec, handIngest.reqPerSec),
    formsListVsBare: ratio(formsList.reqPerSec, bare.reqPerSec),
  };
  const listSql = [formsList.sqlPerRequest, scenarioResults.find((s) => s.name === 'submissions-list')!.sqlPerRequest].filter((v): v is number => v !== null);
  const maxRss = Math.max(...scenarioResults.map((s) => s.rssMb ?? 0), peakRss ?? 0);
  const holds = (value: number | null, ok: (v: number) => boolean): boolean | null => (value === null ? null : ok(value));
  const scalingRatio = ratio(high, low);
  const mainTargets: Target[] = [
    { name: 'forms list req/s vs hand-written (counters)', target: '>= 1.0', value: ratios.formsListVsHandwritten, holds: holds(ratios.formsListVsHandwritten, (v) => v >= 1) },
    { name: 'forms list p99 vs hand-written (counters)', target: '<= 1.25', value: ratios.formsListP99VsHandwritten, holds: holds(ratios.formsListP99VsHandwritten, (v) => v <= 1.25) },
    { name: 'forms list req/s at 1M vs at 10k', target: '>= 0.9', value: scalingRatio, holds: holds(scalingRatio, (v) => v >= 0.9) },
    { name: 'SQL statements per list request (max of forms, submissions)', target: '<= 3', value: listSql.length ? Math.max(...listSql) : null, holds: listSql.length ? Math.max(...listSql) <= 3 : null },
    { name: 'ingest req/s vs hand-written insert + outbox', target: '>= 1.0', value: ratios.ingestVsHandwritten, holds: holds(ratios.ingestVsHandwritten, (v) => v >= 1) },
    { name: 'gateway RSS, MB (peak)', target: '< 200', value: round(maxRss || null, 1), holds: holds(maxRss || null, (v) => v < 200) },
  ];
  const targets: Target[] = [...(RUN_MAIN ? mainTargets : []), ...Object.values(stageResults).flatMap((stage) => stage.targets)];

  const cpus = os.cpus();
  const results: Results = {
    machine: {
      cpus: cpus.length,
      cpuModel: cpus[0]?.model.trim() ?? 'unknown',
      memoryMb: Math.round(os.totalmem() / 2 ** 20),
      node: process.version,
      postgres: pgVersion.split(',')[0] ?? pgVersion,
      platform: `${os.platform()} ${os.release()} ${os.arch()}`,
      date: new Date().toISOString(),
      // Other work on the machine moves every figure: the 1-, 5- and 15-minute load averages.
      loadAverageAtStart,
      loadAverageAtEnd: os.loadavg().map((v) => round(v, 2)),
    },
    scenarios: scenarioResults,
    references: {
      bare: { reqPerSec: bare.reqPerSec },
      handwritten: { reqPerSec: hand.reqPerSec, p99Ms: hand.p99Ms, ingestReqPerSec: handIngest.reqPerSec },
      handwrittenCounters: { reqPerSec: counters.reqPerSec, p99Ms: counters.p99Ms },
    },
    scaling: { formsList10k: { reqPerSec: low }, formsList1m: { reqPerSec: high } },
    ratios,
    details: {
      settings: { submissions: N, durationS: DURATION, warmupS: WARMUP, connections: CONNECTIONS, scaling: SCALING.join(',') || 'none', countRequests: COUNT_REQUESTS, stages: STAGE_NAMES.join(',') },
      stages: Object.fromEntries(Object.entries(stageResults).map(([name, stage]) => [name, { title: STAGES.find((s) => s.name === name)?.title ?? name, figures: stage.figures }])),
      scalingSizes: { formsList10k: SCALE_LOW, formsList1m: SCALE_HIGH },
      scalingP99: { formsList10k: round(scaling.formsList10k?.p99Ms, 2), formsList1m: round(scaling.formsList1m?.p99Ms, 2) },
      references: {
        bare: { ...bare, sqlPerRequest: 0 },
        handwrittenCounters: { ...counters, sqlPerRequest: round(sql.get('handwritten-counters forms-list'), 2) },
        handwritten: { ...hand, sqlPerRequest: round(sql.get('handwritten forms-list'), 2) },
        handwrittenIngest: { ...handIngest, sqlPerRequest: round(sql.get('handwritten ingest'), 2) },
      },
      extraRatios: {
        formsListVsHandwrittenCounting: ratio(formsList.reqPerSec, hand.reqPerSec),
        formsList1mVs10k: scalingRatio,
        gatewayPeakRssMb: round(peakRss, 1),
      },
      targets,
      checks,
      sqlStatements: sqlTexts,
      datasetLoadMs: loadTimes,
      runs,
      profile: Object.fromEntries(Object.entries(profiles).map(([name, summary]) => [name, summary?.functions ?? []])),
      profilePackages: Object.fromEntries(Object.entries(profiles).map(([name, summary]) => [name, summary?.packages ?? []])),
      profileIdlePercent: Object.fromEntries(Object.entries(profiles).map(([name, summary]) => [name, summary?.idlePercent ?? null])),
      notes: [
        'SQL statements are counted by a PostgreSQL wire-protocol proxy (one per Query or Execute message, BEGIN/COMMIT included) in a separate pass of ' +
          `${COUNT_REQUESTS} requests at 4 connections after a warm-up; throughput runs never go through it. pg_stat_statements is not loaded on this server (needs shared_preload_libraries).`,
        'rssMb is the largest VmRSS of the gateway process (/proc) sampled every 200 ms during the measured run.',
        'The gateway runs with WORKERS_IN_PROCESS=false: ingest records its event (an OutboxEvent row, which the worker relays and fans out to webhooks and emails) with the submission, and nothing relays it, like the hand-written outbox row.',
        'Latency percentiles come from every 2xx response (autocannon response events, fractional ms).',
        ...notes,
        ...Object.values(stageResults).flatMap((stage) => stage.notes ?? []),
      ],
      totalSeconds: Math.round((performance.now() - started) / 1000),
    },
  };
  // A partial run (no main scenarios) must not replace the recorded full results.
  const outDir = RUN_MAIN ? BENCH : join(BENCH, 'out');
  const stem = RUN_MAIN ? 'results' : 'results-partial';
  writeReport(results, {
    json: join(outDir, `${stem}.json`),
    md: join(outDir, `${stem}.md`),
    png: join(outDir, `${stem}.png`),
    svg: join(outDir, `${stem}.svg`),
  });
  log(`wrote ${RUN_MAIN ? 'bench' : 'bench/out'}/${stem}.json, .md, .png, .svg (${Math.round((performance.now() - started) / 1000)} s)`);
  for (const target of targets) log(`target ${target.name} ${target.target}: ${target.value ?? 'n/a'} ${target.holds === null ? '' : target.holds ? 'holds' : 'MISSED'}`);
}

const profiles: Record<string, ProfileSummary | null> = {};

async function mainStage(
  url: string,
  dataset: BenchDataset,
  secretKey: string,
  gateway: Child | null,
  scratch: string,
  out: { scenarios: Map<ScenarioName, Measured | null>; refs: Record<string, Measured | null>; checks: Record<string, unknown> },
): Promise<void> {
  const key = dataset.apiKey;
  const listPath = '/v1/forms?limit=100';
  const handwritten = await startReference('handwritten', url, secretKey);
  const counters = await startReference('handwritten-counters', url, secretKey);
  let bare: Child | null = null;
  try {
    // The bare server answers the gateway's own bytes; both hand-written ones must produce the same.
    const handBody = await fetchBody(`${base(handwritten)}${listPath}`, key);
    const countersBody = await fetchBody(`${base(counters)}${listPath}`, key);
    let gatewayBody: Buffer | null = null;
    if (gateway) {
      try {
        gatewayBody = await fetchBody(`${base(gateway)}${listPath}`, key);
      } catch (error) {
        notes.push(`gateway forms list could not be captured: ${(error as Error).message}`);
      }
    }
    const reference = gatewayBody ?? countersBody;
    out.checks.formsListBytes = reference.length;
    out.checks.handwrittenSameBytes = handBody.equals(reference);
    out.checks.handwrittenCountersSameBytes = countersBody.equals(reference);
    out.checks.bareBodySource = gatewayBody ? 'gateway' : 'handwritten-counters';
    if (!handBody.equals(reference) || !countersBody.equals(reference)) {
      notes.push('The hand-written forms list differs from the gateway bytes (see checks.firstDifference).');
      const a = countersBody.toString('utf8');
      const b = reference.toString('utf8');
      let i = 0;
      while (i < a.length && a[i] === b[i]) i++;
      out.checks.firstDifference = { at: i, handwritten: a.slice(Math.max(0, i - 60), i + 60), gateway: b.slice(Math.max(0, i - 60), i + 60) };
    }
    const bodyFile = join(scratch, 'forms-list.json');
    writeFileSync(bodyFile, reference);
    bare = await startReference('bare', url, secretKey, bodyFile);

    const list = await measureGroup(
      [
        ...(gateway ? [{ label: 'gateway forms-list', baseUrl: base(gateway), pid: gateway.pid, child: gateway }] : []),
        { label: 'handwritten-counters forms-list', baseUrl: base(counters), pid: null, child: counters },
        { label: 'handwritten forms-list', baseUrl: base(handwritten), pid: null, child: handwritten },
        { label: 'bare forms-list', baseUrl: base(bare), pid: null, child: bare },
      ],
      requestsFor('forms-list', dataset, key),
    );
    if (gateway) out.scenarios.set('forms-list', list.get('gateway forms-list') ?? null);
    out.refs.handwrittenCounters = list.get('handwritten-counters forms-list') ?? null;
    out.refs.handwritten = list.get('handwritten forms-list') ?? null;
    out.refs.bare = list.get('bare forms-list') ?? null;
    await bare.stop();
    bare = null;
    if (gateway) {
      for (const name of ['submissions-list', 'order-get', 'graphql-dashboard'] as const) {
        out.scenarios.set(name, await measure(`gateway ${name}`, gateway, requestsFor(name, dataset, key)));
      }
    }
    await counters.stop();
    // Ingest, interleaved like the list: the gateway's pipeline against the hand-written transaction.
    const before = await jobCounts(url);
    const ingest = await measureGroup(
      [
        ...(gateway ? [{ label: 'gateway ingest', baseUrl: base(gateway), pid: gateway.pid, child: gateway }] : []),
        { label: 'handwritten ingest', baseUrl: base(handwritten), pid: null, child: handwritten },
      ],
      requestsFor('ingest', dataset, key),
    );
    if (gateway) out.scenarios.set('ingest', ingest.get('gateway ingest') ?? null);
    out.refs.handwrittenIngest = ingest.get('handwritten ingest') ?? null;
    // Let in-flight transactions settle before counting what they wrote.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const added = diff(await jobCounts(url), before);
    const gatewaySubmissions = typeof added.submissions === 'number' && typeof added.outbox === 'number' ? added.submissions - added.outbox : null;
    out.checks.ingestWrites = {
      ...added,
      gatewaySubmissions,
      // Each gateway submission must have recorded its event (fanned out by the worker to the forms'
      // webhookUrl and emails); the hand-written ones wrote one outbox row each.
      everyGatewaySubmissionRecordedItsEvent: gatewaySubmissions !== null && added.recordedEvents === gatewaySubmissions,
      note: 'rows added during both ingest runs (preflights and warm-ups included); hand-written rows are the outbox rows',
    };
  } finally {
    await bare?.stop();
    await counters.stop();
    await handwritten.stop();
  }
}

/**
 * The forms list at two data sizes, each in its own database with its own gateway process, measured
 * interleaved (A B A B) so that the ratio reflects the data, not the machine's load at the time.
 */
async function scalingStage(secretKey: string, scratch: string, loadTimes: Record<string, number>): Promise<{ low: Measured | null; high: Measured | null }> {
  const sizes = [SCALE_LOW!, SCALE_HIGH!];
  const gateways: Child[] = [];
  const databases: string[] = [];
  try {
    const targets: { size: number; dataset: BenchDataset; gateway: Child }[] = [];
    for (const size of sizes) {
      const name = `${BENCH_DB}_n${size}`;
      const url = await recreateDatabase(SERVER_URL, name);
      databases.push(name);
      const dataset = await seedBase(url, Buffer.from(secretKey, 'base64'));
      const topUp = await topUpSubmissions(url, dataset, size);
      loadTimes[String(size)] = Math.round(topUp.ms);
      log(`scaling database ${name}: ${size} submissions (${(topUp.ms / 1000).toFixed(1)} s)`);
      const gateway = await startGateway(url, secretKey, join(scratch, `gateway-${size}`));
      gateways.push(gateway);
      targets.push({ size, dataset, gateway });
    }
    const results = new Map<number, Measured | null>();
    const list = await measureGroup(
      targets.map((t) => ({ label: `gateway forms-list @ ${t.size}`, baseUrl: base(t.gateway), pid: t.gateway.pid, child: t.gateway, requests: requestsFor('forms-list', t.dataset, t.dataset.apiKey) })),
      [],
    );
    for (const t of targets) results.set(t.size, list.get(`gateway forms-list @ ${t.size}`) ?? null);
    return { low: results.get(sizes[0]!) ?? null, high: results.get(sizes[1]!) ?? null };
  } finally {
    for (const gateway of gateways) await gateway.stop();
    for (const name of databases) await dropDatabase(SERVER_URL, name);
  }
}

async function sqlPass(
  url: string,
  dataset: BenchDataset,
  secretKey: string,
  gatewayExists: boolean,
  scratch: string,
  sql: Map<string, number | null>,
  texts: Record<string, Record<string, number>>,
): Promise<void> {
  const target = new URL(url);
  const proxy = await startSqlCounter({ host: target.hostname, port: Number(target.port || 5432) });
  const viaProxy = new URL(url);
  viaProxy.hostname = '127.0.0.1';
  viaProxy.port = String(proxy.port);
  const proxied = viaProxy.toString();
  log(`SQL counting pass through the wire-protocol proxy (${COUNT_REQUESTS} requests per scenario)`);
  const count = async (label: string, baseUrl: string, requests: AutocannonRequest[]): Promise<void> => {
    await load({ url: baseUrl, connections: 4, duration: 1, amount: 40, requests });
    await new Promise((resolve) => setTimeout(resolve, 200));
    proxy.reset();
    const result = await load({ url: baseUrl, connections: 4, duration: 1, amount: COUNT_REQUESTS, requests });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const statements = proxy.count();
    const perRequest = result.ok > 0 && result.non2xx === 0 ? statements / result.ok : null;
    sql.set(label, perRequest);
    texts[label] = Object.fromEntries([...proxy.texts().entries()].sort((a, b) => b[1] - a[1]).slice(0, 15).map(([text, n]) => [text, round(n / Math.max(1, result.ok), 2) ?? 0]));
    log(`${label}: ${perRequest === null ? `n/a (${result.non2xx} non-2xx)` : perRequest.toFixed(2)} statements per request`);
  };
  const children: Child[] = [];
  try {
    if (gatewayExists) {
      const gateway = await startGateway(proxied, secretKey, join(scratch, 'gateway-sql'));
      children.push(gateway);
      for (const name of SCENARIOS) {
        const requests = requestsFor(name, dataset, dataset.apiKey);
        if ((await preflight(base(gateway), requests[0]!)).ok) await count(`gateway ${name}`, base(gateway), requests);
        else sql.set(`gateway ${name}`, null);
      }
      await gateway.stop();
    }
    for (const mode of ['handwritten', 'handwritten-counters'] as const) {
      const reference = await startReference(mode, proxied, secretKey);
      children.push(reference);
      await count(`${mode} forms-list`, base(reference), requestsFor('forms-list', dataset, dataset.apiKey));
      if (mode === 'handwritten') await count(`${mode} ingest`, base(reference), requestsFor('ingest', dataset, dataset.apiKey));
      await reference.stop();
    }
  } finally {
    for (const child of children) await child.stop();
    await proxy.close();
  }
}

async function profilePass(name: ScenarioName, url: string, dataset: BenchDataset, secretKey: string, scratch: string): Promise<ProfileSummary | null> {
  const dir = join(BENCH, 'profiles', name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  log(`profiling the gateway on ${name} (--cpu-prof into bench/profiles/${name})`);
  const spawned = performance.now();
  const gateway = await startGateway(url, secretKey, join(scratch, `gateway-prof-${name}`), ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
  let skipMs = 0;
  try {
    const requests = requestsFor(name, dataset, dataset.apiKey);
    await load({ url: base(gateway), connections: CONNECTIONS, duration: Math.max(WARMUP, 2), requests });
    // Only the steady state counts: start-up, module loading and warm-up are left out of the summary.
    skipMs = performance.now() - spawned;
    await load({ url: base(gateway), connections: CONNECTIONS, duration: Math.max(DURATION, 5), requests });
  } finally {
    await gateway.stop();
  }
  const file = mainThreadProfile(dir);
  if (!file) {
    notes.push(`profile ${name}: no .cpuprofile written (the gateway must exit normally on SIGTERM for --cpu-prof to write it)`);
    return null;
  }
  return summarizeProfile(file, ROOT.replace(/\/$/, ''), skipMs);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench failed: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);

