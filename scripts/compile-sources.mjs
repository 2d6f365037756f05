import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync, copyFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The TypeScript sources (src/) transpiled by esbuild into .build/ (the same transform tsx applies, done ahead of
 * time): `npm start` runs the server from there. Loading through tsx's hooks cost ~0.5 s of CPU at every start,
 * more than the whole database open; here only the files that changed since the last compile are transpiled (none:
 * a few ms of stat calls). Plain JavaScript, so that nothing needs compiling before it.
 *
 * .build/ sits at the same depth as src/ and dist/ (paths relative to a module, e.g. prisma/migrations, resolve
 * alike) and mirrors src/: every other file (JSON, .graphql operations) is copied beside the modules. Each file is
 * written under a temporary name and renamed, so two starts compiling at once never load a half-written module.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SOURCES = join(ROOT, 'src');
export const BUILD_DIR = join(ROOT, '.build');

const outputOf = (source) => join(BUILD_DIR, relative(SOURCES, source)).replace(/\.ts$/, '.js');
const mtime = (path) => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
};

function filesUnder(dir) {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));
  } catch {
    return [];
  }
}

function writeAtomically(path, contents) {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, path);
}

/** Brings .build/ up to date with src/; returns how many files it wrote. */
export async function compileSources() {
  const sources = filesUnder(SOURCES).filter((file) => !file.endsWith('.d.ts'));
  const expected = new Set(sources.map(outputOf));
  const stale = sources.filter((file) => mtime(file) > mtime(outputOf(file)));
  // A module whose source is gone must not stay importable.
  for (const file of filesUnder(BUILD_DIR)) if (!expected.has(file) && !file.endsWith('.tmp')) rmSync(file, { force: true });
  const modules = stale.filter((file) => file.endsWith('.ts'));
  for (const file of stale) if (!file.endsWith('.ts')) {
    mkdirSync(dirname(outputOf(file)), { recursive: true });
    const temporary = `${outputOf(file)}.${process.pid}.tmp`;
    copyFileSync(file, temporary);
    renameSync(temporary, outputOf(file));
  }
  if (modules.length) {
    const { build } = await import('esbuild');
    const result = await build({
      entryPoints: modules,
      outbase: SOURCES,
      outdir: BUILD_DIR,
      format: 'esm',
      platform: 'node',
      target: 'node22',
      write: false,
      logLevel: 'error',
    });
    for (const output of result.outputFiles) writeAtomically(output.path, output.contents);
  }
  return stale.length;
}
