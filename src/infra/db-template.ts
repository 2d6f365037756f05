import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * An empty embedded database (PGlite's initdb output), made once per install by the postinstall script and
 * copied into a new data directory at its first start. initdb inside WebAssembly was most of a first start: ~2.5 s
 * of CPU, and PGlite runs it in a second instance plus a copy of that instance's 128 MB heap, beside the server's
 * own (first-start peak RSS ~750 MB, and glibc kept much of it). Copying the files takes ~50 ms. The template is
 * keyed by PGlite's version (another version makes its own) and lives in node_modules/.cache, which every install
 * starts afresh. Without it (an install with --ignore-scripts or --omit=dev), PGlite runs initdb itself as before.
 */

const require = createRequire(import.meta.url);

function pglitePackage(): { dir: string; version: string } {
  // The package exports no package.json: found from its main file (node_modules/@electric-sql/pglite/dist/index.cjs).
  const dir = dirname(dirname(require.resolve('@electric-sql/pglite')));
  return { dir, version: (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version };
}

export function pgliteTemplateDir(): string {
  const pglite = pglitePackage();
  return join(pglite.dir, '..', '..', '.cache', 'widgets-gateway', `pglite-${pglite.version}`);
}

const isCluster = (dir: string): boolean => existsSync(join(dir, 'PG_VERSION'));

/** Makes the template unless it exists (a temporary directory renamed when complete: never half a cluster). */
export async function createPgliteTemplate(): Promise<string> {
  const dir = pgliteTemplateDir();
  if (isCluster(dir)) return dir;
  const temporary = `${dir}.${process.pid}.tmp`;
  rmSync(temporary, { recursive: true, force: true });
  mkdirSync(temporary, { recursive: true });
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(temporary);
  await db.close();
  rmSync(dir, { recursive: true, force: true });
  try {
    renameSync(temporary, dir);
  } catch (error) {
    // Another install made it meanwhile.
    rmSync(temporary, { recursive: true, force: true });
    if (!isCluster(dir)) throw error;
  }
  return dir;
}

/**
 * A new (absent or empty) PGlite data directory starts as a copy of the template, when there is one; returns
 * whether it did. Called under the data directory's lock; copied beside it and renamed, so that a start killed
 * mid-copy leaves no partial cluster behind.
 */
export function copyPgliteTemplate(pgdata: string): boolean {
  if (existsSync(pgdata) && readdirSync(pgdata).length > 0) return false;
  const template = pgliteTemplateDir();
  if (!isCluster(template)) return false;
  const temporary = `${pgdata}.tmp`;
  rmSync(temporary, { recursive: true, force: true });
  cpSync(template, temporary, { recursive: true });
  rmSync(pgdata, { recursive: true, force: true });
  renameSync(temporary, pgdata);
  return true;
}
