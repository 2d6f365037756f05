import type { Config } from '../config.js';
import type { Database } from '../infra/db.js';
import { createEmailJobHandler, createEmailSender, type EmailSender } from './jobs/email.job.js';
import { createErasureJobHandler } from './jobs/erasure.job.js';
import { createEventFanoutHandler } from './jobs/event-fanout.job.js';
import type { ErasureJob } from '../domain/submissions/erasure-requests.service.js';
import { startEventRelay, type EventRelayOptions } from './jobs/event-relay.js';
import type { EmailJob, EventJob } from '../domain/webhooks/events.service.js';
import { QUEUE, queueConnections, startJobQueue, type JobQueue, type JobQueueOptions } from '../infra/jobs.js';
import { createOutboundFetcher, type OutboundFetcher } from '../infra/outbound-fetch.js';
import { createErasureEmailMatcher, createPhiCipher } from '../infra/keyring.js';
import { recheckVerifiedSites } from './jobs/verification-lapse.job.js';
import { deleteExpiredEvents } from './jobs/retention.job.js';
import { createWebhookDeliveryHandler, type DeliveryJobData, type RetryPolicy } from './jobs/webhook-delivery.job.js';

/** Once a day at 03:17 UTC (an odd minute, so that replicas' schedules do not pile onto :00). */
export const LAPSE_SCHEDULE = '17 3 * * *';
/** Hourly at :41: each run deletes what turned 30 days old since the last, in small batches. */
export const RETENTION_SCHEDULE = '41 * * * *';

/**
 * `email.send` jobs running at once per worker process; their messages in flight are bounded apart (EMAILS_IN_FLIGHT),
 * since a job holds the emails of up to 10 submissions.
 */
const EMAIL_CONCURRENCY = 10;

/** Queued events (batches whose fan-out failed in the relay) fanned out per transaction. */
export const FANOUT_BATCH = 100;

export interface WorkerDeps {
  config: Config;
  db: Database;
  /** The process's queue when the server already started one; otherwise the worker starts (and owns) it. */
  queue?: JobQueue;
  /** Tests: the webhook receiver's CA and resolution come through `config`; these replace whole parts. */
  fetcher?: OutboundFetcher;
  emailSender?: EmailSender;
  retryPolicy?: RetryPolicy;
  deliveryTimeoutMs?: number;
  /** Tests: the deliveries' clock (days of failures simulated). */
  clock?: () => Date;
  batchSize?: number;
  /** Tests: how often a worker looks for jobs whose `startAfter` came due (inserts wake it at once). */
  pollingIntervalSeconds?: number;
  /** Passed to the queue the worker starts (tests: fast crash recovery). */
  queueOptions?: Pick<JobQueueOptions, 'superviseIntervalSeconds' | 'queueOverrides'>;
  /** Tests: the outbox relay's polling (a test counting statements leaves out its idle passes). */
  relay?: EventRelayOptions;
}

export interface RunningWorker {
  queue: JobQueue;
  /**
   * Stops taking jobs and lets the ones under way finish, up to `timeoutMs` (default 15 s). Jobs still running
   * then are failed back to the queue (retried by another worker) when this worker owns the queue; otherwise the
   * owner's `queue.stop()` does it. Resolves with 0 when every job finished in time, 1 when some were cut.
   */
  stop(options?: { timeoutMs?: number }): Promise<number>;
}

/**
 * Starts the outbox relay and registers the event fan-out, delivery, email, erasure, daily verification-lapse and
 * hourly retention handlers. Runs inside the server by default (contract §1 "delivery worker") and standalone as
 * `npm run worker`; any number of them may run against one PostgreSQL: each event and job is taken by one worker.
 */
export async function startWorker(deps: WorkerDeps): Promise<RunningWorker> {
  const { config, db } = deps;
  const ownsQueue = !deps.queue;
  const queue = deps.queue ?? (await startJobQueue({ db, ...queueConnections(config), ...deps.queueOptions }));
  const fetcher = deps.fetcher ?? createOutboundFetcher(config);
  const sender = deps.emailSender ?? createEmailSender(config);
  const work = { batchSize: deps.batchSize ?? 10, ...(deps.pollingIntervalSeconds ? { pollingIntervalSeconds: deps.pollingIntervalSeconds } : {}) };

  // The relay fans events out as it takes them off the outbox; these jobs are the batches whose fan-out failed
  // there, run again one event at a time when a batch fails.
  const fanoutDeps = { db, queue, phi: createPhiCipher(config) };
  const fanout = createEventFanoutHandler(fanoutDeps);
  await queue.workInBatches<EventJob>(QUEUE.eventFanout, fanout.batch, fanout.single, { ...work, batchSize: deps.batchSize ?? FANOUT_BATCH });
  // Deliveries run side by side, each settling on its own, a few per receiver at most: one slow receiver holds
  // its own slots, never the others' (concurrent-worker.ts). The defaults, 200 and 25: 25 to one endpoint is 250
  // deliveries/s to a receiver answering in 100 ms, and a receiver that hangs holds 25 of 200 slots.
  const deliveries = await queue.workConcurrently<DeliveryJobData>(
    QUEUE.webhookDelivery,
    createWebhookDeliveryHandler({
      prisma: db.prisma,
      db,
      queue,
      fetcher,
      ...(deps.retryPolicy ? { retryPolicy: deps.retryPolicy } : {}),
      ...(deps.deliveryTimeoutMs ? { timeoutMs: deps.deliveryTimeoutMs } : {}),
      ...(deps.clock ? { clock: deps.clock } : {}),
    }),
    { concurrency: config.deliveryConcurrency, perGroup: config.deliveryPerEndpoint, pollingIntervalSeconds: deps.pollingIntervalSeconds ?? 2 },
  );
  // Emails too settle each on its own: in pg-boss's batch loop the next batch waited for the slowest message of the
  // last (an SMTP server taking seconds to answer one held back every other), so at high rates they fell behind.
  const emails = await queue.workConcurrently<EmailJob>(QUEUE.emailSend, createEmailJobHandler({ db, sender, config, queue }), {
    concurrency: deps.batchSize ?? EMAIL_CONCURRENCY,
    pollingIntervalSeconds: deps.pollingIntervalSeconds ?? 2,
  });
  // One request at a time per worker: a run is long and its batches already share the database fairly.
  await queue.work<ErasureJob>(
    QUEUE.erasureRun,
    createErasureJobHandler({ db, phi: createPhiCipher(config), matchesEmail: createErasureEmailMatcher(config), batchSize: config.erasureBatchSize }),
    { batchSize: 1, ...(deps.pollingIntervalSeconds ? { pollingIntervalSeconds: deps.pollingIntervalSeconds } : {}) },
  );
  await queue.work(
    QUEUE.verificationLapse,
    async () => {
      await recheckVerifiedSites({ prisma: db.prisma, fetcher });
    },
    { batchSize: 1, pollingIntervalSeconds: 30 },
  );
  await queue.schedule(QUEUE.verificationLapse, LAPSE_SCHEDULE);
  await queue.work(
    QUEUE.retention,
    async () => {
      await deleteExpiredEvents(db);
    },
    { batchSize: 1, pollingIntervalSeconds: 30 },
  );
  await queue.schedule(QUEUE.retention, RETENTION_SCHEDULE);
  const relay = startEventRelay(fanoutDeps, deps.relay);

  let stopped = false;
  return {
    queue,
    async stop(options = {}) {
      if (stopped) return 0;
      stopped = true;
      const timeoutMs = options.timeoutMs ?? 15_000;
      const deadline = Date.now() + timeoutMs;
      await relay.stop();
      // All queues at once, and bounded: one slow delivery must not hold the others' drain or the process.
      // Deliveries and emails still running at the deadline are failed back to the queue by their worker.
      let timer: NodeJS.Timeout | undefined;
      const [drained, ...concurrentDrained] = await Promise.all([
        Promise.race([
          Promise.all(Object.values(QUEUE).map((name) => queue.boss.offWork(name, { wait: true }))).then(() => true),
          new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now())))),
        ]),
        ...[deliveries, emails].map((worker) => worker.stop(Math.max(0, deadline - Date.now()))),
      ]);
      clearTimeout(timer);
      if (!deps.fetcher) await fetcher.close?.();
      // Jobs still running are failed back to the queue here (by the owner's stop when the queue is shared).
      if (ownsQueue) await queue.stop({ graceful: true, timeoutMs: Math.max(0, deadline - Date.now()) });
      if (!deps.emailSender) sender.close();
      return drained && concurrentDrained.every(Boolean) ? 0 : 1;
    },
  };
}
