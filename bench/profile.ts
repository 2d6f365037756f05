import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Summaries of a V8 `.cpuprofile` (`node --cpu-prof`): self time per function and per package. */

interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface CpuProfile {
  nodes: CpuProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

export interface HotSpot {
  selfPercent: number;
  fn: string;
}

export interface ProfileSummary {
  functions: HotSpot[];
  packages: HotSpot[];
  /** Share of samples with the main thread idle: near 0 means the process is CPU-bound. */
  idlePercent: number;
}

/** `node_modules/@scope/name/...` → `@scope/name`; project files keep their path from the repository root. */
function where(url: string, root: string): string {
  if (!url) return '(native)';
  const path = url.replace(/^file:\/\//, '');
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (inModules) return inModules[1]!;
  if (path.startsWith('node:')) return 'node:internal';
  return path.startsWith(root) ? path.slice(root.length + 1) : path;
}

/** Samples per node, leaving out the first `skipMs` of the profile (start-up, module loading, warm-up). */
function hitsAfter(profile: CpuProfile, skipMs: number): Map<number, number> {
  const hits = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  let elapsedUs = 0;
  for (let i = 0; i < samples.length; i++) {
    elapsedUs += deltas[i] ?? 0;
    if (elapsedUs < skipMs * 1000) continue;
    hits.set(samples[i]!, (hits.get(samples[i]!) ?? 0) + 1);
  }
  return hits;
}

export function summarizeProfile(file: string, root: string, skipMs = 0, top = 20): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const sampled = profile.samples ? hitsAfter(profile, skipMs) : null;
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (const node of profile.nodes) {
    const hits = sampled ? (sampled.get(node.id) ?? 0) : (node.hitCount ?? 0);
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') idle += hits;
    if (!hits || functionName === '(idle)') continue;
    total += hits;
    const place = where(url, root);
    const fn = `${functionName || '(anonymous)'} ${place}${url && !place.startsWith('(') ? `:${lineNumber + 1}` : ''}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + hits);
    const pkg = url ? (place.includes('/') && !place.startsWith('@') ? place.split('/').slice(0, 2).join('/') : place) : functionName;
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + hits);
  }
  const rank = (map: Map<string, number>): HotSpot[] =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([fn, hits]) => ({ selfPercent: Number(((100 * hits) / Math.max(1, total)).toFixed(1)), fn }));
  return { functions: rank(byFunction), packages: rank(byPackage), idlePercent: Number(((100 * idle) / Math.max(1, idle + total)).toFixed(1)) };
}

/** The main thread's profile (thread id 0 in the file name; tsx's loader thread writes its own). */
export function mainThreadProfile(dir: string): string | null {
  const files = readdirSync(dir).filter((name) => /\.\d+\.0\.\d+\.cpuprofile$/.test(name)).sort();
  const last = files.at(-1);
  return last ? join(dir, last) : null;
}

/**
 * The share of a profile's busy samples (neither idle nor the garbage collector) spent in `matches` or in what it
 * calls: a cost measured inside one process, which no other process's noise moves. Leaves out the first `skipMs`.
 */
export function inclusiveShare(file: string, matches: (frame: CpuProfileNode['callFrame']) => boolean, skipMs = 0): { share: number; busySamples: number } {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile & { nodes: (CpuProfileNode & { children?: number[] })[] };
  const hits = profile.samples ? hitsAfter(profile, skipMs) : new Map(profile.nodes.map((node) => [node.id, node.hitCount ?? 0]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const inside = new Map<number, boolean>();
  const isInside = (id: number): boolean => {
    const known = inside.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id);
    const up = parent.get(id);
    const answer = node !== undefined && (matches(node.callFrame) || (up !== undefined && isInside(up)));
    inside.set(id, answer);
    return answer;
  };
  let busy = 0;
  let matched = 0;
  for (const [id, count] of hits) {
    const name = byId.get(id)?.callFrame.functionName;
    if (!count || name === '(idle)' || name === '(garbage collector)') continue;
    busy += count;
    if (isInside(id)) matched += count;
  }
  return { share: busy ? matched / busy : 0, busySamples: busy };
}
