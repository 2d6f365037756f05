import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { preparedQuery, rawStatement, sql, sqlBuilder } from '../src/infra/sql.js';
import { listForms } from '../src/domain/forms/forms.service.js';
import { isoString } from '../src/schema/scalars.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';

describe('Database.sql (one statement straight on the driver)', () => {
  let db: TestDatabase;
  const zone = process.env.TZ;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterEach(() => {
    process.env.TZ = zone;
  });
  afterAll(async () => db.close());

  it('reads rows as Prisma does: timestamp(3) as UTC whatever the process time zone, jsonb parsed, arrays, bytea', async () => {
    // Away from UTC, a driver's default reads (and writes) timestamp without time zone as local time.
    process.env.TZ = 'America/New_York';
    const at = new Date('2026-03-08T06:30:00.123Z');
    const account = await db.prisma.account.create({ data: { name: 'Zone', kind: 'organization', ownerEmail: 'zone@example.com', plan: 'pro', webhookSigningSecret: 'whsec_zone' } });
    await db.sql(rawStatement(sql`UPDATE "Account" SET "createdAt" = ${at} WHERE "id" = ${account.id}`));
    const viaPrisma = await db.prisma.account.findUniqueOrThrow({ where: { id: account.id } });
    expect(viaPrisma.createdAt).toEqual(at);

    const [row] = await db.sql(rawStatement(sql<{ createdAt: Date; doc: unknown; ids: number[]; words: string[]; bytes: Uint8Array; n: number }>`
      SELECT a."createdAt", '{"a":[1,"x"]}'::jsonb AS "doc", ARRAY[3, 1]::integer[] AS "ids", ARRAY['read:forms']::text[] AS "words",
             '\\x0102'::bytea AS "bytes", count(*) OVER ()::int AS "n"
      FROM "Account" a WHERE a."id" = ${account.id}`));
    expect(row!.createdAt).toEqual(at);
    expect(row!.doc).toStrictEqual({ a: [1, 'x'] });
    expect(row!.ids).toStrictEqual([3, 1]);
    expect(row!.words).toStrictEqual(['read:forms']);
    expect([...row!.bytes]).toStrictEqual([1, 2]);
    expect(row!.n).toBe(1);
  });

  it('reads every precision of timestamp(3) exactly (PostgreSQL drops trailing zeros of the fraction)', async () => {
    const texts = ['2026-11-23 14:50:18.305', '2026-11-23 14:50:18.3', '2026-11-23 14:50:18.31', '2026-11-23 14:50:18', '1970-01-01 00:00:00.001', '0099-01-01 00:00:00', '0999-12-31 23:59:59.999', '1000-01-01 00:00:00.01', '9999-12-31 23:59:59.999'];
    for (const text of texts) {
      const [row] = await db.sql(rawStatement(sql<{ at: Date }>`SELECT ${text}::timestamp(3) AS "at"`));
      const expected = new Date(`${text.replace(' ', 'T')}Z`).toISOString();
      expect(row!.at.toISOString(), text).toBe(expected);
      // The DateTime scalar answers the text the row was read as (src/infra/wire-timestamp.ts), the same as the Date's.
      expect(isoString(row!.at), text).toBe(expected);
    }
    // A Date set to another instant after it was read answers its own time, not the text it was read as.
    const [row] = await db.sql(rawStatement(sql<{ at: Date }>`SELECT '2026-11-23 14:50:18.305'::timestamp(3) AS "at"`));
    row!.at.setUTCFullYear(2027);
    expect(isoString(row!.at)).toBe('2027-11-23T14:50:18.305Z');
  });

  it('is counted like Prisma statements (the tests’ statement budgets see it)', async () => {
    db.resetQueryCount();
    await db.sql(rawStatement(sql`SELECT 1`));
    expect(db.queries).toHaveLength(1);
  });

  it('runs a query built with sql.ts as one statement, its rows converted like any other (typed by the selection)', async () => {
    const account = await db.prisma.account.create({ data: { name: 'Typed', kind: 'personal', ownerEmail: 'typed@example.com', plan: 'starter', webhookSigningSecret: 'whsec_typed' } });
    db.resetQueryCount();
    const [row] = await db.sql(sqlBuilder.selectFrom('Account').select(['id', 'plan', 'createdAt']).where('id', '=', account.id));
    expect(db.queries).toHaveLength(1);
    expect(row).toStrictEqual({ id: account.id, plan: 'starter', createdAt: account.createdAt });
    const [inTransaction] = await db.transaction((tx) => tx.sql(sqlBuilder.selectFrom('Account').select('name').where('id', '=', account.id)));
    expect(inTransaction).toStrictEqual({ name: 'Typed' });
  });

  it('sends one text per query shape whatever its values, so each hot query is one named prepared statement', async () => {
    const account = await db.prisma.account.create({ data: { name: 'Shapes', kind: 'personal', ownerEmail: 'shapes@example.com', plan: 'pro', webhookSigningSecret: 'whsec_shapes' } });
    db.resetQueryCount();
    await listForms(db, account.id, { limit: 10, page: 1, columns: ['name'] });
    await listForms(db, account.id + 1, { limit: 25, page: 3, columns: ['name'] });
    await listForms(db, account.id, { limit: 10, page: 1, domainId: 7, columns: ['name'] });
    await listForms(db, account.id, { limit: 10, page: 2, domainId: 8, columns: ['name'] });
    const [first, second, third, fourth] = db.queries.filter((text) => text.includes('OVER ()'));
    expect(first).toBeDefined();
    expect(second).toBe(first);
    expect(third).not.toBe(first);
    expect(fourth).toBe(third);
  });

  it('binds each call’s values to a prepared query compiled once per shape', async () => {
    let builds = 0;
    const byId = preparedQuery((archived: boolean, values: { id: number }) => {
      builds++;
      return sqlBuilder.selectFrom('Form').select('id').where('id', '=', values.id).where('archivedAt', archived ? 'is not' : 'is', null);
    });
    const [one, two, archived] = [byId(false, { id: 1 }).compile(), byId(false, { id: 2 }).compile(), byId(true, { id: 3 }).compile()];
    expect(two.sql).toBe(one.sql);
    expect(archived.sql).not.toBe(one.sql);
    expect([one.parameters, two.parameters, archived.parameters]).toStrictEqual([[1], [2], [3]]);
    expect(builds).toBe(2);
  });
});
