/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/#traceparent-header): `version-traceid-parentid-flags`, all
 * lowercase hex. Version ff is invalid, as are an all-zero trace or parent id; a future version may append fields
 * after the flags, version 00 may not.
 */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_PARENT = '0'.repeat(16);

/** The trace id of a valid `traceparent` header, or null (absent or malformed: the header is then ignored). */
export function traceIdOf(traceparent: string | null): string | null {
  if (traceparent === null || traceparent.length > 512) return null;
  const match = TRACEPARENT.exec(traceparent.trim());
  if (!match) return null;
  const [, version, traceId, parentId, , rest] = match;
  if (version === 'ff' || (version === '00' && rest !== undefined) || traceId === ZERO_TRACE || parentId === ZERO_PARENT) return null;
  return traceId ?? null;
}
