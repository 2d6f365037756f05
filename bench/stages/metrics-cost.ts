import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load, measureInterleaved, type Child } from '../driver.js';
import { inclusiveShare, mainThreadProfile } from '../profile.js';
import { cpuMs } from './backend-cpu.js';
import { ratio, round } from '../report.js';
import { holds, type Stage } from './stage.js';

/**
 * What metrics cost the forms list (issue #38, decisions §7.5), two ways.
 *
 * 1. Inside one process (judged): a gateway serving /metrics (METRICS_TOKEN set, so every request is counted and
 *    timed; scraped every 5 s, as Prometheus would, more often than the usual 15 s) runs the forms list under
 *    --cpu-prof; the cost is the share of its busy samples spent in the metrics code and what it calls (the
 *    recording per request, the abort watch it adds, the scrapes). Nothing outside that process moves it.
 * 2. Between processes (reported beside it): gateways with metrics against gateways without, interleaved in slices
 *    at the same connections, by their own CPU per answered request (user + system, from /proc). Two gateways of each
 *    kind, started on, off, off, on: two processes of one build differ by a few per cent in CPU per request by
 *    themselves (with metrics off in all four: 2.5 %; with one pair, 5.3 % and, listed the other way round, 3.6 %, the
 *    first started the dearer each time), as much as the cost measured, so this comparison cannot judge 3 %.
 */

const ROUNDS = 4;
const PATH = '/v1/forms?limit=100';
const TOKEN = 'bench-metrics-token';
const SCRAPE_EVERY_MS = 5_000;
const ORDER = ['on', 'off', 'off', 'on'] as const;
const ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');

/** The code that exists for metrics: the per-request recording and abort watch, the series, prom-client. */
const isMetricsCode = ({ url, functionName }: { url: string; functionName: string }): boolean =>
  url.endsWith('/dist/request-metrics.js') || url.endsWith('/dist/infra/metrics.js') || url.includes('/node_modules/prom-client/') || (functionName === 'watchAnswer' && url.endsWith('/dist/app.js'));

export const metricsCostStage: Stage = {
  name: 'metrics',
  title: 'The cost of metrics on the forms list: its share of a gateway\'s CPU profile, and gateways with metrics against gateways without',
  async run(context) {
    const apiKey = context.dataset.apiKey;
    const requests = [{ method: 'GET' as const, path: PATH, headers: { authorization: `Bearer ${apiKey}` } }];
    const { connections, durationS, warmupS } = context.settings;
    const base = (child: Child): string => `http://127.0.0.1:${child.port}`;
    const scrape = async (child: Child): Promise<boolean> => {
      const response = await fetch(`${base(child)}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      await response.text();
      return response.status === 200;
    };

    // 1. Inside one process.
    const profileDir = join(ROOT, 'bench', 'profiles', 'metrics');
    rmSync(profileDir, { recursive: true, force: true });
    // The profile's clock starts with the process: the warm-up and start-up are left out of it by time.
    const spawnedMs = performance.now();
    const profiled = await context.startGateway(context.url, join(context.scratch, 'gateway-metrics-profiled'), { METRICS_TOKEN: TOKEN }, ['--cpu-prof', `--cpu-prof-dir=${profileDir}`]);
    let profiledScrapes = 0;
    let share: { share: number; busySamples: number } | null = null;
    const profiledScraper = setInterval(() => void scrape(profiled).then((ok) => (profiledScrapes += ok ? 1 : 0), () => undefined), SCRAPE_EVERY_MS);
    try {
      await load({ url: base(profiled), connections, duration: Math.max(1, warmupS), requests });
      const skipMs = performance.now() - spawnedMs;
      await load({ url: base(profiled), connections, duration: durationS, requests });
      clearInterval(profiledScraper);
      await profiled.stop();
      const file = mainThreadProfile(profileDir);
      share = file ? inclusiveShare(file, isMetricsCode, skipMs) : null;
    } finally {
      clearInterval(profiledScraper);
      await profiled.stop();
    }

    // 2. Between processes.
    const gateways: { mode: 'on' | 'off'; label: string; child: Child }[] = [];
    let scrapes = 0;
    let scraper: NodeJS.Timeout | undefined;
    try {
      for (const [i, mode] of ORDER.entries()) {
        const child = await context.startGateway(context.url, join(context.scratch, `gateway-metrics-${i}`), { METRICS_TOKEN: mode === 'on' ? TOKEN : '' });
        gateways.push({ mode, label: `${mode}${i}`, child });
      }
      scraper = setInterval(() => {
        for (const { child } of gateways.filter((gateway) => gateway.mode === 'on')) void scrape(child).then((ok) => (scrapes += ok ? 1 : 0), () => undefined);
      }, SCRAPE_EVERY_MS);
      for (const { label, child } of gateways.filter((gateway) => gateway.mode === 'off')) {
        const off = await fetch(`${base(child)}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
        await off.text();
        if (off.status !== 404) throw new Error(`metrics: the gateway without METRICS_TOKEN (${label}) answered /metrics ${off.status}`);
      }
      for (const { child } of gateways) await load({ url: base(child), connections, duration: Math.max(1, warmupS), requests });
      const cpuBefore = gateways.map(({ child }) => cpuMs(child.pid));
      const measured = await measureInterleaved(
        gateways.map(({ label, child }) => ({ label, url: base(child), requests })),
        { durationS, warmupS: 0, connections, rounds: ROUNDS },
      );
      const cpuAfter = gateways.map(({ child }) => cpuMs(child.pid));
      const perGateway = gateways.map(({ mode, label }, i) => {
        const result = measured.get(label)!;
        const spent = cpuBefore[i] == null || cpuAfter[i] == null ? null : cpuAfter[i]! - cpuBefore[i]!;
        return { gateway: label, mode, reqPerSec: result.reqPerSec, p99Ms: result.p99Ms, answered: result.ok, cpuMs: spent };
      });
      /** Pooled over the gateways of a kind: their CPU over their answered requests; req/s and p99 on average. */
      const pooled = (mode: 'on' | 'off'): { cpuMs: number | null; reqPerSec: number; p99Ms: number } => {
        const mine = perGateway.filter((gateway) => gateway.mode === mode);
        const answered = mine.reduce((sum, gateway) => sum + gateway.answered, 0);
        const cpu = mine.some((gateway) => gateway.cpuMs === null) ? null : mine.reduce((sum, gateway) => sum + gateway.cpuMs!, 0);
        const mean = (pick: (gateway: (typeof mine)[number]) => number): number => mine.reduce((sum, gateway) => sum + pick(gateway), 0) / mine.length;
        return { cpuMs: cpu === null || !answered ? null : cpu / answered, reqPerSec: mean((gateway) => gateway.reqPerSec), p99Ms: mean((gateway) => gateway.p99Ms) };
      };
      const on = pooled('on');
      const off = pooled('off');
      const between = on.cpuMs === null || off.cpuMs === null ? null : ratio(on.cpuMs - off.cpuMs, off.cpuMs);
      const inside = share ? round(share.share, 4) : null;
      context.log(
        `metrics: inside one process ${inside === null ? '-' : (inside * 100).toFixed(2)} % of busy samples in metrics code (${share?.busySamples ?? 0} samples, ${profiledScrapes} scrapes); between processes: with metrics ${on.reqPerSec.toFixed(0)} req/s and ${on.cpuMs?.toFixed(3)} ms CPU each, without ${off.reqPerSec.toFixed(0)} req/s and ${off.cpuMs?.toFixed(3)} ms (${between === null ? '-' : (between * 100).toFixed(1)} %), ${scrapes} scrapes; per gateway ${JSON.stringify(perGateway.map(({ gateway, cpuMs, answered }) => [gateway, cpuMs === null || !answered ? null : round(cpuMs / answered, 4)]))}`,
      );
      return {
        figures: {
          metricsShareOfBusyCpu: inside,
          profiledBusySamples: share?.busySamples ?? null,
          profiledScrapes,
          withMetricsReqPerSec: round(on.reqPerSec, 1),
          withoutMetricsReqPerSec: round(off.reqPerSec, 1),
          withMetricsCpuMsPerRequest: round(on.cpuMs, 4),
          withoutMetricsCpuMsPerRequest: round(off.cpuMs, 4),
          withMetricsP99Ms: round(on.p99Ms, 2),
          withoutMetricsP99Ms: round(off.p99Ms, 2),
          costBetweenProcesses: between,
          scrapes,
          perGateway: perGateway.map(({ gateway, reqPerSec, answered, cpuMs }) => ({ gateway, reqPerSec: round(reqPerSec, 1), cpuMsPerRequest: cpuMs === null || !answered ? null : round(cpuMs / answered, 4) })),
        },
        targets: [{ name: 'metrics: share of a gateway\'s busy CPU in metrics code, forms list with scrapes every 5 s', target: '<= 0.03', value: inside, holds: holds(inside, (v) => v <= 0.03) }],
        notes: [
          `metrics: the share is of one gateway's --cpu-prof samples while it served the forms list for ${durationS} s after a warm-up, neither idle nor GC, spent in request-metrics.js, infra/metrics.js, prom-client or the abort watch and what they call; the garbage their objects make is not in it.`,
          `metrics: between processes, two gateways with metrics and two without, started ${ORDER.join(', ')}, ${ROUNDS} interleaved slices each (those with metrics scraped every ${SCRAPE_EVERY_MS / 1000} s); CPU per request pooled per kind. Not judged: with metrics off in all four, this comparison itself read 2.5 %.`,
        ],
      };
    } finally {
      clearInterval(scraper);
      for (const { child } of gateways) await child.stop();
    }
  },
};
