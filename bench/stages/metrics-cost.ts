import { join } from 'node:path';
import { load, measureInterleaved } from '../driver.js';
import { cpuMs } from './backend-cpu.js';
import { ratio, round } from '../report.js';
import { holds, type Stage } from './stage.js';

/**
 * What metrics cost the forms list (issue #38, decisions §7.5): two gateways on one database, one serving /metrics
 * (METRICS_TOKEN set, so every request is counted and timed; scraped every 5 s during its slices, as Prometheus
 * would, more often than the usual 15 s) and one without, interleaved in slices at the same connections. Judged by
 * each gateway's own CPU per answered request (user + system, from /proc), which other work on the machine moves
 * far less than req/s; req/s are reported beside it.
 */

const ROUNDS = 4;
const PATH = '/v1/forms?limit=100';
const TOKEN = 'bench-metrics-token';
const SCRAPE_EVERY_MS = 5_000;

export const metricsCostStage: Stage = {
  name: 'metrics',
  title: 'The cost of metrics on the forms list: a gateway serving /metrics against one without, interleaved',
  async run(context) {
    const apiKey = context.dataset.apiKey;
    const withMetrics = await context.startGateway(context.url, join(context.scratch, 'gateway-metrics-on'), { METRICS_TOKEN: TOKEN });
    const without = await context.startGateway(context.url, join(context.scratch, 'gateway-metrics-off'), { METRICS_TOKEN: '' });
    let scrapes = 0;
    const scraper = setInterval(() => {
      void fetch(`http://127.0.0.1:${withMetrics.port}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
        .then(async (response) => {
          await response.text();
          if (response.status === 200) scrapes += 1;
        })
        .catch(() => undefined);
    }, SCRAPE_EVERY_MS);
    try {
      const off = await fetch(`http://127.0.0.1:${without.port}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      await off.text();
      if (off.status !== 404) throw new Error(`metrics: the gateway without METRICS_TOKEN answered /metrics ${off.status}`);
      const requests = [{ method: 'GET' as const, path: PATH, headers: { authorization: `Bearer ${apiKey}` } }];
      const { connections, durationS, warmupS } = context.settings;
      for (const gateway of [withMetrics, without]) await load({ url: `http://127.0.0.1:${gateway.port}`, connections, duration: Math.max(1, warmupS), requests });
      const cpuBefore = [cpuMs(withMetrics.pid), cpuMs(without.pid)];
      const measured = await measureInterleaved(
        [
          { label: 'on', url: `http://127.0.0.1:${withMetrics.port}`, requests },
          { label: 'off', url: `http://127.0.0.1:${without.port}`, requests },
        ],
        { durationS, warmupS: 0, connections, rounds: ROUNDS },
      );
      const on = measured.get('on')!;
      const offRun = measured.get('off')!;
      const cpuPerRequest = (index: number, pid: number, answered: number): number | null => {
        const [before, after] = [cpuBefore[index], cpuMs(pid)];
        return before == null || after == null || !answered ? null : (after - before) / answered;
      };
      const onCpu = cpuPerRequest(0, withMetrics.pid, on.ok);
      const offCpu = cpuPerRequest(1, without.pid, offRun.ok);
      const cost = onCpu === null || offCpu === null ? null : ratio(onCpu - offCpu, offCpu);
      context.log(
        `metrics: forms list with metrics ${on.reqPerSec.toFixed(0)} req/s and ${onCpu?.toFixed(3)} ms CPU each, without ${offRun.reqPerSec.toFixed(0)} req/s and ${offCpu?.toFixed(3)} ms (cost ${cost === null ? '-' : (cost * 100).toFixed(1)} %), ${scrapes} scrapes`,
      );
      return {
        figures: {
          withMetricsReqPerSec: round(on.reqPerSec, 1),
          withoutMetricsReqPerSec: round(offRun.reqPerSec, 1),
          withMetricsCpuMsPerRequest: round(onCpu, 4),
          withoutMetricsCpuMsPerRequest: round(offCpu, 4),
          withMetricsP99Ms: round(on.p99Ms, 2),
          withoutMetricsP99Ms: round(offRun.p99Ms, 2),
          costOfMetrics: cost,
          scrapes,
        },
        targets: [{ name: 'metrics: gateway CPU per forms list request added by metrics (on/off − 1)', target: '<= 0.03', value: cost, holds: holds(cost, (v) => v <= 0.03) }],
        notes: [`metrics: ${ROUNDS} interleaved slices each; the gateway with metrics scraped every ${SCRAPE_EVERY_MS / 1000} s (${scrapes} scrapes).`],
      };
    } finally {
      clearInterval(scraper);
      await withMetrics.stop();
      await without.stop();
    }
  },
};
