import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AutocannonRequest } from 'autocannon';
import { load, measureInterleaved, readyOnListeningLine, startChild, type Child, type LoadResult } from '../driver.js';
import { round, ratio } from '../report.js';
import { startSqlCounter } from '../sql-counter.js';
import { mainThreadProfile, summarizeProfile, type ProfileSummary } from '../profile.js';
import { holds, type Stage, type StageContext } from './stage.js';

/**
 * The GraphQL dashboard (`npm run bench`'s graphql-dashboard scenario) against a hand-written node:http + pg
 * handler answering the same bytes (bench/reference-server.ts, REF_MODE=dashboard): 100 forms with their counts
 * and newest 5 submissions. The two are measured interleaved in one run; the bodies must be byte-identical first.
 * Nothing writes while it runs, so the gateway answers from its cache of answers (src/execution/answer-cache.ts:
 * the key and the forms version, 2 statements); a third target, a gateway with the cache off
 * (GRAPHQL_ANSWER_CACHE_MB=0), shows what executing the query costs (reported, not a target).
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Slices per target, as `npm run bench`'s default --rounds. */
const ROUNDS = 3;
const COUNT_REQUESTS = 200;
/** DASHBOARD_PROFILE=1: the measured gateway runs with --cpu-prof; its hot spots (self time) are added to the figures. */
const PROFILE = process.env.DASHBOARD_PROFILE === '1';

/** The same document as the main scenario (bench/run.ts GRAPHQL_DASHBOARD). */
export const DASHBOARD_QUERY = `query Dashboard {
  forms(limit: 100) {
    data { id name submissionCount latestSubmissions(limit: 5) { id createdAt } }
  }
}`;

const requests = (apiKey: string): AutocannonRequest[] => [
  { method: 'POST', path: '/graphql', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ query: DASHBOARD_QUERY }) },
];

const startReference = (databaseUrl: string, secretKey: string): Promise<Child> =>
  startChild({
    name: 'reference dashboard',
    cwd: ROOT,
    args: ['--import', 'tsx', join(ROOT, 'bench', 'reference-server.ts')],
    env: { REF_MODE: 'dashboard', DATABASE_URL: databaseUrl, SECRET_KEY: secretKey, PORT: '0', REF_DASHBOARD_QUERY: DASHBOARD_QUERY },
    ready: (child) => readyOnListeningLine(child),
  });

const base = (child: Child): string => `http://127.0.0.1:${child.port}`;

async function answer(child: Child, apiKey: string): Promise<Buffer> {
  const [request] = requests(apiKey);
  const response = await fetch(`${base(child)}/graphql`, { method: 'POST', headers: request!.headers, body: request!.body as string });
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200) throw new Error(`${child.name} answered ${response.status}: ${body.toString('utf8').slice(0, 300)}`);
  return body;
}

/** Where two bodies first differ, with some context, for the error. */
function firstDifference(a: Buffer, b: Buffer): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const around = (body: Buffer): string => body.toString('utf8', Math.max(0, i - 60), i + 60);
  return `at byte ${i}: gateway …${around(a)}… reference …${around(b)}…`;
}

/** Statements per request through the wire-protocol proxy, after a warm-up (as bench/run.ts counts them). */
async function countStatements(context: StageContext): Promise<{ gateway: number | null; reference: number | null; texts: Record<string, Record<string, number>> }> {
  const target = new URL(context.url);
  const proxy = await startSqlCounter({ host: target.hostname, port: Number(target.port || 5432) });
  const proxied = new URL(context.url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);
  const texts: Record<string, Record<string, number>> = {};
  const count = async (label: string, child: Child): Promise<number | null> => {
    const options = { url: base(child), connections: 4, duration: 1, requests: requests(context.dataset.apiKey) };
    await load({ ...options, amount: 40 });
    proxy.reset();
    const result = await load({ ...options, amount: COUNT_REQUESTS });
    // Let the last responses' statements (e.g. an audit write after the answer) reach the proxy.
    await new Promise((resolve) => setTimeout(resolve, 200));
    texts[label] = Object.fromEntries([...proxy.texts().entries()].map(([text, n]) => [text, round(n / Math.max(1, result.ok), 2) ?? 0]));
    return result.ok > 0 && result.non2xx === 0 ? proxy.count() / result.ok : null;
  };
  const children: Child[] = [];
  try {
    const gateway = await context.startGateway(proxied.toString(), join(context.scratch, 'gateway-dashboard-sql'));
    children.push(gateway);
    const gatewayCount = await count('gateway', gateway);
    const reference = await startReference(proxied.toString(), context.secretKey);
    children.push(reference);
    const referenceCount = await count('reference', reference);
    return { gateway: gatewayCount, reference: referenceCount, texts };
  } finally {
    for (const child of children) await child.stop();
    await proxy.close();
  }
}

const summary = (result: LoadResult | undefined) => ({
  reqPerSec: round(result?.reqPerSec, 1),
  p50Ms: round(result?.p50Ms, 2),
  p99Ms: round(result?.p99Ms, 2),
  ok: result?.ok ?? null,
  non2xx: result?.non2xx ?? null,
  errors: result?.errors ?? null,
});

const COST_SUFFIX = /,"extensions":\{"cost":\{[^{}]*\}\}\}$/;

function withoutCost(body: Buffer): Buffer {
  const text = body.toString('utf8');
  if (!COST_SUFFIX.test(text)) throw new Error('dashboard: the gateway answered no extensions.cost');
  return Buffer.from(text.replace(COST_SUFFIX, '}'), 'utf8');
}

export const dashboardStage: Stage = {
  name: 'dashboard',
  title: 'GraphQL dashboard (100 forms, counts, newest 5 submissions each) vs a hand-written node:http + pg handler',
  async run(context) {
    const { settings } = context;
    const profileDir = join(context.scratch, 'gateway-dashboard-profile');
    const gateway = await context.startGateway(context.url, join(context.scratch, 'gateway-dashboard'), {}, PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []);
    let profile: ProfileSummary | null = null;
    let uncached: Child | null = null;
    let reference: Child | null = null;
    let measured: Map<string, LoadResult>;
    let bytes: number;
    try {
      reference = await startReference(context.url, context.secretKey);
      uncached = await context.startGateway(context.url, join(context.scratch, 'gateway-dashboard-uncached'), { GRAPHQL_ANSWER_CACHE_MB: '0' });
      // The gateway's answer ends with its price (extensions.cost, decisions §7.1: the key's budget, which no
      // hand-written handler keeps); the data before it must be the reference's bytes.
      const gatewayBody = withoutCost(await answer(gateway, context.dataset.apiKey));
      const referenceBody = await answer(reference, context.dataset.apiKey);
      if (!gatewayBody.equals(referenceBody)) throw new Error(`dashboard: the reference does not answer the gateway's bytes, ${firstDifference(gatewayBody, referenceBody)}`);
      bytes = gatewayBody.length;
      context.log(`dashboard: both answer the same ${bytes} bytes; measuring interleaved`);
      measured = await measureInterleaved(
        [
          { label: 'gateway', url: base(gateway), requests: requests(context.dataset.apiKey) },
          { label: 'reference', url: base(reference), requests: requests(context.dataset.apiKey) },
          { label: 'uncached', url: base(uncached), requests: requests(context.dataset.apiKey) },
        ],
        { durationS: settings.durationS, warmupS: settings.warmupS, connections: settings.connections, rounds: ROUNDS },
      );
    } finally {
      await gateway.stop();
      await uncached?.stop();
      await reference?.stop();
    }
    const profileFile = PROFILE ? mainThreadProfile(profileDir) : null;
    if (profileFile) {
      profile = summarizeProfile(profileFile, ROOT.replace(/\/$/, ''));
      context.log(`dashboard gateway profile (self time, whole run): ${JSON.stringify(profile)}`);
    }
    const gatewayRun = summary(measured.get('gateway'));
    const referenceRun = summary(measured.get('reference'));
    const uncachedRun = summary(measured.get('uncached'));
    for (const [label, run] of [['gateway', gatewayRun], ['reference', referenceRun], ['gateway, answer cache off', uncachedRun]] as const) {
      context.log(`dashboard ${label}: ${run.reqPerSec} req/s, p50 ${run.p50Ms} ms, p99 ${run.p99Ms} ms${run.non2xx || run.errors ? `, non-2xx ${run.non2xx}, errors ${run.errors}` : ''}`);
    }
    const sql = await countStatements(context);
    context.log(`dashboard SQL statements per request: gateway ${sql.gateway?.toFixed(2) ?? 'n/a'}, reference ${sql.reference?.toFixed(2) ?? 'n/a'}`);
    const throughput = ratio(gatewayRun.reqPerSec, referenceRun.reqPerSec);
    const p99 = ratio(gatewayRun.p99Ms, referenceRun.p99Ms);
    const gatewaySql = round(sql.gateway, 2);
    const referenceSql = round(sql.reference, 2);
    return {
      figures: {
        bodyBytes: bytes,
        sameBytes: true,
        slices: ROUNDS,
        reqPerSecVsReference: throughput,
        p99VsReference: p99,
        uncachedReqPerSecVsReference: ratio(uncachedRun.reqPerSec, referenceRun.reqPerSec),
        uncachedP99VsReference: ratio(uncachedRun.p99Ms, referenceRun.p99Ms),
        runs: [
          { target: 'gateway /graphql', ...gatewayRun, sqlPerRequest: gatewaySql },
          { target: 'hand-written', ...referenceRun, sqlPerRequest: referenceSql },
          { target: 'gateway /graphql, answer cache off', ...uncachedRun },
        ],
        ...(profile ? { gatewayProfile: profile } : {}),
        sqlStatements: Object.entries(sql.texts).flatMap(([target, texts]) => Object.entries(texts).map(([statement, perRequest]) => ({ target, statement, perRequest }))),
      },
      targets: [
        { name: 'dashboard req/s vs hand-written', target: '>= 1.0', value: throughput, holds: holds(throughput, (v) => v >= 1) },
        { name: 'dashboard p99 vs hand-written', target: '<= 1.25', value: p99, holds: holds(p99, (v) => v <= 1.25) },
        // Key, forms page, newest submissions of the page (a PHI form's would add its audit write), as the reference;
        // both counted the same way (a stray statement of the counting window shows in both).
        {
          name: 'SQL statements per dashboard request vs hand-written',
          target: '<= 1',
          value: ratio(gatewaySql, referenceSql),
          holds: holds(ratio(gatewaySql, referenceSql), (v) => v <= 1),
        },
      ],
      notes: [
        `dashboard: gateway, reference and the gateway with its answer cache off measured interleaved (${ROUNDS} slices each) after byte-equal answers (${bytes} bytes); SQL counted in a separate pass of ${COUNT_REQUESTS} requests at 4 connections. Nothing writes during the stage, so the gateway answers from its cache; the cache-off figure (${ratio(uncachedRun.reqPerSec, referenceRun.reqPerSec)} x, p99 ${ratio(uncachedRun.p99Ms, referenceRun.p99Ms)} x) is what running the query costs.`,
      ],
    };
  },
};
