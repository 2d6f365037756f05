/**
 * Run by `postinstall`. npm compares every dependency's `engines` with the Node that runs npm itself (the
 * EBADENGINE warnings), but this project's npm scripts run on the Node of its `node` devDependency
 * (node_modules/.bin comes first on their PATH). When the two differ, say so once, so that a reader of
 * `npm ci` on an older system Node knows which runtime those warnings were about; when the scripts' own Node
 * is outside `engines` (e.g. `npm ci --omit=dev` on an old system Node), say that too.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

type Version = [number, number, number];

function parse(text: string): Version | null {
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(text.trim());
  if (!match) return null;
  return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)];
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/**
 * The subset of semver ranges that package.json's `engines.node` uses here: `||` of `^X.Y.Z` and `>=X[.Y.Z]`.
 * Anything else answers null ("cannot tell") rather than a guess.
 */
export function satisfiesRange(version: string, range: string): boolean | null {
  const v = parse(version);
  if (!v) return null;
  let answer = false;
  for (const part of range.split('||')) {
    const clause = part.trim();
    const caret = /^\^(.+)$/.exec(clause);
    const atLeast = /^>=\s*(.+)$/.exec(clause);
    const bound = parse((caret ?? atLeast)?.[1] ?? '');
    if (!bound) return null;
    if (caret ? v[0] === bound[0] && compare(v, bound) >= 0 : compare(v, bound) >= 0) answer = true;
  }
  return answer;
}

export function enginesRange(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { engines?: { node?: string } };
  const range = pkg.engines?.node;
  if (!range) throw new Error('package.json declares no engines.node');
  return range;
}

/** npm exports its user agent to scripts: "npm/11.19.1 node/v20.20.2 linux x64 …". */
export function npmNodeVersion(env: NodeJS.ProcessEnv = process.env): string | null {
  return /\bnode\/(v\d+\.\d+\.\d+)/.exec(env.npm_config_user_agent ?? '')?.[1] ?? null;
}

function main(): void {
  const range = enginesRange();
  const npmNode = npmNodeVersion();
  const ok = satisfiesRange(process.version, range);
  if (ok === false) {
    process.stderr.write(
      `widgets-gateway: npm scripts here run on Node ${process.version}, outside engines.node "${range}". ` +
        'Install the dev dependencies (they include the `node` package) or a supported Node.\n',
    );
  } else if (npmNode && npmNode !== process.version) {
    process.stdout.write(
      `widgets-gateway: npm ran on Node ${npmNode} and compared dependencies' engines with it (the EBADENGINE ` +
        `warnings above, if any); this project's npm scripts run on Node ${process.version} from node_modules/.bin ` +
        `(the \`node\` devDependency), which engines.node "${range}" allows.\n`,
    );
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) main();
