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

/**
 * A body of one member, `name`, documented by `meta`: unknown members are reported alone (400 validation_failed),
 * before `problem` (the member's message, or null when it is fine), as v1 always answered. The member's own rules
 * are the service's, shared with GraphQL.
 */
export function oneMemberBody<K extends string>(name: K, meta: { type: string; description: string }, problem: (value: unknown) => string | null) {
  return z.looseObject({ [name]: z.unknown().meta(meta) } as Record<K, z.ZodUnknown>, { error: 'must be a JSON object' }).superRefine((body, ctx) => {
    const unknown = Object.keys(body).filter((key) => key !== name);
    for (const key of unknown) ctx.addIssue({ code: 'custom', path: [key], message: 'unknown field' });
    const message = unknown.length ? null : problem(body[name]);
    if (message) ctx.addIssue({ code: 'custom', path: [name], message });
  });
}
