import { z } from 'zod';
import { parseIsoDateTime } from '../../domain/created-range.js';
import { idTextWith } from '../../domain/validation.js';

/** A query-string id (`domainId`, contract §5): the canonical id rule, with v1's message. */
export const idQueryParam = idTextWith('must be a positive integer');

/**
 * ISO 8601 date-time with `Z` or an offset (contract §6.1 `createdFrom` / `createdBefore`), also a calendar
 * instant PostgreSQL can hold (created-range.ts: no year 0, no 30 February) so that the DateTime scalar behind
 * the route never meets a value the route let through.
 */
export const isoDateTimeParam = z.iso
  .datetime({ offset: true })
  .refine((raw) => parseIsoDateTime(raw) !== null, {
    message: 'must be an ISO 8601 date-time between years 1 and 9999 with an offset or Z',
    // Only once the format holds: a malformed value gets the one format message.
    when: (payload) => payload.issues.length === 0,
  });
