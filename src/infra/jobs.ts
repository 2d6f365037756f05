import { fromPglite, fromPrisma, PgBoss, type Db, type Job, type JobInsert, type JobResult, type Queue } from 'pg-boss';
import type { Config } from '../config.js';
import type { Database } from './db.js';
import { ConcurrentWorker, type ConcurrentWorkOptions } from './concurrent-worker.js';
import { JobQueueDb } from './job-queue-db.js';
import { JobCompletions, type Alongside } from './job-completions.js';
import { logger } from './log.js';
import { runJob, runJobBatch, withTrace } from './job-runs.js';
import type { Prisma } from '../generated/prisma/client.js';

/**
 * The durable job queue (pg-boss) on the service's own database, the project's PostgreSQL or the
 * embedded PGlite. Jobs are inserted in the same transaction as the rows that cause them
 * (`enqueueInTransaction`: the relay's taking events off the outbox, the fan-out's deliveries), so nothing
 * rolled back is sent and nothing committed is lost. Workers on any number of processes claim jobs with
 * SKIP LOCKED: each job runs once in the normal case, and again (at least once) only after a worker died
 * holding it.
 */

export const QUEUE = {
  eventFanout: 'event.fanout',
  webhookDelivery: 'webhook.deliver',
  emailSend: 'email.send',
  verificationLapse: 'verification.lapse',
  erasureRun: 'erasure.run',
  retention: 'events.retention',
} as const;
export type QueueName = (typeof QUEUE)[keyof typeof QUEUE];

/** Where a job lands after its last pg-boss retry: kept for inspection and `redrive`, never run. */
export const deadLetterOf = (name: QueueName): string => `${name}.dead`;

/**
 * pg-boss-level retries cover crashes and unexpected errors (database down, a bug); the webhook retry
 * schedule of the contract is the delivery job's own (it records `nextAttemptAt`). Backoff is pg-boss's
 * exponential `retryDelay * 2^n` with jitter in [½, 1], capped.
 */
const QUEUE_OPTIONS: Record<QueueName, Omit<Queue, 'name'>> = {
  [QUEUE.eventFanout]: { retryLimit: 10, retryDelay: 5, retryBackoff: true, retryDelayMax: 600, expireInSeconds: 60 },
  [QUEUE.webhookDelivery]: { retryLimit: 6, retryDelay: 15, retryBackoff: true, retryDelayMax: 3600, expireInSeconds: 60 },
  [QUEUE.emailSend]: { retryLimit: 8, retryDelay: 30, retryBackoff: true, retryDelayMax: 3 * 3600, expireInSeconds: 120 },
  [QUEUE.verificationLapse]: { retryLimit: 2, retryDelay: 300, retryBackoff: true, expireInSeconds: 3600 },
  // A long run (every submission of an account) keeps its claim by heartbeat: a worker that dies is noticed
  // within ~heartbeat + supervision, and the retry resumes from the request's committed cursor.
  [QUEUE.erasureRun]: { retryLimit: 20, retryDelay: 5, retryBackoff: true, retryDelayMax: 300, expireInSeconds: 6 * 3600, heartbeatSeconds: 10 },
  [QUEUE.retention]: { retryLimit: 2, retryDelay: 300, retryBackoff: true, expireInSeconds: 3600 },
};

export interface JobQueueOptions {
  db: Database;
  /** Required when `db` is PostgreSQL: pg-boss keeps its own small pool (and a LISTEN connection). */
  databaseUrl: string | null;
  /** `transaction`: databaseUrl is a pooler in transaction mode, so pg-boss's statements are not prepared by name. */
  databasePooler?: 'none' | 'transaction';
  /** Where the LISTEN connection goes (never through a pooler). Default: databaseUrl. */
  directDatabaseUrl?: string | null;
  /** pg-boss's pool on PostgreSQL (config `jobQueuePoolSize`). Default 4. */
  poolSize?: number;
  /**
   * Hold a LISTEN connection, so that workers of this process hear inserts at once (default true). Off for a
   * producer-only process (a gateway beside separate workers): it inserts jobs and never takes any.
   */
  listen?: boolean;
  /** Run pg-boss's schedules (cron). Off for a producer-only instance. Default true. */
  schedule?: boolean;
  /** Tests: how soon a job held by a dead worker is noticed (pg-boss `superviseIntervalSeconds`). */
  superviseIntervalSeconds?: number;
  /** A line per job run (job-runs.ts), and per event the relay fans out (config `logJobs`). Default false. */
  logJobs?: boolean;
  /** Tests: per-queue overrides, e.g. a short `expireInSeconds` for the crash-recovery test. */
  queueOverrides?: Partial<Record<QueueName, Omit<Queue, 'name'>>>;
}

export interface EnqueueJob<T extends object> {
  data: T;
  /** A uuid derived from what the job is for: inserting it again (a re-run of its producer) does nothing. */
  id?: string;
  /** Not before this time (retries of a delivery). */
  startAfter?: Date;
  /** What the job is for, when a consumer limits how many of one kind run at once (a webhook's endpoint). */
  group?: string;
  /** The trace the job continues (job-runs.ts); default: the work under way's (a request, a job). */
  traceparent?: string | null;
}

export interface WorkOptions {
  /** Jobs claimed per fetch (and run concurrently). */
  batchSize?: number;
  /**
   * How often the worker looks for jobs without being woken: inserts NOTIFY it at once, but a retry
   * whose `startAfter` comes due does not, so this bounds a retry's lateness. Default 2 s.
   */
  pollingIntervalSeconds?: number;
}

/** A job handler: resolve for success; throw to let pg-boss retry (then dead-letter). */
export type JobHandler<T> = (data: T, job: Job<T>) => Promise<void>;

/** A concurrent worker's handler (`workConcurrently`): may resolve with a write to make with its job's completion. */
export type ConcurrentJobHandler<T> = (data: T, job: Job<T>) => Promise<Alongside | void>;

/** pg-boss's `db` over an interactive Prisma transaction: the job commits or rolls back with it. */
export function transactionDb(tx: Prisma.TransactionClient): Db {
  return fromPrisma(tx);
}

export class JobQueue {
  private stopped = false;
  private readonly concurrentWorkers: Pick<ConcurrentWorker<object>, 'stop' | 'abandon'>[] = [];
  /** Each queue's job table (pg-boss's `table_name`), read at start-up. */
  private readonly tables = new Map<string, string>();
  /** Each queue's retry settings as stored (tests' overrides included), read at start-up. */
  private readonly retries = new Map<string, RetrySettings>();
  /** The completions of the concurrent workers' jobs, every queue's in one statement (job-completions.ts). */
  readonly completions: JobCompletions;

  private constructor(
    readonly boss: PgBoss,
    private readonly database: Database,
    /** Whether each job run (and each event fanned out) writes its line. */
    readonly logJobs: boolean,
  ) {
    this.completions = new JobCompletions(
      database,
      (name) => this.tables.get(name) ?? 'job_common',
      (message) => {
        if (!this.stopped) logger.error({ error: message }, 'job queue');
      },
    );
  }

  static async start(options: JobQueueOptions): Promise<JobQueue> {
    const { db } = options;
    const common = {
      useListenNotify: options.listen ?? true,
      schedule: options.schedule ?? true,
      // Expired jobs (their worker died) are failed-for-retry by a pass every max(monitor, supervise):
      // both set, so a dead worker's deliveries resume within ~expiry + this, not the 60 s default.
      superviseIntervalSeconds: options.superviseIntervalSeconds ?? 30,
      monitorIntervalSeconds: options.superviseIntervalSeconds ?? 30,
      // Warnings and stats are operator tooling we do not read; keep the embedded database quiet.
      monitorVacuum: false,
      reindex: false,
    } as const;
    let boss: PgBoss;
    if (db.kind === 'pglite') {
      if (!db.pglite) throw new Error('The embedded database does not expose its PGlite instance');
      boss = new PgBoss({ ...common, db: fromPglite(db.pglite), backend: 'pglite' });
    } else {
      if (!options.databaseUrl) throw new Error('JobQueue on PostgreSQL needs databaseUrl');
      const jobDb = new JobQueueDb({
        connectionString: options.databaseUrl,
        directConnectionString: options.directDatabaseUrl ?? options.databaseUrl,
        max: options.poolSize ?? 4,
        application_name: 'widgets-gateway-jobs',
        namedStatements: options.databasePooler !== 'transaction',
      });
      boss = new PgBoss({ ...common, db: jobDb });
    }
    // Errors of background loops (a poll while the database restarts) are retried by pg-boss itself;
    // without a listener EventEmitter would crash the process. Messages only: never job data.
    boss.on('error', (error) => {
      if (!/stopp|closed|terminat|not opened/i.test(error.message)) logger.error({ error: error.message }, 'job queue');
    });
    await boss.start();
    const queue = new JobQueue(boss, db, options.logJobs ?? false);
    await queue.ensureQueues(options.queueOverrides ?? {});
    return queue;
  }

  /**
   * Queues must exist and sit in pg-boss's cache before any `send` inside a Prisma transaction: on the
   * one PGlite connection a cache miss would query outside the transaction and wait for it forever.
   */
  private async ensureQueues(overrides: Partial<Record<QueueName, Omit<Queue, 'name'>>>): Promise<void> {
    const existing = new Set((await this.boss.getQueues()).map((q) => q.name));
    for (const name of Object.values(QUEUE)) {
      const dead = deadLetterOf(name);
      if (!existing.has(dead)) await this.boss.createQueue(dead, { retentionSeconds: 14 * 24 * 3600 });
      const options = { ...QUEUE_OPTIONS[name], ...overrides[name], deadLetter: dead, notify: true };
      if (existing.has(name)) await this.boss.updateQueue(name, options);
      else await this.boss.createQueue(name, options);
    }
    for (const { name, table, retryLimit = 0, retryDelay = 0, retryBackoff = false, retryDelayMax } of await this.boss.getQueues()) {
      this.tables.set(name, table);
      this.retries.set(name, { retryLimit, retryDelay, retryBackoff, ...(retryDelayMax ? { retryDelayMax } : {}) });
    }
    for (const name of Object.values(QUEUE)) {
      // Warms pg-boss's queue cache (a lookup that matches nothing).
      await this.boss.findJobs(name, { id: '00000000-0000-0000-0000-000000000000' });
      await this.boss.findJobs(deadLetterOf(name), { id: '00000000-0000-0000-0000-000000000000' });
    }
  }

  get databaseKind(): Database['kind'] {
    return this.database.kind;
  }

  /**
   * Inserts jobs of one queue in ONE statement inside the caller's transaction. `db`: a driver transaction
   * (`Database.transaction`), or a Prisma one through `transactionDb(tx)`.
   */
  async enqueueInTransaction<T extends object>(db: Db, name: QueueName, jobs: EnqueueJob<T>[]): Promise<void> {
    if (jobs.length === 0) return;
    await this.boss.insert(name, jobs.map(jobInsert), { db });
  }

  /**
   * Inserts, in ONE statement of their own, jobs that carry on part of a job that has run `retryCount + 1` times (a
   * submission's email kind that failed while the others were sent): they get what is left of that job's retries and
   * back off from where its tries left off, so that splitting work off never gives it a fresh budget and schedule.
   * With no try left they go to the queue's dead letter, as the job itself would have. Resolves with where they went.
   */
  async enqueueContinuation<T extends object>(name: QueueName, retryCount: number, jobs: Omit<EnqueueJob<T>, 'startAfter'>[]): Promise<'retry' | 'dead letter'> {
    const settings = this.retries.get(name);
    if (!settings) throw new Error(`Queue ${name} was not read at start-up`);
    const continued = continuation(settings, retryCount);
    if (!continued) {
      if (jobs.length) await this.boss.insert(deadLetterOf(name), jobs.map(jobInsert));
      return 'dead letter';
    }
    if (jobs.length) await this.boss.insert(name, jobs.map((job) => ({ ...jobInsert(job), ...continued })));
    return 'retry';
  }

  /** Outside a transaction (or inside one with `tx`). */
  async send<T extends object>(name: QueueName, data: T, options: { startAfter?: Date; tx?: Prisma.TransactionClient } = {}): Promise<void> {
    await this.boss.send(name, withTrace(data), {
      ...(options.startAfter ? { startAfter: options.startAfter } : {}),
      ...(options.tx ? { db: transactionDb(options.tx) } : {}),
    });
  }

  /**
   * Runs `handler` for each job; a batch is claimed at once and run concurrently, each job settling on
   * its own. LISTEN/NOTIFY wakes the worker on insert, and a full batch fetches again without sleeping.
   */
  async work<T extends object>(name: QueueName, handler: JobHandler<T>, options: WorkOptions = {}): Promise<string> {
    return this.boss.work<T>(
      name,
      batchWorkOptions(options),
      async (jobs: Job<T>[]): Promise<JobResult[]> => settleEach(name, jobs, handler, this.logJobs),
    );
  }

  /**
   * Runs `batch` on each claimed batch's data at once (one transaction for all, say); when it throws, each job of
   * the batch is run alone by `single`, so that a job that cannot succeed fails (and retries) only itself.
   */
  async workInBatches<T extends object>(name: QueueName, batch: (data: T[]) => Promise<void>, single: JobHandler<T>, options: WorkOptions = {}): Promise<string> {
    return this.boss.work<T>(
      name,
      batchWorkOptions(options),
      async (jobs: Job<T>[]): Promise<JobResult[]> => {
        try {
          await runJobBatch(name, jobs, () => batch(jobs.map((job) => job.data)), this.logJobs);
          return jobs.map((job) => ({ id: job.id, status: 'completed' }));
        } catch {
          return settleEach(name, jobs, single, this.logJobs);
        }
      },
    );
  }

  /**
   * Runs `handler` for up to `options.concurrency` jobs at once, at most `perGroup` of one group (concurrent-worker.ts).
   * What a handler resolves with is written with its job's completion (`completions.registerAlongside`).
   */
  async workConcurrently<T extends object>(name: QueueName, handler: ConcurrentJobHandler<T>, options: ConcurrentWorkOptions): Promise<ConcurrentWorker<T>> {
    const logged: ConcurrentJobHandler<T> = (data, job) => runJob(name, job, () => handler(data, job), this.logJobs);
    const worker = new ConcurrentWorker<T>(this.boss, name, logged, this.completions, options, (message) => {
      if (!this.stopped) logger.error({ queue: name, error: message }, 'job queue');
    });
    await worker.start();
    this.concurrentWorkers.push(worker);
    return worker;
  }

  async schedule(name: QueueName, cron: string, data: object = {}): Promise<void> {
    await this.boss.schedule(name, cron, data);
  }

  /** Stops fetching, waits (up to `timeoutMs`) for running handlers, and closes pg-boss's connections. */
  async stop(options: { graceful?: boolean; timeoutMs?: number } = {}): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    const graceful = options.graceful ?? true;
    const timeoutMs = options.timeoutMs ?? 15_000;
    await Promise.all(this.concurrentWorkers.map((worker) => (graceful ? worker.stop(timeoutMs) : worker.abandon())));
    await this.boss.stop({ graceful, timeout: timeoutMs, close: true });
  }
}

/** A queue's retries: how many, and pg-boss's delay before each (`retryDelay * 2^n` with jitter when backing off, capped). */
type RetrySettings = Required<Pick<Queue, 'retryLimit' | 'retryDelay' | 'retryBackoff'>> & Pick<Queue, 'retryDelayMax'>;

/**
 * What is left of a queue's retries after a job's try number `retryCount` (0 the first) failed, as a job's own settings:
 * the tries left, the delay before the next (pg-boss's formula, plans.js failJobs: `retryDelay * 2^retryCount * [1, 2)`,
 * capped) and a base delay that continues the backoff from there. Null when that try was the last.
 */
function continuation(settings: RetrySettings, retryCount: number): Pick<JobInsert, 'retryLimit' | 'retryDelay' | 'startAfter'> | null {
  const retryLimit = settings.retryLimit - retryCount - 1;
  if (retryLimit < 0) return null;
  const { retryDelay, retryBackoff, retryDelayMax } = settings;
  const delaySeconds = retryBackoff ? Math.min(retryDelayMax ?? Infinity, Math.max(retryDelay, 1) * 2 ** Math.min(16, retryCount) * (1 + Math.random())) : retryDelay;
  return {
    retryLimit,
    retryDelay: retryBackoff ? Math.max(retryDelay, 1) * 2 ** Math.min(16, retryCount + 1) : retryDelay,
    startAfter: new Date(Date.now() + delaySeconds * 1000),
  };
}

const jobInsert = <T extends object>(job: EnqueueJob<T>): JobInsert<T> => ({
  data: withTrace(job.data, job.traceparent),
  ...(job.id ? { id: job.id } : {}),
  ...(job.startAfter ? { startAfter: job.startAfter } : {}),
  ...(job.group ? { group: { id: job.group } } : {}),
});

/** pg-boss batch options: LISTEN/NOTIFY wakes the worker, the poll is the fallback, a full batch fetches again at once. */
const batchWorkOptions = (options: WorkOptions) => ({
  batchSize: options.batchSize ?? 10,
  burstWhenBatchFull: true,
  pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2,
  notifyPollingIntervalSeconds: options.pollingIntervalSeconds ?? 2,
  perJobResults: true as const,
});

/** Runs each job on its own, concurrently: a failure is that job's only. */
async function settleEach<T extends object>(queue: QueueName, jobs: Job<T>[], handler: JobHandler<T>, logJobs: boolean): Promise<JobResult[]> {
  return Promise.all(
    jobs.map(async (job): Promise<JobResult> => {
      try {
        await runJob(queue, job, () => handler(job.data, job), logJobs);
        return { id: job.id, status: 'completed' };
      } catch (error) {
        return { id: job.id, status: 'failed', output: { message: error instanceof Error ? error.message : String(error) } };
      }
    }),
  );
}

/** The queue's connection settings from the process's configuration. */
export const queueConnections = (config: Pick<Config, 'databaseUrl' | 'databasePooler' | 'directDatabaseUrl' | 'jobQueuePoolSize' | 'logJobs'>) => ({
  databaseUrl: config.databaseUrl,
  databasePooler: config.databasePooler,
  directDatabaseUrl: config.directDatabaseUrl,
  poolSize: config.jobQueuePoolSize,
  logJobs: config.logJobs,
});

/** Starts pg-boss on the service's database. */
export async function startJobQueue(options: JobQueueOptions): Promise<JobQueue> {
  return JobQueue.start(options);
}
