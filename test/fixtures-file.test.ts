import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../src/errors.js';
import { FixtureJsonError, importFixtureFile, parseFixture, readFixtureFile, type Fixture } from '../src/fixtures/fixture-import.js';
import { openDatabase } from '../src/infra/db.js';
import { runCli } from './cli/run-cli.js';
import { createTestDatabase, hasPostgres, type TestDatabase } from './support/database.js';
import { accountFixture, formFixture, siteFixture, TEST_SECRET_KEY, testHasher, testPhi } from './support/seed.js';

/* The file path of `admin import` (contract §3 at scale): streamed, validated whole before anything is written,
   records written in batches inside one transaction. */

let db: TestDatabase;
let dir: string;
beforeAll(async () => {
  db = await createTestDatabase();
  dir = mkdtempSync(join(tmpdir(), 'wg-fixture-file-'));
});
afterAll(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await db.truncate();
});

let files = 0;
function write(content: unknown): string {
  const file = join(dir, `fixture-${++files}.json`);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

const seal = { sealFormData: (formData: Parameters<typeof testPhi.encrypt>[0]) => testPhi.encrypt(formData) };

/** Two forms (one PHI) of `n` submissions each, a calendar with bookings and a shop and a collection with orders. */
function bigFixture(n: number): Fixture {
  const submissions = (form: string) => Array.from({ length: n }, (_, i) => ({ formData: { form, i }, createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString() }));
  const booking = (i: number) => ({
    inviteeName: `Invitee ${i}`,
    inviteeEmail: `i${i}@example.com`,
    slotIso: '2026-02-01T10:00:00.000Z',
    slotDisplay: 'Sun 1 Feb, 10:00',
    inviteeTimezone: 'Europe/London',
    status: 'scheduled' as const,
  });
  const order = (i: number) => ({ customerEmail: `c${i}@example.com`, amountCents: i, currency: 'usd', status: 'paid' as const, shippingAddress: i % 2 ? { city: 'X' } : null });
  return {
    accounts: [
      accountFixture({
        sites: [
          siteFixture({
            forms: [formFixture({ ref: 'plain', submissions: submissions('plain') }), formFixture({ ref: 'phi', phi: true, submissions: submissions('phi') })],
            calendarWidgets: [{ ref: 'cal', name: 'Cal', bookings: Array.from({ length: n }, (_, i) => booking(i)) }],
            ecommerceWidgets: [
              { ref: 'shop', name: 'Shop', type: 'one_time', productName: 'Tee', currency: 'usd', fulfilmentType: 'physical', orders: Array.from({ length: n }, (_, i) => order(i)) },
            ],
            collections: [{ ref: 'store', name: 'Store', orders: Array.from({ length: 3 }, (_, i) => order(i)) }],
          }),
        ],
        legacyForms: [formFixture({ ref: 'legacy', submissions: [{ formData: { legacy: true } }] })],
      }),
    ],
  };
}

async function rowCounts(target: Pick<TestDatabase, 'prisma'> = db): Promise<Record<string, number>> {
  const p = target.prisma;
  const [accounts, keys, sites, forms, submissions, calendars, bookings, shops, collections, orders] = await Promise.all([
    p.account.count(),
    p.apiKey.count(),
    p.site.count(),
    p.form.count(),
    p.submission.count(),
    p.calendarWidget.count(),
    p.booking.count(),
    p.ecommerceWidget.count(),
    p.collection.count(),
    p.order.count(),
  ]);
  return { accounts, keys, sites, forms, submissions, calendars, bookings, shops, collections, orders };
}

describe('import of a fixture file', () => {
  it('writes a file of several batches: ids in file order, counters exact, PHI sealed, one INSERT per batch', async () => {
    const file = write(bigFixture(23));
    const read = await readFixtureFile(file);
    db.resetQueryCount();
    const result = await importFixtureFile(db.prisma, testHasher, read, { ...seal, batchSize: 10 });
    const acme = result.accounts.acme!;
    // 23 plain + 23 PHI + 1 legacy submissions: ceil(47 / 10) statements; 23 bookings: 3; 23 + 3 orders: 3.
    const inserts = (table: string) => db.queries.filter((sql) => sql.toLowerCase().startsWith(`insert into "${table.toLowerCase()}"`)).length;
    expect([inserts('Submission'), inserts('Booking'), inserts('Order')]).toStrictEqual([5, 3, 3]);

    for (const ref of ['plain', 'phi'] as const) {
      const form = acme.forms[ref]!;
      expect(form.submissionIds).toHaveLength(23);
      const rows = await db.prisma.submission.findMany({ where: { formId: form.id }, orderBy: { id: 'asc' } });
      expect(rows.map((row) => row.id)).toStrictEqual(form.submissionIds);
      const data = rows.map((row) => (ref === 'phi' ? testPhi.decrypt(row.formDataCiphertext!, row.formDataKeyId!) : row.formData));
      expect(data).toStrictEqual(Array.from({ length: 23 }, (_, i) => ({ form: ref, i })));
      expect(rows.map((row) => row.createdAt.toISOString())).toStrictEqual(Array.from({ length: 23 }, (_, i) => new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString()));
      if (ref === 'phi') expect(rows.every((row) => row.formData === null && row.formDataKeyId !== null)).toBe(true);
    }
    const bookings = await db.prisma.booking.findMany({ orderBy: { id: 'asc' } });
    expect(bookings.map((b) => [b.id, b.calendarWidgetId, b.inviteeName])).toStrictEqual(
      acme.calendarWidgets.cal!.bookingIds.map((id, i) => [id, acme.calendarWidgets.cal!.id, `Invitee ${i}`]),
    );
    const orders = await db.prisma.order.findMany({ orderBy: { id: 'asc' } });
    expect(orders.map((o) => [o.id, o.ecommerceWidgetId, o.collectionId, o.amountCents, o.shippingAddress])).toStrictEqual([
      ...acme.ecommerceWidgets.shop!.orderIds.map((id, i) => [id, acme.ecommerceWidgets.shop!.id, null, i, i % 2 ? { city: 'X' } : null]),
      ...acme.collections.store!.orderIds.map((id, i) => [id, null, acme.collections.store!.id, i, i % 2 ? { city: 'X' } : null]),
    ]);

    const forms = await db.prisma.form.findMany({ orderBy: { id: 'asc' }, select: { submissionCount: true, _count: { select: { submissions: true } } } });
    expect(forms.map((f) => [f.submissionCount, f._count.submissions])).toStrictEqual([[23, 23], [23, 23], [1, 1]]);
    const calendar = await db.prisma.calendarWidget.findFirstOrThrow();
    const shop = await db.prisma.ecommerceWidget.findFirstOrThrow();
    expect([calendar.bookingCount, shop.orderCount]).toStrictEqual([23, 23]);
  });

  it('writes nothing when a record after the first batch fails in the database: the import is one transaction', async () => {
    const before = await rowCounts();
    const fixture = bigFixture(23) as unknown as { accounts: [{ sites: [{ forms: [{ submissions: { sourceDomain?: string }[] }] }] }] };
    // Valid JSON and valid by the format; PostgreSQL refuses NUL in text, so batches 1 and 2 are written first.
    fixture.accounts[0].sites[0].forms[0].submissions[21]!.sourceDomain = 'bad\u0000value';
    const read = await readFixtureFile(write(fixture));
    db.resetQueryCount();
    await expect(importFixtureFile(db.prisma, testHasher, read, { ...seal, batchSize: 10 })).rejects.toThrow();
    // Two batches went in before the failing one (Prisma's query log leaves out a statement that failed).
    expect(db.queries.filter((sql) => /^insert into "Submission"/i.test(sql)).length).toBeGreaterThanOrEqual(2);
    expect(await rowCounts()).toStrictEqual(before);
  });

  it('writes nothing when the file changed between validation and writing (a bad record after the first batch)', async () => {
    const file = write(bigFixture(23));
    const read = await readFixtureFile(file);
    const changed = bigFixture(23) as unknown as { accounts: [{ sites: [{ forms: [{ submissions: { formData: unknown }[] }] }] }] };
    changed.accounts[0].sites[0].forms[0].submissions[15]!.formData = 'not an object';
    writeFileSync(file, JSON.stringify(changed));
    const error = await importFixtureFile(db.prisma, testHasher, read, { ...seal, batchSize: 10 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).context.fields).toStrictEqual([{ field: 'accounts[0].sites[0].forms[0].submissions[15].formData', message: expect.any(String) }]);
    // One more record than counted: the counters would be wrong, so nothing is kept.
    const grown = bigFixture(23) as unknown as { accounts: [{ sites: [{ forms: [{ submissions: unknown[] }] }] }] };
    grown.accounts[0].sites[0].forms[0].submissions.push({ formData: { extra: true } });
    writeFileSync(file, JSON.stringify(grown));
    await expect(importFixtureFile(db.prisma, testHasher, read, { ...seal, batchSize: 10 })).rejects.toThrow('The file changed during the import');
    expect(Object.values(await rowCounts()).every((count) => count === 0)).toBe(true);
  });
});

describe('validation of a fixture file', () => {
  /** The problems of the whole-document parse, for comparison. */
  const wholeProblems = (fixture: unknown): unknown => {
    try {
      parseFixture(fixture);
      return null;
    } catch (error) {
      return (error as AppError).context.fields;
    }
  };
  const fileProblems = async (fixture: unknown): Promise<unknown> =>
    readFixtureFile(write(fixture)).then(
      () => null,
      (error: unknown) => (error as AppError).context.fields,
    );
  const sorted = (problems: unknown): unknown => (problems as { field: string; message: string }[]).map((p) => `${p.field}: ${p.message}`).sort();

  it('reports the problems the whole-document parse reports, records included', async () => {
    const bad = (mutate: (fixture: any) => void): unknown => {
      const fixture = bigFixture(3) as any;
      mutate(fixture);
      return fixture;
    };
    const cases: unknown[] = [
      [1, 2],
      5,
      { accounts: { acme: {} } },
      bad((f) => (f.accounts[0].sites[0].forms[0].submissions[2].formData = 5)),
      bad((f) => (f.accounts[0].sites[0].forms[0].submissions[1].colour = 'red')),
      bad((f) => (f.accounts[0].sites[0].calendarWidgets[0].bookings[0].status = 'maybe')),
      bad((f) => (f.accounts[0].sites[0].collections[0].orders[2].currency = 'USD')),
      bad((f) => (f.accounts[0].legacyForms[0].submissions[0].createdAt = 'yesterday')),
      bad((f) => (f.accounts[0].sites[0].forms[0].submissions = { a: { formData: {} } })),
      bad((f) => (f.accounts[0].sites[0].forms = { a: { ref: 'x', name: 'X', submissions: [{ formData: 1 }] } })),
      // Several at once: a skeleton field and records.
      bad((f) => {
        f.accounts[0].sites[0].forms[1].name = '';
        f.accounts[0].sites[0].forms[1].submissions[0].formData = null;
        f.accounts[0].sites[0].ecommerceWidgets[0].orders[1].amountCents = 1.5;
      }),
      // Duplicate refs are reported only when nothing else failed, as zod skips the refinement.
      bad((f) => f.accounts[0].sites[0].forms.push({ ref: 'plain', name: 'Again' })),
      bad((f) => {
        f.accounts[0].sites[0].forms.push({ ref: 'plain', name: 'Again' });
        f.accounts[0].sites[0].forms[0].submissions[0].formData = 1;
      }),
    ];
    for (const fixture of cases) {
      const whole = wholeProblems(fixture);
      expect(whole).not.toBeNull();
      expect(sorted(await fileProblems(fixture))).toStrictEqual(sorted(whole));
    }
    // Only records wrong: the same list in the same order.
    const records = bad((f) => {
      f.accounts[0].sites[0].forms[0].submissions[0].formData = 1;
      f.accounts[0].sites[0].forms[1].submissions[2].sourceDomain = 5;
      f.accounts[0].sites[0].calendarWidgets[0].bookings[1].inviteeEmail = '';
    });
    expect(await fileProblems(records)).toStrictEqual(wholeProblems(records));
    expect(await rowCounts()).toMatchObject({ accounts: 0 });
  });

  it('refuses malformed JSON without quoting it, an empty file, and a missing one', async () => {
    const text = JSON.stringify(bigFixture(3));
        for (const content of [text.slice(0, -3), text.replace('"legacyForms":[', '"legacyForms":HIDDEN-VALUE['), '', '   ', `${text} {}`]) {
      const error = await readFixtureFile(write(content)).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(FixtureJsonError);
      expect((error as Error).message).not.toContain('HIDDEN');
    }
    expect(await readFixtureFile(join(dir, 'absent.json')).catch((caught: unknown) => (caught as NodeJS.ErrnoException).code)).toBe('ENOENT');
    // A trailing newline is fine.
    await expect(readFixtureFile(write(`${text}\n`))).resolves.toMatchObject({ file: expect.any(String) });
  });
});

// The real CLI, on the embedded database and (with DATABASE_URL) on this test's PostgreSQL database.
describe('admin import of a large file', { timeout: 180_000 }, () => {
  /** 12,000 submissions and as many bookings and orders: dozens of the CLI's batches. */
  const big = (): string => JSON.stringify(bigFixture(6_000));

  async function check(env: Record<string, string>, counts: () => Promise<Record<string, number>>): Promise<void> {
    const good = write(JSON.stringify(bigFixture(2)));
    const first = await runCli(['import', good], env);
    expect([first.exitCode, first.stderr]).toStrictEqual([0, '']);
    const before = await counts();
    expect(before).toMatchObject({ accounts: 1, submissions: 5 });

    const text = big();
    // Malformed at the very end: the first pass finds it before the database is opened.
    const truncated = await runCli(['import', write(text.slice(0, -2))], env);
    expect([truncated.exitCode, truncated.err]).toStrictEqual([1, { error: expect.stringContaining('is not valid JSON'), code: 'invalid_json' }]);
    // Valid JSON, a bad record near the end.
    const badRecord = text.replace(/"formData":\{"form":"phi","i":5999\}/, '"formData":"late"');
    expect(badRecord).not.toBe(text);
    const invalid = await runCli(['import', write(badRecord)], env);
    expect([invalid.exitCode, invalid.err]).toStrictEqual([
      1,
      { error: 'Invalid input: accounts[0].sites[0].forms[1].submissions[5999].formData: Invalid input: expected record, received string', code: 'validation_failed' },
    ]);
    // Valid by the format, refused by the database near the end: batches were written, then rolled back.
    const refused = await runCli(['import', write(text.replace(/"formData":\{"form":"phi","i":5999\}/, '"formData":{"form":"phi","i":5999},"sourceDomain":"bad\\u0000"'))], env);
    expect([refused.exitCode, (refused.err as { code: string }).code]).toStrictEqual([1, 'internal_error']);
    expect(await counts()).toStrictEqual(before);
  }

  it('leaves the embedded database unchanged when the file is bad near its end', async () => {
    const dataDir = join(dir, 'embedded');
    await check({ DATA_DIR: dataDir }, async () => {
      const embedded = await openDatabase({ databaseUrl: null, dataDir });
      try {
        return await rowCounts(embedded);
      } finally {
        await embedded.close();
      }
    });
  });

  it.skipIf(!hasPostgres)('leaves the PostgreSQL database unchanged when the file is bad near its end', async () => {
    await check({ DATABASE_URL: db.url!, SECRET_KEY: TEST_SECRET_KEY.toString('base64') }, () => rowCounts());
  });
});
