import type { Job } from 'pg-boss';
import { errorKind, logger } from './log.js';
import { currentTraceparent, parseTraceparent, runInTrace } from './trace-context.js';
import type { OpenSpan } from './span.js';
import { startSpan } from './tracing.js';

/**
 * Each job runs under a span of its own, a child of the trace its data carries (`traceparent`: the request, the
 * fan-out or the job that enqueued it), and logs one line when it ends, with that trace id (decisions §7.5): a
 * request's log line and the lines of every job it caused share one `traceId`, exported or not. A job of several
 * pieces of work (`items`: the emails of several submissions) continues each piece's trace instead: a span and a line
 * per trace it carries.
 */

/** Job data as stored: the caller's fields and the trace of what enqueued it. */
export type Traced<T extends object> = T & { traceparent?: string };

/** Job data of several pieces of work, each continuing a trace of its own. */
interface TracedItems {
  items: { traceparent?: string | null }[];
}

const hasItems = (data: object): data is TracedItems => Array.isArray((data as Partial<TracedItems>).items);

/**
 * `data` with the trace it continues: `traceparent` when given (the fan-out names each event's), else the work under
 * way's (a request, a job), else none (a schedule's job starts a trace of its own). A job of items keeps its items'.
 */
export function withTrace<T extends object>(data: T, traceparent?: string | null): Traced<T> {
  if (hasItems(data)) return data;
  const trace = traceparent ?? currentTraceparent();
  return trace ? { ...data, traceparent: trace } : data;
}

/** The traces a job continues: its own, or each of its items' (once each; an item without one starts a trace). */
function tracesOf(data: object): (string | undefined)[] {
  if (!hasItems(data)) return [(data as { traceparent?: string }).traceparent];
  const traces = [...new Set(data.items.map((item) => item.traceparent ?? undefined))];
  return traces.length ? traces : [undefined];
}

function jobSpans(queue: string, job: Job<object>): OpenSpan[] {
  // The queue names the span; the job's id is a derived key, never an attribute.
  return tracesOf(job.data).map((traceparent) =>
    startSpan(`${queue} process`, parseTraceparent(traceparent), {
      kind: 'consumer',
      attributes: { 'messaging.system': 'pg-boss', 'messaging.operation.type': 'process', 'messaging.destination.name': queue },
    }),
  );
}

const elapsed = (started: number): number => Math.round((performance.now() - started) * 10) / 10;

/** The name and code only: a message may quote job data (a rejected recipient's address, say). */
function endJob(queue: string, job: Job<object>, spans: OpenSpan[], started: number, log: boolean, error?: unknown): void {
  for (const span of spans) {
    span.end({ failed: error !== undefined });
    const line = { queue, jobId: job.id, traceId: span.context.traceId, ms: elapsed(started) };
    // A failure is always logged (a warning); a success when job lines are on (LOG_JOBS).
    if (error !== undefined) logger.warn({ ...line, error: errorKind(error) }, 'job failed');
    else if (log) logger.info(line, 'job done');
  }
}

/**
 * Runs one job under its span (a job of items: under its first trace's); what it records or enqueues carries the span
 * on. Rethrows the job's error.
 */
export async function runJob<T extends object, R = void>(queue: string, job: Job<T>, work: () => Promise<R>, log: boolean): Promise<R> {
  const started = performance.now();
  const spans = jobSpans(queue, job);
  let result: R;
  try {
    result = await runInTrace(spans[0]!.context, work);
  } catch (error) {
    endJob(queue, job, spans, started, log, error);
    throw error;
  }
  endJob(queue, job, spans, started, log);
  return result;
}

/**
 * Runs a batch of jobs as one piece of work (one transaction): each job still gets its span and line, spanning the
 * batch. Rethrows the batch's error with no line: the caller then runs each job alone (`runJob`), which logs.
 */
export async function runJobBatch<T extends object>(queue: string, jobs: Job<T>[], work: () => Promise<void>, log: boolean): Promise<void> {
  const started = performance.now();
  const spans = jobs.map((job) => jobSpans(queue, job));
  try {
    await work();
  } catch (error) {
    for (const span of spans.flat()) span.end({ failed: true });
    throw error;
  }
  jobs.forEach((job, i) => endJob(queue, job, spans[i]!, started, log));
}
