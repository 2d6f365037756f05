import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyPgliteTemplate, createPgliteTemplate, pgliteTemplateDir } from '../src/infra/db-template.js';
import { openDatabase, pgliteDir } from '../src/infra/db.js';
import { migrate, readMigrations } from '../src/infra/migrations.js';

describe('the embedded database template (made by postinstall)', () => {
  it('a new data directory starts as a copy of it, opens, migrates, and leaves the template as it was', async () => {
    const template = await createPgliteTemplate();
    expect(template).toBe(pgliteTemplateDir());
    const templateFiles = readdirSync(template, { recursive: true }).length;
    const dataDir = mkdtempSync(join(tmpdir(), 'wg-template-'));
    expect(copyPgliteTemplate(pgliteDir(dataDir))).toBe(true);
    expect(existsSync(join(pgliteDir(dataDir), 'PG_VERSION'))).toBe(true);
    expect(existsSync(`${pgliteDir(dataDir)}.tmp`)).toBe(false);

    const db = await openDatabase({ databaseUrl: null, dataDir });
    expect(await migrate(db)).toStrictEqual(readMigrations().map((migration) => migration.name));
    await db.close();
    expect(readdirSync(template, { recursive: true })).toHaveLength(templateFiles);

    // An existing cluster is never overwritten; the restart finds the migrated database.
    expect(copyPgliteTemplate(pgliteDir(dataDir))).toBe(false);
    const again = await openDatabase({ databaseUrl: null, dataDir });
    expect(await migrate(again)).toStrictEqual([]);
    await again.close();
  }, 120_000);

  it('a non-empty directory without a cluster is left to PGlite, not replaced', () => {
    const pgdata = join(mkdtempSync(join(tmpdir(), 'wg-template-')), 'pgdata');
    mkdirSync(pgdata);
    writeFileSync(join(pgdata, 'something'), 'kept');
    expect(copyPgliteTemplate(pgdata)).toBe(false);
    expect(readdirSync(pgdata)).toStrictEqual(['something']);
  });
});
