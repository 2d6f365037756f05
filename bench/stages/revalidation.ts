import { join } from 'node:path';
import type { AutocannonRequest } from 'autocannon';
import { load, mergeResults, type Child, type LoadResult } from '../driver.js';
import { ratio, round } from '../report.js';
import { startSqlCounter } from '../sql-counter.js';
import { holds, type Stage, type StageContext } from './stage.js';

/**
 * Revalidation of the forms list (contract §6.2): a client holding the list's ETag sends `If-None-Match` and gets
 * a 304 decided from one version statement, no body built. Measured here, and only here, against the full list
 * on the same gateway at the same connections, interleaved in slices (A B A B …) so that other work on the
 * machine weighs on both alike. Then: the budget a 304 uses (the X-RateLimit-Remaining before and after a run of
 * them, next to the same for full lists, which must use one each: proof the counter moves at all), and the SQL
 * statements per request of both, counted by the wire-protocol proxy on a second gateway.
 */

const LIST_PATH = '/v1/forms?limit=100';
const ROUNDS = 3;
/** Requests per budget and SQL-count run. */
const COUNTED = 500;

interface Current {
  etag: string;
  bytes: number;
}

async function currentList(baseUrl: string, apiKey: string): Promise<Current> {
  const response = await fetch(`${baseUrl}${LIST_PATH}`, { headers: { authorization: `Bearer ${apiKey}` } });
  const body = Buffer.from(await response.arrayBuffer());
  const etag = response.headers.get('etag');
  if (response.status !== 200 || !etag) throw new Error(`forms list answered ${response.status} with ETag ${etag}: ${body.toString('utf8').slice(0, 300)}`);
  return { etag, bytes: body.length };
}

/** X-RateLimit-Remaining as a revalidation sees it (the same 304 path the run measures, so the read costs nothing). */
async function remaining(baseUrl: string, apiKey: string, etag: string): Promise<number> {
  const response = await fetch(`${baseUrl}${LIST_PATH}`, { headers: { authorization: `Bearer ${apiKey}`, 'if-none-match': etag } });
  await response.arrayBuffer();
  const value = Number(response.headers.get('x-ratelimit-remaining'));
  if (response.status !== 304 || !Number.isFinite(value)) throw new Error(`revalidation answered ${response.status}, X-RateLimit-Remaining ${response.headers.get('x-ratelimit-remaining')}`);
  return value;
}

const requests = (apiKey: string, etag: string | null): AutocannonRequest[] => [
  { method: 'GET', path: LIST_PATH, headers: { authorization: `Bearer ${apiKey}`, ...(etag ? { 'if-none-match': etag } : {}) } },
];

/** Every answer of a run must be the expected status: a 200 among the 304s would mean the tag stopped matching. */
function expectOnly(label: string, result: LoadResult, status: number): void {
  const other = Object.entries(result.statusCodes).filter(([code]) => Number(code) !== status);
  if (other.length || result.errors || result.timeouts) {
    throw new Error(`${label}: expected only ${status}, got ${JSON.stringify(result.statusCodes)}, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
}

async function measureInterleaved(context: StageContext, baseUrl: string, apiKey: string, etag: string): Promise<{ full: LoadResult; revalidated: LoadResult }> {
  const { connections, durationS, warmupS } = context.settings;
  const full = requests(apiKey, null);
  const revalidate = requests(apiKey, etag);
  if (warmupS > 0) {
    await load({ url: baseUrl, connections, duration: warmupS, requests: full });
    await load({ url: baseUrl, connections, duration: warmupS, requests: revalidate });
  }
  const slices: { full: LoadResult[]; revalidated: LoadResult[] } = { full: [], revalidated: [] };
  for (let round = 0; round < ROUNDS; round++) {
    slices.full.push(await load({ url: baseUrl, connections, duration: durationS / ROUNDS, requests: full }));
    slices.revalidated.push(await load({ url: baseUrl, connections, duration: durationS / ROUNDS, requests: revalidate }));
  }
  const result = { full: mergeResults(slices.full), revalidated: mergeResults(slices.revalidated) };
  expectOnly('full list', result.full, 200);
  expectOnly('revalidation', result.revalidated, 304);
  return result;
}

/** Budget used per request by COUNTED requests, read from X-RateLimit-Remaining around them. */
async function budgetPerRequest(baseUrl: string, apiKey: string, etag: string, conditional: boolean): Promise<number> {
  const before = await remaining(baseUrl, apiKey, etag);
  const result = await load({ url: baseUrl, connections: 4, duration: 1, amount: COUNTED, requests: requests(apiKey, conditional ? etag : null) });
  expectOnly(conditional ? 'revalidation (budget)' : 'full list (budget)', result, conditional ? 304 : 200);
  const after = await remaining(baseUrl, apiKey, etag);
  return (before - after) / result.ok;
}

/** Statements per request of both paths, through the proxy, on a gateway of their own (the proxy adds a hop). */
async function sqlPerRequest(context: StageContext, apiKey: string): Promise<{ full: number; revalidated: number; texts: Record<string, number> }> {
  const target = new URL(context.url);
  // The job queue's polling (pg-boss, on its timers) is no request's statement.
  const proxy = await startSqlCounter({ host: target.hostname, port: Number(target.port || 5432) }, { ignore: /pgboss\./ });
  const proxied = new URL(context.url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);
  let gateway: Child | null = null;
  try {
    gateway = await context.startGateway(proxied.toString(), join(context.scratch, 'gateway-revalidation-sql'));
    const baseUrl = `http://127.0.0.1:${gateway.port}`;
    const { etag } = await currentList(baseUrl, apiKey);
    const count = async (conditional: boolean): Promise<number> => {
      const reqs = requests(apiKey, conditional ? etag : null);
      // The first requests fill the caches (key lookup, the remembered tag): only the steady state counts.
      await load({ url: baseUrl, connections: 4, duration: 1, amount: 40, requests: reqs });
      proxy.reset();
      const result = await load({ url: baseUrl, connections: 4, duration: 1, amount: COUNTED, requests: reqs });
      expectOnly('SQL count', result, conditional ? 304 : 200);
      return proxy.count() / result.ok;
    };
    const full = await count(false);
    const revalidated = await count(true);
    const texts = Object.fromEntries([...proxy.texts().entries()].map(([text, n]) => [text, round(n / COUNTED, 2) ?? 0]));
    return { full, revalidated, texts };
  } finally {
    await gateway?.stop();
    await proxy.close();
  }
}

export const revalidation: Stage = {
  name: 'revalidation',
  title: 'forms list revalidated with If-None-Match (304) vs the full list, interleaved on one gateway',
  async run(context) {
    const apiKey = context.dataset.apiKey;
    const gateway = await context.startGateway(context.url, join(context.scratch, 'gateway-revalidation'));
    let measured: { full: LoadResult; revalidated: LoadResult };
    let budget304: number;
    let budget200: number;
    let current: Current;
    try {
      const baseUrl = `http://127.0.0.1:${gateway.port}`;
      current = await currentList(baseUrl, apiKey);
      measured = await measureInterleaved(context, baseUrl, apiKey, current.etag);
      budget304 = await budgetPerRequest(baseUrl, apiKey, current.etag, true);
      budget200 = await budgetPerRequest(baseUrl, apiKey, current.etag, false);
    } finally {
      await gateway.stop();
    }
    const sql = await sqlPerRequest(context, apiKey);
    const speedup = ratio(measured.revalidated.reqPerSec, measured.full.reqPerSec);
    context.log(
      `revalidation: 304 ${measured.revalidated.reqPerSec.toFixed(0)} req/s vs full ${measured.full.reqPerSec.toFixed(0)} req/s (x${speedup}), ` +
        `budget per 304 ${budget304}, per 200 ${budget200}, SQL per 304 ${sql.revalidated.toFixed(2)}, per 200 ${sql.full.toFixed(2)}`,
    );
    const row = (name: string, result: LoadResult, sqlPer: number) => ({
      request: name,
      reqPerSec: round(result.reqPerSec, 1),
      p50Ms: round(result.p50Ms, 2),
      p99Ms: round(result.p99Ms, 2),
      answers: result.ok,
      sqlPerRequest: round(sqlPer, 2),
    });
    return {
      figures: {
        listBytes: current.bytes,
        revalidationVsFullReqPerSec: speedup,
        budgetPer304: round(budget304, 3),
        budgetPer200: round(budget200, 3),
        sqlPer304: round(sql.revalidated, 2),
        sqlPerFullList: round(sql.full, 2),
        runs: [row('GET /v1/forms?limit=100 (200, full list)', measured.full, sql.full), row('same + If-None-Match: <its ETag> (304)', measured.revalidated, sql.revalidated)],
        statementsPer304: Object.entries(sql.texts).map(([statement, perRequest]) => ({ statement, perRequest })),
      },
      targets: [
        { name: 'forms list revalidation (304) req/s vs full list', target: '>= 2', value: speedup, holds: holds(speedup, (v) => v >= 2) },
        // The control (a full list uses exactly one) proves the figure is read from a counter that moves.
        { name: 'budget used per 304 (contract §6.2), full list using 1 as control', target: '0 (control 1)', value: round(budget304, 3), holds: budget304 === 0 && budget200 === 1 },
        // The API key lookup (every request, 304 or not) and the list's version: no body is read.
        { name: 'SQL statements per 304 revalidation (key lookup + version)', target: '<= 2', value: round(sql.revalidated, 2), holds: holds(sql.revalidated, (v) => v <= 2) },
      ],
      notes: [
        `revalidation: ${ROUNDS} interleaved slices each of the full list and of its revalidation (If-None-Match with the list's real ETag) on one gateway at ${context.settings.connections} connections; ` +
          `budget per request from X-RateLimit-Remaining around ${COUNTED} requests; SQL per request through the wire-protocol proxy over ${COUNTED} requests after 40 warm-up requests (the 304 path's statements in "statementsPer304").`,
      ],
    };
  },
};
