import { PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/infra/db.js';
import { migrate, readMigrations } from '../../src/infra/migrations.js';

/* The migration that adds FormSubmissionDay fills it from the submissions already stored (window totals read it
   at once): a database migrated up to the one before, with rows on both sides of UTC midnights in two forms, then
   migrated to the end, holds each form's exact count per UTC day. */

const DAY_COUNTS = '20261128154126_form_submission_days';

describe('the FormSubmissionDay migration', () => {
  it('backfills every form’s submissions per UTC day', async () => {
    const db = await openDatabase({ databaseUrl: null, dataDir: '', pglite: new PGlite() });
    try {
      const all = readMigrations();
      expect(all.map((m) => m.name)).toContain(DAY_COUNTS);
      await migrate(db, all.filter((m) => m.name < DAY_COUNTS));
      await db.withSession(async (s) => {
        await s.exec(`INSERT INTO "Account" (id, name, kind, plan, "ownerEmail", "webhookSigningSecret", "updatedAt") VALUES (1, 'A', 'organization', 'pro', 'o@a.example', 's', now())`);
        await s.exec(`INSERT INTO "Form" (id, "accountId", name, fields, "updatedAt") VALUES (1, 1, 'F', '[]', now()), (2, 1, 'G', '[]', now())`);
        await s.exec(`INSERT INTO "Submission" ("accountId", "formId", "createdAt") VALUES
          (1, 1, '2026-01-01 00:00:00'), (1, 1, '2026-01-01 23:59:59.999'), (1, 1, '2026-01-02 00:00:00'),
          (1, 2, '2026-01-01 12:00:00'), (1, 1, '2026-03-05 08:00:00')`);
      });
      await migrate(db);
      const days = await db.withSession((s) =>
        s.query<{ formId: number; day: string; count: number }>(`SELECT "formId", to_char("day", 'YYYY-MM-DD HH24:MI:SS.MS') AS day, "count" FROM "FormSubmissionDay" ORDER BY 1, 2`),
      );
      expect(days).toStrictEqual([
        { formId: 1, day: '2026-01-01 00:00:00.000', count: 2 },
        { formId: 1, day: '2026-01-02 00:00:00.000', count: 1 },
        { formId: 1, day: '2026-03-05 00:00:00.000', count: 1 },
        { formId: 2, day: '2026-01-01 00:00:00.000', count: 1 },
      ]);
    } finally {
      await db.close();
    }
  });
});
