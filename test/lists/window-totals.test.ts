import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportedAccount } from '../../src/fixtures/fixture-import.js';
import type { ErasureJob } from '../../src/domain/submissions/erasure-requests.service.js';
import { QUEUE } from '../../src/infra/jobs.js';
import { createEmailMatcher } from '../../src/infra/secrets.js';
import { runErasureRequest } from '../../src/worker/jobs/erasure.job.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { accountFixture, formFixture, seed, siteFixture, TEST_SECRET_KEY } from '../support/seed.js';

/* Decisions §7.6 "counts": a createdAt window's total sums the form's day counts (FormSubmissionDay) and counts only
   the rows of its edge days, and so do the dashboards' per-day counts (GraphQL submissionDailyCounts). Its totals must stay exact after every write that changes a form's submissions (import,
   ingest, delete, erasure), at every kind of edge: a row exactly at UTC midnight, a millisecond either side, windows
   inside one day, across adjacent days, open on one side, bounds moved to the midnight before or after them. The
   oracle counts the rows themselves. */

const at = (d: number, hour = 0, ms = 0): Date => new Date(Date.UTC(2026, 0, d, hour) + ms);
const ADA = 'ada@example.com';

/** Rows on both sides of and exactly at UTC midnights, a tie, and two whose Email the erasure finds. */
const TIMES: [Date, string?][] = [
  [at(1)],
  [at(1, 12)],
  [at(2, 0, -1)],
  [at(2), ADA],
  [at(2, 6)],
  [at(3, 12)],
  [at(3, 20)],
  [at(5)],
  [at(5), ADA],
  [at(7, 0, -1)],
  [at(8, 12)],
];

/** Window bounds: at midnights, a millisecond either side of them, inside days (before and after noon, and at it). */
const BOUNDS = [at(1), at(1, 0, 1), at(1, 12), at(2, 0, -1), at(2), at(2, 6), at(3), at(3, 18), at(5), at(5, 0, 1), at(7, 0, -1), at(9)];
const WINDOWS: [Date | null, Date | null][] = [
  ...BOUNDS.flatMap((from) => BOUNDS.filter((before) => before > from).map((before): [Date, Date] => [from, before])),
  ...BOUNDS.map((from): [Date, null] => [from, null]),
  ...BOUNDS.map((before): [null, Date] => [null, before]),
];

let t: TestApp;
let acme: ImportedAccount;
let key: string;

const submissions = (times: [Date, string?][]) => times.map(([createdAt, email], i) => ({ formData: { Name: `S${i}`, ...(email && { Email: email }) }, createdAt: createdAt.toISOString() }));

beforeAll(async () => {
  t = await createTestApp();
  const fixture = accountFixture({
    sites: [siteFixture({ forms: [formFixture({ submissions: submissions(TIMES) }), formFixture({ ref: 'other', name: 'Other', submissions: submissions(TIMES.slice(0, 5)) })] })],
  });
  acme = (await seed(t.db, { accounts: [fixture] })).accounts.acme!;
  key = acme.apiKeys.full!.key;
});
afterAll(async () => t.close());

const formId = (ref = 'contact') => acme.forms[ref]!.id;

/** Every window's total as the list answers it, and as the rows count. */
async function totals(form: number): Promise<{ listed: number[]; counted: number[] }> {
  const listed: number[] = [];
  const counted: number[] = [];
  for (const [from, before] of WINDOWS) {
    const query = [from && `createdFrom=${from.toISOString()}`, before && `createdBefore=${before.toISOString()}`].filter(Boolean).join('&');
    const res = await t.request('GET', `/v1/forms/${form}/submissions?limit=1&${query}`, { key });
    expect(res.status, query).toBe(200);
    listed.push(res.body.pagination.total);
    counted.push(await t.db.prisma.submission.count({ where: { formId: form, createdAt: { ...(from && { gte: from }), ...(before && { lt: before }) } } }));
  }
  return { listed, counted };
}

/** The day counts equal the rows per UTC day (a day emptied by erasure keeps its row at 0). */
async function expectDaysExact(): Promise<void> {
  const days = await t.db.prisma.formSubmissionDay.findMany({ where: { count: { not: 0 } }, orderBy: [{ formId: 'asc' }, { day: 'asc' }] });
  const rows = await t.db.prisma.submission.findMany({ select: { formId: true, createdAt: true } });
  const expected = new Map<string, number>();
  for (const row of rows) {
    const day = `${row.formId} ${row.createdAt.toISOString().slice(0, 10)}`;
    expected.set(day, (expected.get(day) ?? 0) + 1);
  }
  expect(days.map((d) => [`${d.formId} ${d.day.toISOString().slice(0, 10)}`, d.count])).toStrictEqual([...expected].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true })));
  expect(days.every((d) => d.day.getTime() % 86_400_000 === 0)).toBe(true);
}

const DAILY = 'query($f: Int!, $from: DateTime!, $to: DateTime!) { submissionDailyCounts(formId: $f, from: $from, to: $to) { date count } }';

/** Every bounded window's days as submissionDailyCounts answers them (day counts and edge rows), and as the rows count. */
async function expectDailyCountsExact(form: number): Promise<void> {
  const rows = await t.db.prisma.submission.findMany({ where: { formId: form }, select: { createdAt: true } });
  for (const [from, before] of WINDOWS) {
    if (!from || !before) continue;
    const expected: { date: string; count: number }[] = [];
    for (let day = Math.floor(from.getTime() / 86_400_000) * 86_400_000; day < before.getTime(); day += 86_400_000) {
      const low = Math.max(day, from.getTime());
      const high = Math.min(day + 86_400_000, before.getTime());
      expected.push({ date: new Date(day).toISOString().slice(0, 10), count: rows.filter((row) => row.createdAt.getTime() >= low && row.createdAt.getTime() < high).length });
    }
    const res = await t.graphql(DAILY, { f: form, from: from.toISOString(), to: before.toISOString() }, key);
    expect(res.body.data?.submissionDailyCounts, `${from.toISOString()} ${before.toISOString()}`).toStrictEqual(expected);
  }
}

async function expectWindowsExact(): Promise<void> {
  await expectDaysExact();
  for (const form of [formId(), formId('other')]) {
    const { listed, counted } = await totals(form);
    expect(listed).toStrictEqual(counted);
    await expectDailyCountsExact(form);
  }
}

describe('window totals from day counts', () => {
  it('are exact after an import, at midnights and a millisecond either side', async () => {
    const { counted } = await totals(formId());
    // The oracle sees the edges: not every window counts the same.
    expect(new Set(counted).size).toBeGreaterThan(5);
    await expectWindowsExact();
  });

  it('are exact after ingests (a new day, then the same day again)', async () => {
    for (const name of ['N1', 'N2']) {
      const res = await t.request('POST', `/v1/forms/${formId()}/submissions`, { key, body: { formData: { Name: name } } });
      expect(res.status).toBe(201);
    }
    await expectWindowsExact();
    const today = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000);
    const res = await t.request('GET', `/v1/forms/${formId()}/submissions?createdFrom=${today.toISOString()}`, { key });
    expect(res.body.pagination.total).toBe(2);
  });

  it('are exact after a delete of the row at midnight', async () => {
    const row = await t.db.prisma.submission.findFirstOrThrow({ where: { formId: formId(), createdAt: at(2) } });
    expect((await t.request('DELETE', `/v1/submissions/${row.id}`, { key })).status).toBe(204);
    await expectWindowsExact();
  });

  it('are exact after an erasure request across days and forms', async () => {
    const matching = (await t.db.prisma.submission.findMany()).filter((row) => (row.formData as { Email?: string } | null)?.Email === ADA);
    expect(new Set(matching.map((row) => `${row.formId} ${row.createdAt.toISOString().slice(0, 10)}`)).size).toBeGreaterThan(1);
    const created = await t.request('POST', '/v1/erasure-requests', { key, body: { email: ADA } });
    expect(created.status).toBe(202);
    const jobs = await t.queue.boss.fetch<ErasureJob>(QUEUE.erasureRun, { batchSize: 10 });
    for (const job of jobs) {
      await runErasureRequest({ db: t.db, phi: t.deps.phi, matchesEmail: createEmailMatcher(TEST_SECRET_KEY), batchSize: 1 }, job.data);
      await t.queue.boss.complete(QUEUE.erasureRun, job.id);
    }
    expect((await t.request('GET', `/v1/erasure-requests/${created.body.id}`, { key })).body).toMatchObject({ status: 'done', submissionsErased: matching.length });
    await expectWindowsExact();
  });

  it('are exact after another import (new forms, days shared with existing ones)', async () => {
    const other = accountFixture({ ref: 'beta', name: 'Beta', ownerEmail: 'owner@beta.example', sites: [siteFixture({ domain: 'beta.example', forms: [formFixture({ submissions: submissions(TIMES) })] })] });
    await seed(t.db, { accounts: [other] });
    await expectWindowsExact();
  });

  it('answers 400 for createdFrom == createdBefore, at a midnight too', async () => {
    const res = await t.request('GET', `/v1/forms/${formId()}/submissions?createdFrom=${at(2).toISOString()}&createdBefore=${at(2).toISOString()}`, { key });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
  });
});

describe('window totals in statements', () => {
  it('cost one statement, as a page without a window: the day counts summed once, at most two edge ranges counted', async () => {
    const statements = async (query: string): Promise<string[]> => {
      const path = `/v1/forms/${formId()}/submissions?limit=5${query}`;
      await t.request('GET', path, { key });
      t.db.resetQueryCount();
      expect((await t.request('GET', path, { key })).status).toBe(200);
      return t.db.queries.filter((sql) => !/"ApiKey"/.test(sql));
    };
    expect(await statements('')).toHaveLength(1);
    for (const window of [`&createdFrom=${at(1, 12).toISOString()}`, `&createdBefore=${at(5, 6).toISOString()}`, `&createdFrom=${at(1, 12).toISOString()}&createdBefore=${at(5, 6).toISOString()}`]) {
      const sqls = await statements(window);
      expect(sqls, window).toHaveLength(1);
      expect(sqls[0], window).toMatch(/^with "t" as materialized \(select \(select coalesce\(sum\("d"\."count"\), 0\)::int as "n" from "FormSubmissionDay" as "d"/);
      expect(sqls[0]!.match(/count\(\*\)/g)!.length, window).toBe(window.split('&created').length - 1);
    }
  });
});
