/**
 * Creates a migration from a change to prisma/schema.prisma without Prisma's native engine (it cannot be
 * downloaded here): the WASM schema engine diffs a fresh in-memory database, migrated with the existing
 * folders, against the schema. `--check` fails when that diff is not empty (schema changed, migration missing).
 *   npm run db:new-migration -- add_widget_notes
 *   npm run db:check
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { openDatabase } from '../src/infra/db.js';
import { MIGRATIONS_DIR, migrate } from '../src/infra/migrations.js';

const require = createRequire(import.meta.url);
const SCHEMA_PATH = 'prisma/schema.prisma';

async function loadSchemaEngine() {
  // The package's entry imports the .wasm as an ES module (needs a Node flag); load its parts by hand.
  const dir = dirname(require.resolve('@prisma/schema-engine-wasm'));
  const bg = (await import(pathToFileURL(join(dir, 'schema_engine_bg.js')).href)) as typeof import('@prisma/schema-engine-wasm');
  const wasmPath = join(dir, 'schema_engine_bg.wasm');
  const module = new WebAssembly.Module(readFileSync(wasmPath));
  const instance = new WebAssembly.Instance(module, { './schema_engine_bg.js': bg as unknown as WebAssembly.ModuleImports });
  (bg as unknown as { __wbg_set_wasm(exports: WebAssembly.Exports): void }).__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  return bg.SchemaEngine;
}

async function pendingSql(): Promise<string> {
  const pglite = new PGlite();
  const db = await openDatabase({ databaseUrl: null, dataDir: '', pglite });
  await migrate(db);
  const SchemaEngine = await loadSchemaEngine();
  const schema = { path: SCHEMA_PATH, content: readFileSync(SCHEMA_PATH, 'utf8') };
  const engine = await SchemaEngine.new(
    { datamodels: [[schema.path, schema.content]] },
    () => {},
    bindMigrationAwareSqlAdapterFactory(new PrismaPGlite(pglite)),
  );
  const result = await engine.diff({
    from: { tag: 'schemaDatasource', files: [schema], configDir: process.cwd() },
    to: { tag: 'schemaDatamodel', files: [schema] },
    script: true,
    exitCode: null,
    filters: { externalTables: [], externalEnums: [] },
  });
  await db.close();
  const sql = result.stdout ?? '';
  return sql.trim() === '-- This is an empty migration.' ? '' : sql.trim();
}

const args = process.argv.slice(2);
const sql = await pendingSql();
if (args.includes('--check')) {
  if (sql) {
    console.error('prisma/schema.prisma and prisma/migrations disagree; run `npm run db:new-migration -- <name>`:\n' + sql);
    process.exit(1);
  }
  console.log('schema.prisma matches the migrations');
} else {
  const name = args[0];
  if (!name || !/^[a-z0-9_]+$/.test(name)) throw new Error('usage: npm run db:new-migration -- <snake_case_name>');
  if (!sql) {
    console.log('No schema change: no migration created');
  } else {
    const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
    const dir = join(MIGRATIONS_DIR, `${stamp}_${name}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'migration.sql'), `${sql}\n`);
    console.log(`Created ${dir}/migration.sql`);
  }
}
