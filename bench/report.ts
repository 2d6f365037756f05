import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { renderPng, renderSvg, type Bar, type Panel } from './plot.js';

/** bench/results.json in the issue's format (others read it), the markdown table and the plot. */

export const SCENARIOS = ['forms-list', 'submissions-list', 'order-get', 'ingest', 'graphql-dashboard'] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

export interface ScenarioResult {
  name: ScenarioName;
  reqPerSec: number | null;
  p50Ms: number | null;
  p99Ms: number | null;
  sqlPerRequest: number | null;
  rssMb: number | null;
}

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryMb: number;
  node: string;
  postgres: string;
  platform: string;
  date: string;
  loadAverageAtStart: (number | null)[];
  loadAverageAtEnd: (number | null)[];
}

export interface Target {
  name: string;
  target: string;
  value: number | null;
  holds: boolean | null;
}

export interface Results {
  machine: Machine;
  scenarios: ScenarioResult[];
  references: {
    bare: { reqPerSec: number | null };
    handwritten: { reqPerSec: number | null; p99Ms: number | null; ingestReqPerSec: number | null };
    handwrittenCounters: { reqPerSec: number | null; p99Ms: number | null };
  };
  scaling: { formsList10k: { reqPerSec: number | null }; formsList1m: { reqPerSec: number | null } };
  ratios: {
    /** vs the hand-written handler reading counters (the issue's "counters hand-written handler"). */
    formsListVsHandwritten: number | null;
    formsListP99VsHandwritten: number | null;
    ingestVsHandwritten: number | null;
    formsListVsBare: number | null;
  };
  /** Everything beyond the issue's format: settings, raw runs, targets, checks, method notes, hot spots. */
  details: Record<string, unknown>;
}

export const round = (value: number | null | undefined, digits: number): number | null =>
  value === null || value === undefined || !Number.isFinite(value) ? null : Number(value.toFixed(digits));

export const ratio = (a: number | null, b: number | null): number | null => (a === null || b === null || b === 0 ? null : round(a / b, 3));

const cell = (value: number | null | boolean | string | undefined, suffix = ''): string =>
  value === null || value === undefined ? 'n/a' : typeof value === 'boolean' ? (value ? 'yes' : '**no**') : `${value}${suffix}`;

export function markdown(results: Results): string {
  const m = results.machine;
  const lines: string[] = [];
  lines.push('# Benchmark results', '');
  lines.push(`${m.date} · ${m.cpus} × ${m.cpuModel} · ${Math.round(m.memoryMb / 1024)} GB · Node ${m.node} · ${m.postgres}`, '');
  lines.push(`Load average (1, 5, 15 min) at start ${m.loadAverageAtStart.join(', ')}, at end ${m.loadAverageAtEnd.join(', ')}: with other work on the machine, compare ratios from one run rather than absolute figures across runs.`, '');
  const settings = results.details.settings as Record<string, unknown> | undefined;
  if (settings) lines.push(`Settings: ${Object.entries(settings).map(([k, v]) => `${k} ${String(v)}`).join(', ')}.`, '');
  lines.push('## Gateway scenarios', '');
  lines.push('| scenario | req/s | p50 ms | p99 ms | SQL / request | RSS MB |', '|---|---:|---:|---:|---:|---:|');
  for (const s of results.scenarios) lines.push(`| ${s.name} | ${cell(s.reqPerSec)} | ${cell(s.p50Ms)} | ${cell(s.p99Ms)} | ${cell(s.sqlPerRequest)} | ${cell(s.rssMb)} |`);
  lines.push('', '## References (same run, same JSON bytes for the forms list)', '');
  const refs = results.details.references as Record<string, { reqPerSec: number | null; p50Ms: number | null; p99Ms: number | null; sqlPerRequest: number | null }> | undefined;
  lines.push('| reference | req/s | p50 ms | p99 ms | SQL / request |', '|---|---:|---:|---:|---:|');
  for (const [name, r] of Object.entries(refs ?? {})) lines.push(`| ${name} | ${cell(r.reqPerSec)} | ${cell(r.p50Ms)} | ${cell(r.p99Ms)} | ${cell(r.sqlPerRequest)} |`);
  lines.push('', '## Scaling: forms list as submissions grow', '');
  const sizes = results.details.scalingSizes as Record<string, number> | undefined;
  lines.push('| submissions | req/s |', '|---:|---:|');
  lines.push(`| ${sizes?.formsList10k ?? '10k'} | ${cell(results.scaling.formsList10k.reqPerSec)} |`);
  lines.push(`| ${sizes?.formsList1m ?? '1M'} | ${cell(results.scaling.formsList1m.reqPerSec)} |`);
  const stages = (results.details.stages ?? {}) as Record<string, { title: string; figures: Record<string, unknown> }>;
  for (const [name, stage] of Object.entries(stages)) {
    lines.push('', `## Stage ${name}: ${stage.title}`, '');
    const scalars = Object.entries(stage.figures).filter(([, v]) => !Array.isArray(v));
    if (scalars.length) {
      lines.push('| figure | value |', '|---|---:|');
      for (const [key, value] of scalars) lines.push(`| ${key} | ${typeof value === 'object' && value !== null ? JSON.stringify(value) : cell(value as number | string | boolean | null)} |`);
    }
    for (const [key, rows] of Object.entries(stage.figures).filter(([, v]) => Array.isArray(v)) as [string, Record<string, unknown>[]][]) {
      const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
      lines.push('', `${key}:`, '', `| ${columns.join(' | ')} |`, `|${columns.map(() => '---').join('|')}|`);
      for (const row of rows) lines.push(`| ${columns.map((c) => cell(row[c] as number | string | boolean | null)).join(' | ')} |`);
    }
  }
  lines.push('', '## Targets', '');
  lines.push('| target | wanted | measured | holds |', '|---|---|---:|---|');
  for (const t of (results.details.targets as Target[] | undefined) ?? []) lines.push(`| ${t.name} | ${t.target} | ${cell(t.value)} | ${cell(t.holds)} |`);
  const notes = results.details.notes as string[] | undefined;
  if (notes?.length) {
    lines.push('', '## Notes', '');
    for (const note of notes) lines.push(`- ${note}`);
  }
  const hot = results.details.profile as Record<string, { selfPercent: number; fn: string }[]> | undefined;
  const packages = (results.details.profilePackages ?? {}) as Record<string, { selfPercent: number; fn: string }[]>;
  const idle = (results.details.profileIdlePercent ?? {}) as Record<string, number | null>;
  if (hot && Object.keys(hot).length) {
    lines.push('', '## Hot spots (`--cpu-prof` of the gateway under load, self time, start-up and warm-up left out)', '');
    for (const [scenario, entries] of Object.entries(hot)) {
      lines.push(`### ${scenario} (main thread idle ${cell(idle[scenario])} %)`, '');
      lines.push(`By package: ${(packages[scenario] ?? []).slice(0, 8).map((e) => `${e.fn} ${e.selfPercent} %`).join(', ')}.`, '');
      lines.push('| self % | function |', '|---:|---|');
      for (const e of entries.slice(0, 12)) lines.push(`| ${e.selfPercent} | \`${e.fn}\` |`);
      lines.push('');
    }
  }
  return `${lines.join('\n')}\n`;
}

export function panels(results: Results): Panel[] {
  const refs = (results.details.references ?? {}) as Record<string, { reqPerSec: number | null; p99Ms: number | null }>;
  const scalingP99 = (results.details.scalingP99 ?? {}) as Record<string, number | null>;
  const sizes = (results.details.scalingSizes ?? {}) as Record<string, number>;
  const byName = new Map(results.scenarios.map((s) => [s.name, s]));
  const rows: { label: string; kind: Bar['kind']; rps: number | null; p99: number | null }[] = [];
  const gw = (name: ScenarioName, label = name): void => {
    const s = byName.get(name);
    rows.push({ label, kind: 'gateway', rps: s?.reqPerSec ?? null, p99: s?.p99Ms ?? null });
  };
  const ref = (key: string, label: string): void => {
    const r = refs[key];
    rows.push({ label, kind: 'reference', rps: r?.reqPerSec ?? null, p99: r?.p99Ms ?? null });
  };
  const n = (value: number | undefined): string => (value === undefined ? '?' : value >= 1e6 ? `${value / 1e6}M` : value >= 1e3 ? `${value / 1e3}k` : String(value));
  gw('forms-list');
  ref('bare', 'forms-list: bare node:http');
  ref('handwrittenCounters', 'forms-list: hand, counters');
  ref('handwritten', 'forms-list: hand, count(*)');
  rows.push({ label: `forms-list @ N=${n(sizes.formsList10k)}`, kind: 'scaling', rps: results.scaling.formsList10k.reqPerSec, p99: scalingP99.formsList10k ?? null });
  rows.push({ label: `forms-list @ N=${n(sizes.formsList1m)}`, kind: 'scaling', rps: results.scaling.formsList1m.reqPerSec, p99: scalingP99.formsList1m ?? null });
  gw('submissions-list');
  gw('order-get');
  gw('graphql-dashboard');
  gw('ingest');
  ref('handwrittenIngest', 'ingest: hand, tx + outbox');
  return [
    { title: 'Requests per second at 32 connections (higher is better)', unit: 'req/s', bars: rows.map((r) => ({ label: r.label, value: r.rps, kind: r.kind })) },
    { title: 'p99 latency in ms (lower is better)', unit: 'ms', bars: rows.map((r) => ({ label: r.label, value: r.p99, kind: r.kind })) },
  ];
}

export function writeReport(results: Results, paths: { json: string; md: string; png: string; svg: string }): void {
  mkdirSync(dirname(paths.json), { recursive: true });
  writeFileSync(paths.json, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(paths.md, markdown(results));
  const m = results.machine;
  const title = 'widgets-gateway: npm run bench';
  const subtitle = `${m.date.slice(0, 10)}  ${m.cpus} cpus  Node ${m.node}  PostgreSQL ${m.postgres.split(' ')[1] ?? ''}  loopback, 32 connections`;
  writeFileSync(paths.png, renderPng(title, subtitle, panels(results)));
  writeFileSync(paths.svg, renderSvg(title, subtitle, panels(results)));
}
