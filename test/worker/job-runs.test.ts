import type { Job } from 'pg-boss';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runJob, withTrace } from '../../src/infra/job-runs.js';
import { currentTraceparent, runInTrace, traceIdOf } from '../../src/infra/trace-context.js';

/**
 * A job's span and log line continue the trace that enqueued it; a job of items (the emails of a relay pass's
 * submissions) continues each item's: one line per trace, the work running under the first.
 */

const traceparent = (n: number) => `00-${String(n).padStart(32, '0')}-${String(n).padStart(16, '0')}-01`;
const jobOf = <T extends object>(data: T) => ({ id: 'job-1', name: 'email.send', data }) as unknown as Job<T>;

function jobLines(): Record<string, unknown>[] {
  const lines: Record<string, unknown>[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    const line = JSON.parse(String(chunk)) as Record<string, unknown>;
    if (line.msg === 'job done' || line.msg === 'job failed') lines.push(line);
    return true;
  });
  return lines;
}

afterEach(() => vi.restoreAllMocks());

describe('job runs', () => {
  it('logs a job of items once per trace its items carry, each with that trace id', async () => {
    const lines = jobLines();
    const data = { kind: 'submission_emails', items: [{ traceparent: traceparent(1) }, { traceparent: traceparent(2) }, { traceparent: traceparent(1) }, {}] };
    let during: string | null = null;
    await runJob('email.send', jobOf(data), async () => void (during = currentTraceparent()), true);
    vi.restoreAllMocks();
    const traceIds = lines.map((line) => line.traceId as string);
    // Traces 1 and 2 once each, and a trace of its own for the item that carries none.
    expect(traceIds).toHaveLength(3);
    expect(traceIds.slice(0, 2)).toStrictEqual([traceIdOf(traceparent(1)), traceIdOf(traceparent(2))]);
    expect(traceIds[2]).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(traceIds).size).toBe(3);
    expect(lines.every((line) => line.queue === 'email.send' && line.jobId === 'job-1')).toBe(true);
    // The work ran under the first trace (a child span of it).
    expect(traceIdOf(during)).toBe(traceIdOf(traceparent(1)));
  });

  it('logs a failing job of items once per trace, as failed', async () => {
    const lines = jobLines();
    const data = { items: [{ traceparent: traceparent(3) }, { traceparent: traceparent(4) }] };
    await expect(runJob('email.send', jobOf(data), () => Promise.reject(new Error('421')), true)).rejects.toThrow('421');
    vi.restoreAllMocks();
    expect(lines.map((line) => [line.msg, line.traceId])).toStrictEqual([
      ['job failed', traceIdOf(traceparent(3))],
      ['job failed', traceIdOf(traceparent(4))],
    ]);
  });

  it("stores a job's trace beside its data, and leaves a job of items with its items' alone", () => {
    expect(withTrace({ deliveryId: 1 }, traceparent(5))).toStrictEqual({ deliveryId: 1, traceparent: traceparent(5) });
    const items = { items: [{ traceparent: traceparent(6) }] };
    expect(runInTrace({ traceId: '7'.repeat(32), spanId: '7'.repeat(16), sampled: true }, () => withTrace(items))).toStrictEqual(items);
  });
});
