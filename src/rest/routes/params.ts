import { idTextWith, parseIdText } from '../../domain/validation.js';

/** A query-string id (`domainId`, decisions §5): the canonical id rule, with v1's message. */
export const idQueryParam = idTextWith('must be a positive integer');

/**
 * A path id as it arrives (still percent-encoded), or null: decoded, then the one canonical id rule (idText).
 * Malformed encodings (`%`, `%zz`, `%C0%AF`) make decodeURIComponent throw: they are just another malformed id
 * (400 `invalid_id`), never a 500.
 */
export function parsePathId(raw: string): number | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return null;
  }
  return parseIdText(decoded);
}
