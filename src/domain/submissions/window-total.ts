import { sql, sqlBuilder } from '../../infra/sql.js';
import type { CreatedRange } from '../list-filters.js';

/*
 * A createdAt window's total from the form's day counts (FormSubmissionDay, kept exact with submissionCount): the
 * days wholly inside the window are summed, and only the rows of its at most two edge days are counted along the
 * (formId, createdAt) index. A median-wide window of a million submissions then reads a few hundred day rows and a
 * few thousand index entries instead of half a million (decisions §7.6: counts cost what a page costs).
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC day `at` falls in (its FormSubmissionDay row's `day`). */
export const floorDay = (at: Date): Date => new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);
const ceilDay = (at: Date): Date => new Date(Math.ceil(at.getTime() / DAY_MS) * DAY_MS);
const earlier = (a: Date, b: Date): Date => (a < b ? a : b);
const later = (a: Date, b: Date): Date => (a > b ? a : b);

/**
 * The window [createdFrom, createdBefore) cut in three disjoint parts: the whole days [wholeFrom, wholeBefore), the
 * rows of the first edge [createdFrom, lowEdgeEnd) and those of the last [highEdgeStart, createdBefore). A bound
 * that is absent leaves its side open (its values unused); an edge or the whole days may be empty.
 */
export interface WindowParts extends Record<string, unknown> {
  wholeFrom: Date | null;
  wholeBefore: Date | null;
  lowEdgeEnd: Date | null;
  highEdgeStart: Date | null;
}

export function windowParts(range: CreatedRange): WindowParts {
  const from = range.createdFrom ?? null;
  const before = range.createdBefore ?? null;
  const wholeFrom = from && ceilDay(from);
  const wholeBefore = before && floorDay(before);
  return {
    wholeFrom,
    wholeBefore,
    // Both edges in one day (or in adjacent days) must not overlap: the low edge stops at the window's end, the
    // high edge starts after the low one.
    lowEdgeEnd: wholeFrom && (before ? earlier(wholeFrom, before) : wholeFrom),
    highEdgeStart: wholeBefore && (wholeFrom ? later(wholeBefore, wholeFrom) : wholeBefore),
  };
}

/** Which bounds a window has (the statement's shape; the values are parameters). */
export interface WindowBounds {
  from: boolean;
  before: boolean;
}

export interface WindowTotalValues extends WindowParts {
  formId: number;
  createdFrom: Date | null;
  createdBefore: Date | null;
}

/** The rows of form `formId` in [from, before), along the (formId, createdAt) index. */
const rowsBetween = (formId: number, from: Date | null, before: Date | null) =>
  sqlBuilder.selectFrom('Submission as c').select(sql<number>`count(*)::int`.as('n')).where('c.formId', '=', formId).where('c.createdAt', '>=', from).where('c.createdAt', '<', before);

/** The window's total as one value (a single-row SELECT, to be materialized once per request by the caller). */
export function windowTotal(bounds: WindowBounds, values: WindowTotalValues) {
  let days = sqlBuilder.selectFrom('FormSubmissionDay as d').select(sql<number>`coalesce(sum("d"."count"), 0)::int`.as('n')).where('d.formId', '=', values.formId);
  if (bounds.from) days = days.where('d.day', '>=', values.wholeFrom);
  if (bounds.before) days = days.where('d.day', '<', values.wholeBefore);
  const parts = [
    sql<number>`${days}`,
    ...(bounds.from ? [sql<number>`${rowsBetween(values.formId, values.createdFrom, values.lowEdgeEnd)}`] : []),
    ...(bounds.before ? [sql<number>`${rowsBetween(values.formId, values.highEdgeStart, values.createdBefore)}`] : []),
  ];
  return sqlBuilder.selectNoFrom(sql<number>`${sql.join(parts, sql` + `)}`.as('n'));
}
