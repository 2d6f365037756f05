import { z } from 'zod';
import { MAX_ID } from '../../domain/validation.js';

/** Canonical decimal ids only: `01`, `+1`, `1e3`, `1.0` are not ids. */
export const CANONICAL_ID = /^[1-9][0-9]{0,9}$/;

export function parseCanonicalId(raw: string): number | null {
  if (!CANONICAL_ID.test(raw)) return null;
  const id = Number(raw);
  return id <= MAX_ID ? id : null;
}

export const idQueryParam = z
  .string()
  .refine((raw) => parseCanonicalId(raw) !== null, 'must be a positive integer')
  .transform((raw) => Number(raw));

/** ISO 8601 date-time with `Z` or an offset (decisions §6.1 `createdFrom` / `createdBefore`). */
export const isoDateTimeParam = z.iso.datetime({ offset: true });
