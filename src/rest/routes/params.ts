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

/**
 * A path id as it arrives (still percent-encoded), or null. Malformed encodings (`%`, `%zz`, `%C0%AF`) make
 * decodeURIComponent throw: they are just another malformed id (400 `invalid_id`), never a 500.
 */
export function parsePathId(raw: string): number | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return null;
  }
  return parseCanonicalId(decoded);
}
