import { sql, sqlBuilder } from '../../infra/sql.js';
import type { CreatedRange } from '../list-filters.js';

/*
 * A createdAt window's total from the form's day counts (FormSubmissionDay, kept exact with submissionCount): whole
 * days are summed, and only the rows between each bound and its nearer midnight are counted along the
 * (formId, createdAt) index (at most half a day each). A median-wide window of a million submissions then reads a few
 * hundred day rows and at most half a day's index entries instead of half a million (decisions §7.6: counts cost what a page costs).
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC day `at` falls in (its FormSubmissionDay row's `day`). */
export const floorDay = (at: Date): Date => new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);
const HALF_DAY_MS = DAY_MS / 2;

/** A range [from, before) of rows or days, counted with a sign (+1 or -1). */
interface Signed {
  from: Date;
  before: Date;
  sign: 1 | -1;
}

/**
 * The window [createdFrom, createdBefore) as three parts: days [daysFrom, daysBefore) summed from the day counts,
 * and the rows of a low and a high edge counted along the index, with a sign. Each bound is moved to the nearer
 * midnight of its day (a for createdFrom, b for createdBefore), and the rows between it and that midnight are added
 * or taken away, so an edge counts at most half a day of rows (a whole day on the calendar's last, which rounds down). With signed ranges (D(x, y) = -D(y, x)):
 * D(from, before) = D(from, a) + D(a, b) + D(b, before). a <= b always (from < before, and rounding to the nearer
 * midnight keeps the order), so the days need no sign; a = b when both are in one day or around one midnight.
 * A bound that is absent leaves its side open (its values unused).
 */
export interface WindowParts extends Record<string, unknown> {
  daysFrom: Date | null;
  daysBefore: Date | null;
  lowFrom: Date | null;
  lowBefore: Date | null;
  lowSign: 1 | -1;
  highFrom: Date | null;
  highBefore: Date | null;
  highSign: 1 | -1;
}

/** The last midnight a bound may round to: the next one, 10000-01-01, is past what PostgreSQL's drivers write. */
const LAST_MIDNIGHT_MS = Date.UTC(9999, 11, 31);

/** `at`'s nearer midnight (on the calendar's last day, its own), for the signed range between `at` and it. */
function nearerMidnight(at: Date): Date {
  const floor = floorDay(at);
  return at.getTime() - floor.getTime() < HALF_DAY_MS || floor.getTime() >= LAST_MIDNIGHT_MS ? floor : new Date(floor.getTime() + DAY_MS);
}

const signed = (from: Date, before: Date): Signed => (from <= before ? { from, before, sign: 1 } : { from: before, before: from, sign: -1 });

export function windowParts(range: CreatedRange): WindowParts {
  const from = range.createdFrom ?? null;
  const before = range.createdBefore ?? null;
  const a = from && nearerMidnight(from);
  const b = before && nearerMidnight(before);
  const low = from && a && signed(from, a);
  const high = before && b && signed(b, before);
  return {
    daysFrom: a,
    daysBefore: b,
    lowFrom: low?.from ?? null,
    lowBefore: low?.before ?? null,
    lowSign: low?.sign ?? 1,
    highFrom: high?.from ?? null,
    highBefore: high?.before ?? null,
    highSign: high?.sign ?? 1,
  };
}

/** Which bounds a window has (the statement's shape; the values are parameters). */
export interface WindowBounds {
  from: boolean;
  before: boolean;
}

export interface WindowTotalValues extends WindowParts {
  formId: number;
}

/** The rows of form `formId` in [from, before), along the (formId, createdAt) index. */
const rowsBetween = (formId: number, from: Date | null, before: Date | null) =>
  sqlBuilder.selectFrom('Submission as c').select(sql<number>`count(*)::int`.as('n')).where('c.formId', '=', formId).where('c.createdAt', '>=', from).where('c.createdAt', '<', before);

/** The window's total as one value (a single-row SELECT, to be materialized once per request by the caller). */
export function windowTotal(bounds: WindowBounds, values: WindowTotalValues) {
  let days = sqlBuilder.selectFrom('FormSubmissionDay as d').select(sql<number>`coalesce(sum("d"."count"), 0)::int`.as('n')).where('d.formId', '=', values.formId);
  if (bounds.from) days = days.where('d.day', '>=', values.daysFrom);
  if (bounds.before) days = days.where('d.day', '<', values.daysBefore);
  const parts = [
    sql<number>`${days}`,
    ...(bounds.from ? [sql<number>`${values.lowSign}::int * ${rowsBetween(values.formId, values.lowFrom, values.lowBefore)}`] : []),
    ...(bounds.before ? [sql<number>`${values.highSign}::int * ${rowsBetween(values.formId, values.highFrom, values.highBefore)}`] : []),
  ];
  return sqlBuilder.selectNoFrom(sql<number>`${sql.join(parts, sql` + `)}`.as('n'));
}

/** The first UTC midnight at or after `at`. */
const ceilDay = (at: Date): Date => {
  const floor = floorDay(at);
  return floor.getTime() === at.getTime() ? floor : new Date(floor.getTime() + DAY_MS);
};

/**
 * The submissions per UTC day of [from, to) of form `formId` of account `accountId` (another account's form counts
 * nothing), as rows `{ date, count }` of the days that have any: the whole days from the day counts, and the rows of
 * the partial days at each end ([from, its next midnight) and [to's midnight, to), or [from, to) inside one day)
 * counted along the (formId, createdAt) index. A year of a busy form then reads 366 day rows instead of every
 * submission. A date never comes from both parts.
 */
export function dayCounts(accountId: number, formId: number, from: Date, to: Date) {
  const wholeFrom = ceilDay(from);
  const wholeBefore = floorDay(to);
  const lowBefore = wholeFrom < to ? wholeFrom : to;
  const highFrom = wholeBefore > wholeFrom ? wholeBefore : wholeFrom;
  return sqlBuilder
    .selectFrom('FormSubmissionDay as d')
    .innerJoin('Form as f', 'f.id', 'd.formId')
    .select([sql<string>`to_char("d"."day", 'YYYY-MM-DD')`.as('date'), 'd.count'])
    .where('d.formId', '=', formId)
    .where('f.accountId', '=', accountId)
    .where('d.day', '>=', wholeFrom)
    .where('d.day', '<', wholeBefore)
    .unionAll(
      sqlBuilder
        .selectFrom('Submission as s')
        .select([sql<string>`to_char(date_trunc('day', "s"."createdAt"), 'YYYY-MM-DD')`.as('date'), sql<number>`count(*)::int`.as('count')])
        .where('s.formId', '=', formId)
        .where('s.accountId', '=', accountId)
        .where((eb) =>
          eb.or([
            eb.and([eb('s.createdAt', '>=', from), eb('s.createdAt', '<', lowBefore)]),
            eb.and([eb('s.createdAt', '>=', highFrom), eb('s.createdAt', '<', to)]),
          ]),
        )
        .groupBy(sql`1`),
    );
}
