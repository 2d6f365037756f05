import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AutocannonRequest } from 'autocannon';
import { load, readRss } from '../driver.js';
import { round } from '../report.js';
import { npmStart, type NpmStart } from './npm-start.js';
import { holds, type Stage } from './stage.js';

/**
 * The light load: PASSES passes of REQUESTS_PER_SCENARIO requests for each of four scenarios (forms list, a form's
 * submissions, ingest, the GraphQL dashboard) at CONNECTIONS connections, on the demo data that the first start
 * creates: 800 requests, what someone trying the service out, or a small site, sends.
 */
const PASSES = 4;
const REQUESTS_PER_SCENARIO = 50;
const CONNECTIONS = 4;
const SAMPLE_MS = 100;

const DASHBOARD = 'query Dashboard { forms(limit: 100) { data { id name submissionCount latestSubmissions(limit: 5) { id createdAt } } } }';

function scenarios(apiKey: string, formIds: number[]): Record<string, AutocannonRequest[]> {
  const auth = { authorization: `Bearer ${apiKey}` };
  let n = 0;
  const nextForm = (): number => formIds[n++ % formIds.length]!;
  return {
    'forms-list': [{ method: 'GET', path: '/v1/forms?limit=100', headers: auth }],
    'submissions-list': [{ method: 'GET', path: '/v1/forms/0/submissions', headers: auth, setupRequest: (req) => ({ ...req, path: `/v1/forms/${nextForm()}/submissions?limit=100` }) }],
    ingest: [
      {
        method: 'POST',
        path: '/v1/forms/0/submissions',
        headers: { ...auth, 'content-type': 'application/json' },
        setupRequest: (req) => {
          const i = n++;
          return {
            ...req,
            path: `/v1/forms/${formIds[i % formIds.length]}/submissions`,
            headers: { ...req.headers, 'idempotency-key': `embedded-memory-${process.hrtime.bigint()}-${i}` },
            body: JSON.stringify({ formData: { Name: `Light ${i}`, Email: `light${i}@bench.example`, Message: 'embedded-memory stage' } }),
          };
        },
      },
    ],
    'graphql-dashboard': [{ method: 'POST', path: '/graphql', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ query: DASHBOARD }) }],
  };
}

interface Measured {
  startRssMb: number | null;
  steadyRssMb: number | null;
  peakRssMb: number | null;
  requests: number;
  failed: number;
  /**
   * The server's CPU time (user + system, all threads) per request over the passes after the first: a check that
   * memory was not bought with speed, and unlike req/s barely moved by other work on the machine.
   */
  cpuMsPerRequest: number | null;
}

/** utime + stime of a process from /proc/<pid>/stat (fields 14 and 15, in clock ticks of 10 ms). */
function cpuMs(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

const median = (values: number[]): number | null => (values.length ? [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]! : null);

/** The light load on a running `npm start`; peak is the server process's VmHWM (start-up included). */
async function underLightLoad(server: NpmStart, apiKey: string): Promise<Measured> {
  const forms = await fetch(`${server.baseUrl}/v1/forms?limit=100`, { headers: { authorization: `Bearer ${apiKey}` } });
  if (forms.status !== 200) throw new Error(`embedded-memory: GET /v1/forms answered ${forms.status}: ${await forms.text()}`);
  const formIds = ((await forms.json()) as { data: { id: number }[] }).data.map((form) => form.id);
  const startRssMb = readRss(server.serverPid)?.rssMb ?? null;
  const plan = scenarios(apiKey, formIds);
  const steadySamples: number[] = [];
  let requests = 0;
  let failed = 0;
  let steadyRequests = 0;
  let cpuAtPass1: number | null = null;
  for (let pass = 0; pass < PASSES; pass++) {
    // The first pass compiles and caches what the routes need; "steady" is the RSS over the passes after it.
    if (pass === 1) cpuAtPass1 = cpuMs(server.serverPid);
    const timer = pass === 0 ? null : setInterval(() => {
      const rss = readRss(server.serverPid)?.rssMb;
      if (rss !== undefined) steadySamples.push(rss);
    }, SAMPLE_MS);
    for (const requestsOfScenario of Object.values(plan)) {
      const result = await load({ url: server.baseUrl, connections: CONNECTIONS, duration: 0, amount: REQUESTS_PER_SCENARIO, requests: requestsOfScenario });
      requests += result.ok + result.non2xx + result.errors;
      failed += result.non2xx + result.errors + result.timeouts;
      if (pass > 0) steadyRequests += result.ok;
    }
    if (timer) clearInterval(timer);
  }
  const cpuAfter = cpuMs(server.serverPid);
  const cpuMsPerRequest = cpuAtPass1 !== null && cpuAfter !== null && steadyRequests ? (cpuAfter - cpuAtPass1) / steadyRequests : null;
  return { startRssMb, steadyRssMb: median(steadySamples), peakRssMb: readRss(server.serverPid)?.hwmMb ?? null, requests, failed, cpuMsPerRequest };
}

export const embeddedMemoryStage: Stage = {
  name: 'embedded-memory',
  title: `npm start on the embedded database: RSS of the server process under a light load (${PASSES} × 4 scenarios × ${REQUESTS_PER_SCENARIO} requests, ${CONNECTIONS} connections, demo data)`,
  async run(context) {
    const dataDir = mkdtempSync(join(context.scratch, 'embedded-memory-'));
    try {
      const first = await npmStart(dataDir);
      const apiKey = /demo API key \(all scopes\): (svc_live_\S+)/.exec(first.output())?.[1];
      if (!apiKey) throw new Error(`embedded-memory: the first start printed no demo key:\n${first.output()}`);
      let firstRun: Measured;
      try {
        firstRun = await underLightLoad(first, apiKey);
      } finally {
        await first.stop();
      }
      const again = await npmStart(dataDir);
      let restartRun: Measured;
      try {
        restartRun = await underLightLoad(again, apiKey);
      } finally {
        await again.stop();
      }
      const runs = { firstStart: firstRun, restart: restartRun };
      context.log(`embedded-memory: ${JSON.stringify(runs)}`);
      const peak = round(Math.max(firstRun.peakRssMb ?? NaN, restartRun.peakRssMb ?? NaN), 1);
      const steady = round(Math.max(firstRun.steadyRssMb ?? NaN, restartRun.steadyRssMb ?? NaN), 1);
      const failed = firstRun.failed + restartRun.failed;
      return {
        figures: {
          peakRssMb: peak,
          steadyRssMb: steady,
          ...Object.fromEntries(
            Object.entries(runs).flatMap(([name, run]) => [
              [`${name}RssAfterStartMb`, round(run.startRssMb, 1)],
              [`${name}SteadyRssMb`, round(run.steadyRssMb, 1)],
              [`${name}PeakRssMb`, round(run.peakRssMb, 1)],
              [`${name}Requests`, run.requests],
              [`${name}CpuMsPerRequest`, round(run.cpuMsPerRequest, 2)],
            ]),
          ),
          failedRequests: failed,
        },
        targets: [
          { name: 'npm start (embedded) peak RSS, MB, start-up and light load', target: '<= 400', value: peak, holds: holds(peak, (v) => v <= 400) },
          { name: 'npm start (embedded) steady RSS under light load, MB', target: '<= 300', value: steady, holds: holds(steady, (v) => v <= 300) },
          { name: 'npm start (embedded) light load: failed requests', target: '0', value: failed, holds: failed === 0 },
        ],
        notes: [
          'embedded-memory: RSS of the process running src/main.ts (not npm or the tsx CLI above it), from /proc; peak is its VmHWM (start-up included), steady the median of 100 ms samples over passes 2-4. First start on an empty data directory (demo data), then a restart on it.',
        ],
      };
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};
