import { AsyncLocalStorage } from 'node:async_hooks';
import { getRandomValues } from 'node:crypto';

/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/#traceparent-header): `version-traceid-parentid-flags`, all
 * lowercase hex. Version ff is invalid, as are an all-zero trace or parent id; a future version may append fields
 * after the flags, version 00 may not.
 */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_PARENT = '0'.repeat(16);

/** One span's place in a trace: what a request, a fan-out or a job runs under, and what it hands on to what it causes. */
export interface TraceContext {
  traceId: string;
  spanId: string;
  /** The W3C `sampled` flag: an exporter records the span (and its children) only when it is set. */
  sampled: boolean;
}

/** A valid `traceparent` header as a context, or null (absent or malformed: the header is then ignored). */
export function parseTraceparent(traceparent: string | null | undefined): TraceContext | null {
  if (typeof traceparent !== 'string' || traceparent.length > 512) return null;
  const match = TRACEPARENT.exec(traceparent.trim());
  if (!match) return null;
  const [, version, traceId, spanId, flags, rest] = match;
  if (version === 'ff' || (version === '00' && rest !== undefined) || traceId === ZERO_TRACE || spanId === ZERO_PARENT) return null;
  return { traceId: traceId!, spanId: spanId!, sampled: (Number.parseInt(flags!, 16) & 1) === 1 };
}

/** The trace id of a valid `traceparent` header, or null. */
export function traceIdOf(traceparent: string | null): string | null {
  return parseTraceparent(traceparent)?.traceId ?? null;
}

/** The version-00 header of a context: what a job's data and an outbox row carry. */
export const formatTraceparent = (context: TraceContext): string => `00-${context.traceId}-${context.spanId}-${context.sampled ? '01' : '00'}`;

/**
 * Random bytes drawn 4 KB at a time, as randomUUID does: a draw per request cost 2.6 µs (randomBytes), from the pool
 * 0.3 µs. Process memory, never shared: ids are correlation keys, not secrets.
 */
const pool = new Uint8Array(4096);
let used = pool.length;
function randomHex(bytes: number): string {
  if (used + bytes > pool.length) {
    getRandomValues(pool);
    used = 0;
  }
  used += bytes;
  return Buffer.from(pool.buffer, used - bytes, bytes).toString('hex');
}

/**
 * A new span's context without an exporter: the parent's trace (or a new random one) and a random span id, so that
 * log lines correlate whether tracing export is on or not. (A zero id, which W3C forbids, has odds of 2^-64.)
 */
export function childContext(parent: TraceContext | null): TraceContext {
  const spanId = randomHex(8);
  return parent ? { traceId: parent.traceId, spanId, sampled: parent.sampled } : { traceId: randomHex(16), spanId, sampled: true };
}

/**
 * The context of the work under way (a request, a job), so that what it enqueues or records (an outbox row, a job)
 * carries it on without every function in between passing it along.
 */
const current = new AsyncLocalStorage<TraceContext>();

export const runInTrace = <T>(context: TraceContext, work: () => T): T => current.run(context, work);

export const currentTrace = (): TraceContext | null => current.getStore() ?? null;

/** The `traceparent` of the work under way, for a row or job it causes; null outside any. */
export function currentTraceparent(): string | null {
  const context = current.getStore();
  return context ? formatTraceparent(context) : null;
}
