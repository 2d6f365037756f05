import type { Job, PgBoss } from 'pg-boss';
import { notifyChannelSql } from 'pg-boss/dist/plans.js';
import type { Alongside, JobCompletions } from './job-completions.js';
import { SerialDrain } from './serial-drain.js';

/**
 * A pg-boss consumer that keeps up to `concurrency` jobs running, each settling on its own, instead of pg-boss's
 * batch loop (fetch N, wait for the slowest of the N, fetch again): a slow job then holds one slot, not a batch.
 * Jobs carry a group (a webhook's endpoint); at most `perGroup` of one group run at once, across every worker
 * (pg-boss's `groupConcurrency`: the fetch counts the group's active jobs), and the jobs of a full group are left in
 * the queue, so one slow receiver holds at most `perGroup` slots and the others keep flowing.
 *
 * Claiming and settling are pg-boss's (SKIP LOCKED fetch, completion fenced by the claim's retry count), so the
 * guarantees are the queue's: a job runs again only when its worker died holding it (expiry) or it failed.
 * Completions are written in batches (job-completions.ts: one statement for the jobs of every queue finished meanwhile,
 * with what a handler returns to write alongside); a crash between a job's end and its completion re-runs it, which the
 * delivery handler's attempt guard makes harmless.
 *
 * Wakes on pg-boss's NOTIFY for the queue (a job inserted ready to run), on a freed slot while work is known to be
 * waiting, and every `pollingIntervalSeconds` (retries coming due, and the fallback when NOTIFY is unavailable).
 */

export interface ConcurrentWorkOptions {
  /** Jobs running at once in this process. */
  concurrency: number;
  /** Jobs of one group running at once, across all workers; unset: no limit (jobs without groups). */
  perGroup?: number;
  pollingIntervalSeconds: number;
}

/** A fetch is worth a statement once this share of the slots is free (or nothing runs). */
const REFILL_SHARE = 4;

/**
 * How long a slot freed while work is waiting waits for the others ending after it before the fetch that refills
 * them: jobs fetched together end a few ms apart, and refilled as each share of slots came free they cost a fetch and
 * a read apiece for a few jobs (emails: half a fetch and half a read per ingest at 100 ingests/s, the pipeline's
 * largest share). A NOTIFY (new work) and a worker with nothing running fetch at once.
 */
export const REFILL_GATHER_MS = 10;

export class ConcurrentWorker<T extends object> {
  private readonly running = new Map<string, Job<T>>();
  private readonly groups = new Map<string, number>();
  /** Failures written back to the queue (for retry) one at a time, one write at a time. */
  private readonly failures = new SerialDrain<{ job: Job<T>; message: string }>((failed) => this.failBack(failed));
  /** The last fetch filled every slot it asked for, or skipped full groups: more may be waiting. */
  private moreWaiting = true;
  private woken = false;
  private wake: (() => void) | null = null;
  private refill: NodeJS.Timeout | null = null;
  private stopping = false;
  private loop: Promise<void> = Promise.resolve();
  private listener: { close(): Promise<void> } | null = null;
  private idle: (() => void) | null = null;
  private stopped: Promise<boolean> | null = null;

  constructor(
    private readonly boss: PgBoss,
    private readonly name: string,
    private readonly handler: (data: T, job: Job<T>) => Promise<Alongside | void>,
    private readonly completions: JobCompletions,
    private readonly options: ConcurrentWorkOptions,
    private readonly onError: (message: string) => void,
  ) {}

  async start(): Promise<void> {
    const db = this.boss.getDb();
    if (db.listen) {
      try {
        const { rows } = await db.executeSql(`SELECT ${notifyChannelSql('pgboss')} AS channel`);
        const channel = String((rows[0] as { channel: string }).channel);
        this.listener = await db.listen(
          channel,
          (payload) => {
            if (payload === this.name) this.poke(true);
          },
          () => this.poke(true),
        );
      } catch (error) {
        // Polling still delivers, only later.
        this.onError(`listen failed, polling only: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    this.loop = this.run();
  }

  private poke(newWork: boolean): void {
    if (newWork) this.moreWaiting = true;
    this.woken = true;
    this.wake?.();
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      this.woken = false;
      const free = this.options.concurrency - this.running.size;
      if (free > 0) {
        // This fetch refills the slots freed so far: a refill timer pending would only fetch again.
        if (this.refill) clearTimeout(this.refill);
        this.refill = null;
        const { perGroup } = this.options;
        const full = perGroup === undefined ? [] : [...this.groups].filter(([, count]) => count >= perGroup).map(([group]) => group);
        try {
          // pg-boss counts each group's active jobs (of every worker) and claims no more than the limit allows.
          const jobs = await this.boss.fetch<T>(this.name, { batchSize: free, ...(perGroup === undefined ? {} : { groupConcurrency: perGroup }) });
          this.moreWaiting = jobs.length === free || full.length > 0;
          for (const job of jobs) this.begin(job);
        } catch (error) {
          this.onError(`fetch failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      if (this.stopping || this.woken) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, this.options.pollingIntervalSeconds * 1000);
        function done(): void {
          clearTimeout(timer);
          resolve();
        }
        this.wake = done;
      });
      this.wake = null;
    }
  }

  private begin(job: Job<T>): void {
    const group = job.groupId ?? null;
    if (group !== null) this.groups.set(group, (this.groups.get(group) ?? 0) + 1);
    this.running.set(job.id, job);
    void this.handler(job.data, job).then(
      (alongside) => this.end(job, group, null, alongside ?? null),
      (error: unknown) => this.end(job, group, error instanceof Error ? error.message : String(error), null),
    );
  }

  private end(job: Job<T>, group: string | null, failure: string | null, alongside: Alongside | null): void {
    this.running.delete(job.id);
    let groupFreed = false;
    if (group !== null) {
      const left = (this.groups.get(group) ?? 1) - 1;
      groupFreed = this.options.perGroup !== undefined && left === this.options.perGroup - 1;
      if (left > 0) this.groups.set(group, left);
      else this.groups.delete(group);
    }
    if (failure === null) this.completions.add({ name: this.name, id: job.id, retryCount: job.retryCount }, alongside);
    else {
      this.failures.push({ job, message: failure });
      void this.failures.drain();
    }
    const free = this.options.concurrency - this.running.size;
    if (this.moreWaiting && this.running.size === 0) this.refillNow();
    else if (this.moreWaiting && (groupFreed || free * REFILL_SHARE >= this.options.concurrency)) this.refill ??= setTimeout(() => this.refillNow(), REFILL_GATHER_MS);
    if (this.running.size === 0) this.idle?.();
  }

  private refillNow(): void {
    if (this.refill) clearTimeout(this.refill);
    this.refill = null;
    this.poke(false);
  }

  private async failBack(failed: { job: Job<T>; message: string }[]): Promise<void> {
    for (const { job, message } of failed) {
      try {
        await this.boss.fail(this.name, { id: job.id, retryCount: job.retryCount }, { message });
      } catch (error) {
        // The job stays active and expires into a retry: at least once, never lost.
        this.onError(`settling failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  /**
   * Stops fetching and waits up to `timeoutMs` for the running jobs; the ones still running then are failed back to
   * the queue (retried, by another worker or after a restart). True when every job finished in time.
   */
  stop(timeoutMs: number): Promise<boolean> {
    this.stopped ??= this.drain(timeoutMs);
    return this.stopped;
  }

  /** Stops fetching at once and leaves the running jobs to expire into retries (the queue is closing without grace). */
  async abandon(): Promise<void> {
    this.stopping = true;
    if (this.refill) clearTimeout(this.refill);
    this.wake?.();
    await this.loop;
    await this.listener?.close().catch(() => undefined);
  }

  private async drain(timeoutMs: number): Promise<boolean> {
    this.stopping = true;
    if (this.refill) clearTimeout(this.refill);
    this.wake?.();
    await this.loop;
    await this.listener?.close().catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const drained =
      this.running.size === 0 ||
      (await Promise.race([
        new Promise<boolean>((resolve) => (this.idle = () => resolve(true))),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
      ]));
    clearTimeout(timer);
    await Promise.all([this.failures.drain(), this.completions.flush()]);
    const cut = [...this.running.values()];
    if (cut.length) {
      await this.boss
        .fail(this.name, cut.map((job) => ({ id: job.id, retryCount: job.retryCount })), { message: 'worker stopped' })
        .catch((error: unknown) => this.onError(`failing back failed: ${error instanceof Error ? error.message : String(error)}`));
    }
    return drained;
  }
}
