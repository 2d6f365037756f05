import { join } from 'node:path';
import { load, percentile } from '../driver.js';
import { openLoop } from '../open-loop.js';
import { ratio, round } from '../report.js';
import { cpuMs } from './backend-cpu.js';
import { holds, type Stage, type StageContext } from './stage.js';

/**
 * Overload (issue #38, decisions §7.5 load shedding): the forms list at saturation (closed loop, the main stage's
 * connections), then offered at 3 × that rate (open loop, bench/open-loop.ts: a steady rate whatever the answers do, as a
 * closed loop's would not). A gateway that sheds keeps its
 * goodput and its admitted requests' latency, and refuses the rest at once with 503 + Retry-After; one that queues
 * serves fewer and slower. Latencies are split by status from each response.
 */

const PATH = '/v1/forms?limit=100';
const OVERLOAD_FACTOR = 3;
/** The open loop's keep-alive pool, connected before it starts (more are opened when all are busy). */
const WARM_CONNECTIONS = 256;

/** A refusal must say when to come back: a few plain requests while the overload runs. */
async function refusalHeaders(baseUrl: string, apiKey: string, until: number): Promise<{ seen: number; withRetryAfter: number; bodies: Set<string> }> {
  const seen = { seen: 0, withRetryAfter: 0, bodies: new Set<string>() };
  while (performance.now() < until && seen.seen < 20) {
    const response = await fetch(`${baseUrl}${PATH}`, { headers: { authorization: `Bearer ${apiKey}` } }).catch(() => null);
    const text = (await response?.text()) ?? '';
    if (response?.status === 503) {
      seen.seen += 1;
      if (response.headers.get('retry-after') === '1') seen.withRetryAfter += 1;
      seen.bodies.add((JSON.parse(text) as { code?: string }).code ?? text.slice(0, 40));
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return seen;
}

async function run(context: StageContext) {
  const { durationS, warmupS, connections } = context.settings;
  const apiKey = context.dataset.apiKey;
  // OVERLOAD_MAX_CONCURRENT: another MAX_CONCURRENT_REQUESTS for the gateway (to measure a limit); default its own.
  const limit = process.env.OVERLOAD_MAX_CONCURRENT;
  const gateway = await context.startGateway(context.url, join(context.scratch, 'overload-gateway'), limit ? { MAX_CONCURRENT_REQUESTS: limit } : {});
  try {
    const baseUrl = `http://127.0.0.1:${gateway.port}`;
    const requests = [{ method: 'GET' as const, path: PATH, headers: { authorization: `Bearer ${apiKey}` } }];
    if (warmupS > 0) await load({ url: baseUrl, connections, duration: warmupS, requests });
    const cpuAtStart = cpuMs(gateway.pid);
    const saturation = await load({ url: baseUrl, connections, duration: durationS, requests });
    const cpuAtSaturation = cpuMs(gateway.pid);
    context.log(`overload: saturation ${saturation.reqPerSec.toFixed(0)} req/s, p99 ${saturation.p99Ms.toFixed(1)} ms (${connections} connections)`);
    const rate = saturation.reqPerSec * OVERLOAD_FACTOR;
    const [loop, refusals] = await Promise.all([
      openLoop({ url: baseUrl, path: PATH, headers: { authorization: `Bearer ${apiKey}` }, rate, durationS, warmConnections: WARM_CONNECTIONS }),
      refusalHeaders(baseUrl, apiKey, performance.now() + (durationS * 1000) / 2),
    ]);
    const none = new Float64Array(0);
    const over = {
      ok: loop.statuses[200] ?? 0,
      shed: loop.statuses[503] ?? 0,
      other: Object.fromEntries(Object.entries(loop.statuses).filter(([status]) => status !== '200' && status !== '503')),
      okLatencies: loop.latencies.get(200) ?? none,
      shedLatencies: loop.latencies.get(503) ?? none,
      durationS: loop.durationS,
    };
    const cpuAfter = cpuMs(gateway.pid);
    // The gateway's CPU per answered 200: what refusing costs the admitted (other work on the machine moves it less than req/s).
    const perOk = (from: number | null, to: number | null, ok: number): number | null => (from === null || to === null || !ok ? null : (to - from) / ok);
    const cpuPerOkSaturation = perOk(cpuAtStart, cpuAtSaturation, saturation.ok);
    const cpuPerOkOverload = perOk(cpuAtSaturation, cpuAfter, over.ok);
    const goodput = over.ok / over.durationS;
    const admittedP99 = percentile(over.okLatencies, 99);
    const shedP99 = over.shed ? percentile(over.shedLatencies, 99) : null;
    context.log(
      `overload: offered ${rate.toFixed(0)} req/s → ${goodput.toFixed(0)} × 200/s (p99 ${admittedP99.toFixed(1)} ms), ${(over.shed / over.durationS).toFixed(0)} × 503/s (p99 ${shedP99?.toFixed(1) ?? '-'} ms), other ${JSON.stringify(over.other)}; generator lag p99 ${percentile(loop.sendLags, 99).toFixed(1)} ms, ${loop.connections} connections, ${loop.resent} resent after an idle close; gateway CPU per 200 ${cpuPerOkSaturation?.toFixed(3)} ms at saturation, ${cpuPerOkOverload?.toFixed(3)} ms overloaded (refusals included)`,
    );
    const goodputRatio = ratio(goodput, saturation.reqPerSec);
    const latencyRatio = ratio(admittedP99, saturation.p99Ms);
    const otherCount = Object.values(over.other).reduce((n, v) => n + v, 0);
    return {
      figures: {
        saturationReqPerSec: round(saturation.reqPerSec, 1),
        saturationP99Ms: round(saturation.p99Ms, 2),
        offeredReqPerSec: round(rate, 1),
        goodputReqPerSec: round(goodput, 1),
        goodputVsSaturation: goodputRatio,
        admittedP50Ms: round(percentile(over.okLatencies, 50), 2),
        admittedP99Ms: round(admittedP99, 2),
        admittedP99VsSaturation: latencyRatio,
        shedPerSec: round(over.shed / over.durationS, 1),
        shedP50Ms: over.shed ? round(percentile(over.shedLatencies, 50), 2) : null,
        shedP99Ms: round(shedP99, 2),
        otherAnswers: over.other,
        gatewayCpuMsPer200AtSaturation: round(cpuPerOkSaturation, 4),
        gatewayCpuMsPer200Overloaded: round(cpuPerOkOverload, 4),
        generatorLagP99Ms: round(percentile(loop.sendLags, 99), 2),
        generatorConnections: loop.connections,
        generatorResentAfterIdleClose: loop.resent,
        refusalsProbed: refusals.seen,
        refusalsWithRetryAfter: refusals.withRetryAfter,
        refusalCodes: [...refusals.bodies].join(', '),
      },
      targets: [
        { name: 'overload: goodput at 3 × saturation vs saturation', target: '>= 0.9', value: goodputRatio, holds: holds(goodputRatio, (v) => v >= 0.9) },
        { name: 'overload: p99 of admitted vs saturation p99', target: '<= 2', value: latencyRatio, holds: holds(latencyRatio, (v) => v <= 2) },
        { name: 'overload: p99 of a 503, ms', target: '<= 50', value: round(shedP99, 2), holds: holds(shedP99, (v) => v <= 50) },
        {
          name: 'overload: answers neither 200 nor 503 overloaded + Retry-After (probed refusals must be some)',
          target: '0',
          value: refusals.seen ? otherCount + (refusals.seen - refusals.withRetryAfter) + [...refusals.bodies].filter((code) => code !== 'overloaded').length : null,
          holds: refusals.seen ? otherCount === 0 && refusals.withRetryAfter === refusals.seen && [...refusals.bodies].every((code) => code === 'overloaded') : null,
        },
      ],
    };
  } finally {
    await gateway.stop();
  }
}

export const overloadStage: Stage = {
  name: 'overload',
  title: 'Overload: the forms list offered at 3 × saturation (open loop), shed with 503 + Retry-After',
  run,
};
