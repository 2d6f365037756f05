import type { Job } from 'pg-boss';
import { errorKind, logger } from './log.js';
import { currentTraceparent, parseTraceparent, runInTrace } from './trace-context.js';
import type { OpenSpan } from './span.js';
import { startSpan } from './tracing.js';

/**
 * Each job runs under a span of its own, a child of the trace its data carries (`traceparent`: the request, the
 * fan-out or the job that enqueued it), and logs one line when it ends, with that trace id (decisions §7.5): a
 * request's log line and the lines of every job it caused share one `traceId`, exported or not.
 */

/** Job data as stored: the caller's fields and the trace of what enqueued it. */
export type Traced<T extends object> = T & { traceparent?: string };

/**
 * `data` with the trace it continues: `traceparent` when given (the fan-out names each event's), else the work under
 * way's (a request, a job), else none (a schedule's job starts a trace of its own).
 */
export function withTrace<T extends object>(data: T, traceparent?: string | null): Traced<T> {
  const trace = traceparent ?? currentTraceparent();
  return trace ? { ...data, traceparent: trace } : data;
}

function jobSpan(queue: string, job: Job<object>): OpenSpan {
  const parent = parseTraceparent((job.data as { traceparent?: unknown }).traceparent as string | undefined);
  // The queue names the span; the job's id is a derived key, never an attribute.
  return startSpan(`${queue} process`, parent, {
    kind: 'consumer',
    attributes: { 'messaging.system': 'pg-boss', 'messaging.operation.type': 'process', 'messaging.destination.name': queue },
  });
}

const elapsed = (started: number): number => Math.round((performance.now() - started) * 10) / 10;

/** The name and code only: a message may quote job data (a rejected recipient's address, say). */
function endJob(queue: string, job: Job<object>, span: OpenSpan, started: number, log: boolean, error?: unknown): void {
  span.end({ failed: error !== undefined });
  const line = { queue, jobId: job.id, traceId: span.context.traceId, ms: elapsed(started) };
  // A failure is always logged (a warning); a success when job lines are on (LOG_JOBS).
  if (error !== undefined) logger.warn({ ...line, error: errorKind(error) }, 'job failed');
  else if (log) logger.info(line, 'job done');
}

/** Runs one job under its span; what it records or enqueues carries the span on. Rethrows the job's error. */
export async function runJob<T extends object, R = void>(queue: string, job: Job<T>, work: () => Promise<R>, log: boolean): Promise<R> {
  const started = performance.now();
  const span = jobSpan(queue, job);
  let result: R;
  try {
    result = await runInTrace(span.context, work);
  } catch (error) {
    endJob(queue, job, span, started, log, error);
    throw error;
  }
  endJob(queue, job, span, started, log);
  return result;
}

/**
 * Runs a batch of jobs as one piece of work (one transaction): each job still gets its span and line, spanning the
 * batch. Rethrows the batch's error with no line: the caller then runs each job alone (`runJob`), which logs.
 */
export async function runJobBatch<T extends object>(queue: string, jobs: Job<T>[], work: () => Promise<void>, log: boolean): Promise<void> {
  const started = performance.now();
  const spans = jobs.map((job) => jobSpan(queue, job));
  try {
    await work();
  } catch (error) {
    for (const span of spans) span.end({ failed: true });
    throw error;
  }
  jobs.forEach((job, i) => endJob(queue, job, spans[i]!, started, log));
}
