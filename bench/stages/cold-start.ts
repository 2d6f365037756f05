import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { round } from '../report.js';
import { npmStart } from './npm-start.js';
import { holds, type Stage } from './stage.js';

const RUNS = 5;

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/**
 * `npm start` as the README runs it (tsx, embedded PGlite, default settings), timed from spawning npm to the first
 * `/readyz` 200: a first start on an empty data directory (initialises the database, migrates, creates the demo)
 * and a restart on the same directory, RUNS times each, each pair on a fresh directory.
 */
export const coldStartStage: Stage = {
  name: 'cold-start',
  title: `npm start to /readyz 200 on the embedded database: first start on an empty data directory and restart (median of ${RUNS})`,
  async run(context) {
    const first: number[] = [];
    const restart: number[] = [];
    const firstCpu: number[] = [];
    const restartCpu: number[] = [];
    const loadAverages: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const dataDir = mkdtempSync(join(context.scratch, 'cold-start-'));
      try {
        loadAverages.push(os.loadavg()[0]!);
        const fresh = await npmStart(dataDir);
        first.push(fresh.readyMs);
        firstCpu.push(fresh.cpuMs);
        if (!fresh.output().includes('demo API key')) throw new Error(`cold-start: the first start printed no demo key:\n${fresh.output()}`);
        await fresh.stop();
        const again = await npmStart(dataDir);
        restart.push(again.readyMs);
        restartCpu.push(again.cpuMs);
        await again.stop();
        context.log(`cold-start run ${run + 1}: first ${(fresh.readyMs / 1000).toFixed(2)} s (CPU ${(fresh.cpuMs / 1000).toFixed(2)} s), restart ${(again.readyMs / 1000).toFixed(2)} s (CPU ${(again.cpuMs / 1000).toFixed(2)} s)`);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
    const firstS = round(median(first) / 1000, 2);
    const restartS = round(median(restart) / 1000, 2);
    return {
      figures: {
        firstStartMedianS: firstS,
        restartMedianS: restartS,
        firstStartCpuMedianS: round(median(firstCpu) / 1000, 2),
        restartCpuMedianS: round(median(restartCpu) / 1000, 2),
        firstStartRunsS: first.map((ms) => round(ms / 1000, 2)),
        restartRunsS: restart.map((ms) => round(ms / 1000, 2)),
        loadAverage1mAtEachRun: loadAverages.map((value) => round(value, 2)),
      },
      targets: [
        { name: 'npm start, first start on an empty embedded database, to /readyz (s, median)', target: '<= 3', value: firstS, holds: holds(firstS, (v) => v <= 3) },
        { name: 'npm start, restart on the embedded database, to /readyz (s, median)', target: '<= 1.5', value: restartS, holds: holds(restartS, (v) => v <= 1.5) },
      ],
      notes: [`cold-start: the machine's 1-minute load average was ${loadAverages.map((v) => v.toFixed(1)).join(', ')} at the ${RUNS} runs (${os.cpus().length} CPUs); start-up is CPU-bound, so a busy machine lengthens it: the CPU figures (npm and every process under it, until /readyz answered) do not depend on the load.`],
    };
  },
};
