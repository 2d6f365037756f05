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
}

export interface HotSpot {
  selfPercent: number;
  fn: string;
}

export interface ProfileSummary {
  functions: HotSpot[];
  packages: HotSpot[];
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

export function summarizeProfile(file: string, root: string, top = 20): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
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
  return { functions: rank(byFunction), packages: rank(byPackage) };
}

export function newestProfile(dir: string): string | null {
  const files = readdirSync(dir).filter((name) => name.endsWith('.cpuprofile')).sort();
  const last = files.at(-1);
  return last ? join(dir, last) : null;
}
