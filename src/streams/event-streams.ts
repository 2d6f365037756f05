import { feedPositionOf, type CommittedBefore, type FeedPosition } from '../domain/webhooks/event-feed.service.js';
import type { EventType } from '../domain/webhooks/events.service.js';
import { AppError, validationFailed } from '../errors.js';
import type { Database } from '../infra/db.js';
import { eventStreamEventsSent, eventStreamsOpen } from '../infra/metrics.js';
import type { StreamSlots } from '../infra/stream-slots.js';
import { FeedTail } from './feed-tail.js';
import { EventSubscriber, type EventStream } from './event-subscriber.js';

export type { EventStream } from './event-subscriber.js';

/** Contract §7.2: open streams per key, REST and GraphQL together, across replicas. */
export const STREAMS_PER_KEY = 5;

export interface OpenStreamRequest {
  accountId: number;
  keyId: number;
  /** The kinds this stream carries: those the key may see, narrowed by the `type` filter. */
  types: readonly EventType[];
  /** Resume after this event (`field` names where it came from, for the 400); null: from the moment of connection. */
  resume: { eventId: string; field: string } | null;
  /** The most time between two items: `null` items fill the silence (keep-alive). */
  idleMs: number;
}

export interface EventStreamsOptions {
  db: Database;
  /** The LISTEN connection's URL (PostgreSQL; not through a transaction-mode pooler). */
  directDatabaseUrl: string | null;
  slots: StreamSlots;
  /** The tail's fallback read while streams are open. Default 250 ms. */
  pollMs?: number;
  /** Rows held for a slow reader before it drops them (and reads them again from the table). Default 1000. */
  maxQueued?: number;
}

export interface StreamStats {
  /** Streams open on this replica. */
  open: number;
  /** Events sent on this replica's streams since it started. */
  sent: number;
}

/**
 * The live events of every open stream of a replica (contract §7.2): transports open one per client and pull events
 * from it. Opening takes one of the key's slots (shared by every replica: `slots`) and the stream gives it back when
 * it ends. `close()` (a draining replica) ends every stream: clients resume elsewhere with Last-Event-ID.
 */
export class EventStreams {
  private readonly tail: FeedTail;
  private readonly open = new Set<EventSubscriber>();
  private closed = false;
  private sent = 0;

  constructor(private readonly options: EventStreamsOptions) {
    this.tail = new FeedTail(options.db, { directDatabaseUrl: options.directDatabaseUrl, pollMs: options.pollMs ?? 250 });
  }

  get stats(): StreamStats {
    return { open: this.open.size, sent: this.sent };
  }

  /**
   * Checks the resume point (400 validation_failed), takes a slot (429 too_many_streams), then starts the stream.
   * Throws before anything is held; once it returns, the stream's `return()` gives everything back.
   */
  async openStream(request: OpenStreamRequest): Promise<EventStream> {
    const { db, slots } = this.options;
    const resumeAt = request.resume ? await feedPositionOf(db, request.accountId, request.resume.eventId) : null;
    if (request.resume && !resumeAt) throw validationFailed([{ field: request.resume.field, message: 'is not a retained event of this account' }]);
    const owner = `key:${request.keyId}`;
    const lease = await slots.acquire(owner, STREAMS_PER_KEY);
    if (lease === null) throw new AppError('too_many_streams', { cap: STREAMS_PER_KEY });
    const release = (): void => void slots.release(owner, lease).catch(() => undefined);
    let start: { after: FeedPosition; committed: CommittedBefore | null };
    try {
      await this.tail.start();
      start = resumeAt ? { after: resumeAt, committed: null } : await this.tail.startingPoint();
    } catch (error) {
      release();
      throw error;
    }
    const subscriber: EventSubscriber = new EventSubscriber(db, this.tail, {
      accountId: request.accountId,
      keyId: request.keyId,
      types: new Set(request.types),
      after: start.after,
      skipCommittedBefore: start.committed,
      idleMs: request.idleMs,
      maxQueued: this.options.maxQueued ?? 1000,
      onEnd: () => {
        this.open.delete(subscriber);
        eventStreamsOpen.dec();
        release();
      },
      onSent: () => {
        this.sent += 1;
        eventStreamEventsSent.inc();
      },
    });
    this.open.add(subscriber);
    eventStreamsOpen.inc();
    // A draining replica opens nothing new: the stream ends at once and its client resumes on another replica.
    if (this.closed) subscriber.end();
    return subscriber;
  }

  /** Ends every open stream cleanly and stops listening (a draining replica); streams opened later end at once. */
  async close(): Promise<void> {
    this.closed = true;
    for (const subscriber of [...this.open]) subscriber.end();
    await this.tail.stop();
  }
}
