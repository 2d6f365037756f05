/**
 * The graceful stop of a replica (README "Running several replicas"): readiness turns false first, the listener
 * stays open `delayMs` so that a load balancer polling /readyz stops sending here before connections are refused,
 * then in-flight requests and jobs finish within `timeoutMs`, then connections are closed in order. What is still
 * running at the deadline is cut: requests are reset, jobs are failed back to the queue for another worker to retry.
 */
import type { Logger } from 'pino';

/** What /readyz reads: false from the first signal on. */
export interface Readiness {
  readonly draining: boolean;
}

export interface ShutdownStep {
  name: string;
  /** Gets the milliseconds left before the deadline (never less than 0). Returns how much work it had to cut. */
  run(msLeft: number): Promise<number | void>;
}

export interface ShutdownPlan {
  /** Run together once the listener may close: the HTTP drain and the job drain. */
  drain: ShutdownStep[];
  /** Run one after the other after the drain: the queue, Redis, the database. */
  close: ShutdownStep[];
}

export interface ShutdownOptions {
  delayMs: number;
  timeoutMs: number;
  log: Pick<Logger, 'warn' | 'error'>;
}

/** The least a closing step gets after the deadline (closing sockets and pools takes a moment even when idle). */
const CLOSE_GRACE_MS = 1_000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs the plan; resolves with the exit code: 0 when everything finished in time, 1 when something was cut. */
export async function runShutdown(plan: ShutdownPlan, options: ShutdownOptions): Promise<number> {
  if (options.delayMs > 0) await sleep(options.delayMs);
  const deadline = Date.now() + options.timeoutMs;
  const msLeft = (): number => Math.max(0, deadline - Date.now());
  let cut = 0;
  const results = await Promise.allSettled(plan.drain.map(async (step) => ({ step: step.name, cut: (await step.run(msLeft())) ?? 0 })));
  for (const result of results) {
    if (result.status === 'fulfilled') {
      cut += result.value.cut;
      if (result.value.cut > 0) options.log.warn({ step: result.value.step, count: result.value.cut }, 'cut at the shutdown deadline');
    } else {
      cut += 1;
      options.log.error({ error: String(result.reason) }, 'shutdown step failed');
    }
  }
  for (const step of plan.close) {
    try {
      // Bounded too: closing a pool waits for its queries, and one may still be blocked after the deadline.
      let timer: NodeJS.Timeout | undefined;
      const limit = new Promise<number>((resolve) => (timer = setTimeout(() => resolve(1), Math.max(msLeft(), CLOSE_GRACE_MS))));
      cut += (await Promise.race([step.run(msLeft()).then((n) => n ?? 0), limit])) ?? 0;
      clearTimeout(timer);
    } catch (error) {
      cut += 1;
      options.log.error({ step: step.name, error: error instanceof Error ? error.message : String(error) }, 'shutdown step failed');
    }
  }
  return cut === 0 ? 0 : 1;
}

/**
 * Calls `stop` once on SIGTERM or SIGINT. SIGINT (Ctrl-C in a terminal) skips the readiness delay: nobody balances
 * load onto a developer's terminal. A second signal while stopping is ignored; the deadline bounds the stop anyway.
 */
export function onStopSignal(stop: (signal: 'SIGTERM' | 'SIGINT') => Promise<number>): void {
  let stopping = false;
  const handle = (signal: 'SIGTERM' | 'SIGINT'): void => {
    if (stopping) return;
    stopping = true;
    void stop(signal).then(
      (code) => process.exit(code),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => handle('SIGTERM'));
  process.on('SIGINT', () => handle('SIGINT'));
}
