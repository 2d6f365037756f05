import { errorKind, logger } from '../../infra/log.js';
import { formatTraceparent, parseTraceparent } from '../../infra/trace-context.js';
import type { OpenSpan } from '../../infra/span.js';
import { startSpan } from '../../infra/tracing.js';
import { sql, sqlBuilder } from '../../infra/sql.js';
import type { SqlTransaction } from '../../infra/db-driver.js';
import type { EventJob } from '../../domain/webhooks/events.service.js';
import { QUEUE } from '../../infra/jobs.js';
import { OUTBOX_CHANNEL } from '../../domain/webhooks/event-feed.service.js';
import { fanOutTargets, takenEvents, targetsSql, type EventFanoutDeps, type EventTargets, type FanoutResult } from './event-fanout.job.js';

/**
 * The outbox relay: takes recorded events (OutboxEvent rows, written with the change that caused them) off the
 * outbox a batch per transaction, marking them relayed, and fans them out in that same transaction (deliveries,
 * emails and their jobs: event-fanout.job.ts), so each event is fanned out exactly once and every delivery is one
 * queue hop from its event. The rows stay as the event history (30 days, then the retention job). Relays on several
 * workers share the outbox: a row is locked by one of them (SKIP LOCKED).
 *
 * A batch whose fan-out fails (an event the fan-out cannot read, say) is taken off the outbox again in a second
 * transaction and handed to the job queue as `event.fanout` jobs, which fan out one event at a time with the queue's
 * retries and dead letters: a failing event never blocks the others.
 *
 * Why not straight from the request: the outbox row is a plain insert that ingest writes in its one statement; a
 * job insert needs a transaction around it, which cost ingest as much as everything else it does.
 */

const RELAY_BATCH = 500;

/** The events alone, for the fallback that queues a batch whose fan-out failed. */
const takeEvents = (tx: SqlTransaction, limit: number) =>
  tx.sql(
    sqlBuilder
      .updateTable('OutboxEvent')
      .set({ relayedAt: sql`now()` })
      .where('id', 'in', (eb) => eb.selectFrom('OutboxEvent').select('id').where('relayedAt', 'is', null).orderBy('id').limit(limit).forUpdate().skipLocked())
      .returning(['accountId', 'formId', 'payload', 'traceparent'])
      // payload is jsonb (unknown to the generated types): the EventPayload that outboxRow wrote.
      .$castTo<EventJob>(),
  );

export interface RelayResult extends FanoutResult {
  /** Events taken off the outbox. */
  events: number;
  /** Of them, handed to the queue as `event.fanout` jobs because their fan-out failed here. */
  queued: number;
}

/**
 * Each event's fan-out continues the trace of what recorded it (the outbox row's traceparent): a span per event,
 * whose context its deliveries' and emails' jobs carry, and a log line per event once the batch committed.
 */
const fanoutSpan = (event: EventJob): OpenSpan =>
  startSpan('outbox process', parseTraceparent(event.traceparent), {
    kind: 'consumer',
    attributes: { 'messaging.system': 'outbox', 'messaging.operation.type': 'process', 'messaging.destination.name': 'outbox', 'event.type': event.payload.type },
  });

/** Takes up to `limit` events off the outbox and fans them out (or, failing that, queues them). */
export async function relayEvents(deps: EventFanoutDeps, limit = RELAY_BATCH): Promise<RelayResult> {
  const { pipeline } = deps.db;
  const started = performance.now();
  let spans: { event: EventTargets; span: OpenSpan }[] = [];
  try {
    const result = await pipeline.transaction(async (tx) => {
      // Taken off the outbox with their targets in ONE statement.
      const events = await tx.sql(targetsSql(takenEvents(limit)));
      spans = events.map((event) => ({ event, span: fanoutSpan(event) }));
      const traced = spans.map(({ event, span }) => ({ ...event, traceparent: formatTraceparent(span.context) }));
      return { events: events.length, queued: 0, ...(await fanOutTargets(deps, tx, traced)) };
    });
    const ms = Math.round((performance.now() - started) * 10) / 10;
    for (const { event, span } of spans) {
      span.end();
      if (deps.queue.logJobs) logger.info({ queue: 'outbox', eventType: event.payload.type, traceId: span.context.traceId, ms }, 'event fanned out');
    }
    return result;
  } catch (error) {
    for (const { span } of spans) span.end({ failed: true });
    // The database being down fails this transaction too: the caller backs off and logs it.
    const queued = await pipeline.transaction(async (tx) => {
      const events = await takeEvents(tx, limit);
      await deps.queue.enqueueInTransaction<EventJob>(tx, QUEUE.eventFanout, events.map((data) => ({ data })));
      return { events: events.length, queued: events.length, deliveries: 0, emails: 0 };
    });
    if (queued.events) logger.warn({ error: errorKind(error), queued: queued.events }, 'event relay: fan-out failed, batch queued');
    return queued;
  }
}

export interface EventRelay {
  /** Stops polling and waits for a pass under way. */
  stop(): Promise<void>;
}

export interface EventRelayOptions {
  /**
   * How long an empty outbox is left alone when no NOTIFY comes: the most an event waits before its fan-out if the
   * listener is down. Default 1 s.
   */
  intervalMs?: number;
  /** The longest wait between failing passes; the wait doubles from `intervalMs` up to it. Default 30 s. */
  maxBackoffMs?: number;
  /**
   * How long the first NOTIFY of a pass waits for others (default RELAY_COALESCE_MS), unless `coalesceEvents` come
   * sooner: the events recorded meanwhile go out in the same pass, one transaction and one job insert per queue, and
   * the jobs they make are fetched and completed together downstream. Only while the outbox is busy: half of
   * `coalesceEvents` heard within it.
   */
  coalesceMs?: number;
  /** NOTIFYs (events recorded, one per inserting statement) that start a pass at once. Default RELAY_COALESCE_EVENTS. */
  coalesceEvents?: number;
}

/**
 * A pass costs the same statements whatever it takes (6, its transaction included), and wakes the delivery and email
 * workers once each, whose fetches, reads and completions are then batched too: the worker's statements and database
 * time per ingest fall with the events a pass takes (docs/operator-guide.md, "Replicas and the worker"). So while
 * events come close together, a pass waits, as a producer's batch does (Kafka's `linger.ms` and `batch.size`), for
 * RELAY_COALESCE_EVENTS events or RELAY_COALESCE_MS after the first, whichever comes first: a busy outbox goes out as
 * soon as a batch is worth its statements. With a fixed 40 ms window a pass at 100 ingests/s took ~5.5 events; with
 * these, ~10, and at 300 ingests/s a pass starts after ~33 ms. Waiting pays only where it gathers: a pass waits only
 * while half a batch (RELAY_COALESCE_EVENTS / 2) was heard within RELAY_COALESCE_MS, ~50 events a second; a quieter
 * outbox relays each event at once, as its webhook's latency matters more there than a few statements.
 */
export const RELAY_COALESCE_MS = 100;
export const RELAY_COALESCE_EVENTS = 10;

/**
 * Empties the outbox batch after batch whenever events are recorded (the insert trigger's NOTIFY, heard through the
 * job queue's listener connection, gathered as above), and every `intervalMs` besides (the fallback). A failing pass
 * (the database down, say) waits twice as long as the one before, up to `maxBackoffMs`, so an outage costs a few log
 * lines and queries rather than five a second; the first pass that succeeds goes back to `intervalMs`.
 */
export function startEventRelay(deps: EventFanoutDeps, options: EventRelayOptions = {}): EventRelay {
  const intervalMs = options.intervalMs ?? 1000;
  const maxBackoffMs = options.maxBackoffMs ?? 30_000;
  const coalesceMs = options.coalesceMs ?? RELAY_COALESCE_MS;
  const coalesceEvents = options.coalesceEvents ?? RELAY_COALESCE_EVENTS;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let gathering: NodeJS.Timeout | undefined;
  let pass: Promise<void> = Promise.resolve();
  let waitMs = intervalMs;
  let running = false;
  let again = false;
  /** NOTIFYs heard since the last pass began. */
  let heard = 0;
  /** NOTIFYs within `coalesceMs` that make the outbox busy: half a batch. */
  const busyCount = Math.max(1, Math.ceil(coalesceEvents / 2));
  /** When the last `busyCount` NOTIFYs were heard (performance.now()), oldest first. */
  const recent: number[] = [];
  /** Half a batch heard within the window: waiting will gather. */
  const busy = (): boolean => recent.length === busyCount && performance.now() - recent[0]! < coalesceMs;
  let listener: Promise<{ close(): Promise<void> } | null> = Promise.resolve(null);

  const run = (): void => {
    if (stopped) return;
    // A NOTIFY during a pass: one more pass after it (it may have missed that event), never two at once.
    if (running) {
      again = true;
      return;
    }
    running = true;
    heard = 0;
    clearTimeout(timer);
    clearTimeout(gathering);
    gathering = undefined;
    pass = (async () => {
      try {
        let moved = RELAY_BATCH;
        while (!stopped && moved === RELAY_BATCH) moved = (await relayEvents(deps)).events;
        waitMs = intervalMs;
      } catch (error) {
        waitMs = Math.min(waitMs * 2, maxBackoffMs);
        // Messages only, never event data.
        const message = error instanceof Error ? error.message : String(error);
        if (!stopped) logger.error({ error: message, retryInMs: waitMs }, 'event relay');
      }
      running = false;
      if (stopped) return;
      if (again && waitMs === intervalMs) {
        again = false;
        gather();
      } else timer = setTimeout(run, waitMs);
    })();
  };
  /** A pass now when enough events were heard or the outbox is quiet, else once the first has waited `coalesceMs`. */
  const gather = (): void => {
    if (heard >= coalesceEvents || !busy()) run();
    else gathering ??= setTimeout(run, coalesceMs);
  };
  /** A NOTIFY: an event recorded. */
  const soon = (): void => {
    if (stopped) return;
    heard++;
    recent.push(performance.now());
    if (recent.length > busyCount) recent.shift();
    if (running) {
      again = true;
      return;
    }
    gather();
  };
  run();
  const listening = deps.queue.boss.getDb();
  if (listening.listen) {
    listener = listening.listen(OUTBOX_CHANNEL, soon, run).catch((error: unknown) => {
      logger.error({ error: error instanceof Error ? error.message : String(error) }, 'event relay: listen failed, polling only');
      return null;
    });
  }

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(gathering);
      await (await listener)?.close().catch(() => undefined);
      await pass;
    },
  };
}
