import { z } from 'zod';
import { validationFailed } from '../errors.js';
import { parseIsoDateTime } from './created-range.js';

/**
 * Decisions §6.1: the createdAt window of the submissions, bookings and orders lists, the same rules on REST
 * and GraphQL. `createdFrom` is inclusive and `createdBefore` exclusive, so that consecutive windows
 * [a, b), [b, c) neither overlap nor leave a gap, and a fixed `createdBefore` keeps a walk's pages still.
 */
export interface CreatedRange {
  createdFrom?: Date | null;
  createdBefore?: Date | null;
}

/**
 * A query-string timestamp: 400 `validation_failed` naming the parameter when it does not parse. It stays a
 * string: it travels as a variable to the pinned operation, whose DateTime scalar parses it with the same parser (created-range.ts).
 */
export const isoTimestampParam = z
  .string()
  // An unencoded `+01:00` arrives as ` 01:00` (a `+` in a query string means a space): read it as meant.
  .transform((raw) => raw.replace(/ (\d{2}:\d{2})$/, '+$1'))
  .refine((raw) => parseIsoDateTime(raw) !== null, 'must be an ISO 8601 date-time with an offset or Z, e.g. 2026-01-31T00:00:00Z');

export const createdRangeQuery = {
  createdFrom: isoTimestampParam.optional().describe('inclusive lower bound of createdAt (ISO 8601 with offset)'),
  createdBefore: isoTimestampParam.optional().describe('exclusive upper bound of createdAt (ISO 8601 with offset); fix it to walk a growing list'),
};

/** Both transports call this before the lookup (decided check order: input before 404). */
export function assertCreatedRange(range: CreatedRange): void {
  if (range.createdFrom != null && range.createdBefore != null && range.createdFrom >= range.createdBefore) {
    throw validationFailed([{ field: 'createdFrom', message: 'must be before createdBefore' }]);
  }
}

/**
 * How a filtered list counts its total. A counter column holds the unfiltered total; a window bounded below
 * counts its rows along the (parent, createdAt) index, and a window bounded only above (the sync recipe: a
 * fixed createdBefore near now) subtracts the few rows at or after it from the counter, so that neither cost
 * grows with the rows outside the window.
 */
export type TotalPlan = { kind: 'counter' } | { kind: 'count' } | { kind: 'counterMinusNewer'; createdBefore: Date };

export function totalPlan(range: CreatedRange, otherFilter: boolean): TotalPlan {
  if (!otherFilter && range.createdFrom == null && range.createdBefore == null) return { kind: 'counter' };
  if (!otherFilter && range.createdFrom == null && range.createdBefore != null) return { kind: 'counterMinusNewer', createdBefore: range.createdBefore };
  return { kind: 'count' };
}
