import { validationFailed, type FieldProblem } from '../errors.js';

/**
 * `createdFrom` (inclusive) / `createdBefore` (exclusive), contract §6.1 and §6.4: ISO 8601 date-times with an
 * offset or `Z`, one parser for every route and field that takes them (exports, the lists' filters, the GraphQL
 * DateTime scalar). The query parameters' schema is list-filters.ts `createdRangeQuery`.
 */

export interface CreatedRange {
  from: Date | null;
  before: Date | null;
}

const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|([+-])(\d{2}):(\d{2}))$/i;

const daysIn = (year: number, month: number): number => {
  const date = new Date(0);
  date.setUTCFullYear(year, month, 0);
  return date.getUTCDate();
};

/**
 * The instant, or null when `raw` is not an ISO 8601 date-time with an offset. Stored times have millisecond
 * precision, so a finer instant is rounded up: both bounds then select exactly the rows the exact instant would.
 * Calendar checks are ours: `Date` would roll 2026-02-30 over into March.
 */
export function parseIsoDateTime(raw: string): Date | null {
  const match = ISO_DATE_TIME.exec(raw);
  if (!match) return null;
  const [, y, mo, d, h, mi, s = '0', fraction = '', , sign, oh = '0', om = '0'] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  // Year 0 does not exist in PostgreSQL's calendar (1 BC precedes AD 1).
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59 || Number(oh) > 23 || Number(om) > 59) return null;
  const offsetMinutes = (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om));
  const ms = Number(fraction.padEnd(3, '0').slice(0, 3)) + (/[1-9]/.test(fraction.slice(3)) ? 1 : 0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0-99 as 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(Number(h), Number(mi), Number(s), ms);
  const instant = new Date(date.getTime() - offsetMinutes * 60_000);
  // The offset may carry a first or last day across the calendar's ends (0001-01-01T00:00+01:00 is in year 0):
  // the instant itself must be one PostgreSQL and the drivers write (years 1 to 9999 in UTC).
  const utcYear = instant.getUTCFullYear();
  return Number.isNaN(instant.getTime()) || utcYear < 1 || utcYear > 9999 ? null : instant;
}

const MESSAGE = 'must be an ISO 8601 date-time with an offset or Z, e.g. 2026-01-31T00:00:00Z';

/** Both bounds from a request (absent: unbounded); 400 `validation_failed` naming each bad field. */
export function parseCreatedRange(raw: { createdFrom?: unknown; createdBefore?: unknown }): CreatedRange {
  const problems: FieldProblem[] = [];
  const bound = (field: 'createdFrom' | 'createdBefore'): Date | null => {
    const value = raw[field];
    if (value === undefined || value === null) return null;
    const date = typeof value === 'string' ? parseIsoDateTime(value) : null;
    if (!date) problems.push({ field, message: MESSAGE });
    return date;
  };
  const from = bound('createdFrom');
  const before = bound('createdBefore');
  if (from && before && from >= before) problems.push({ field: 'createdFrom', message: 'must be before createdBefore' });
  if (problems.length) throw validationFailed(problems);
  return { from, before };
}
