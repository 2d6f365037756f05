import { committedNow, comparePositions, OUTBOX_CHANNEL, readFeed, type CommittedBefore, type FeedPosition, type FeedRow } from '../domain/webhooks/event-feed.service.js';
import { liveApiKeyIds } from '../domain/accounts/api-keys.service.js';
import type { Database } from '../infra/db.js';
import type { SqlExecutor } from '../infra/db-driver.js';
import { listenChannel, type ChannelListener } from '../infra/db-listen.js';
import { logger } from '../infra/log.js';

/** Rows per read, for the tail and for a stream catching up alike. */
export const FEED_BATCH = 500;

/** What the tail hands new rows to: the open streams of this replica. */
export interface TailReader {
  /** The API key the stream was opened with. */
  readonly keyId: number;
  /** Rows past the tail's previous position, in order; the tail's `position` is already the new one. */
  take(rows: readonly FeedRow[]): void;
  /** Ends the stream (its key is no longer let in). */
  end(): void;
}

/** While streams are open and no row comes, their keys are still checked this often (an idle stream ends too). */
const KEY_CHECK_MS = 1_000;

/**
 * Reads on notifications start at least this far apart. The first after a quiet spell goes at once; under a steady
 * ingest load each read, and the one write per open stream that follows it, then carries the events of every
 * commit of the interval instead of one or two. The writes are the cost: a socket write per stream per read was a
 * third of a replica's busy time (bench streams stage, 50 streams over 2 replicas: at 10 ms apart, the ingest
 * ratio fell to 0.60 x with the streams open). Half the 100 ms commit → stream goal at worst, about a quarter on
 * average.
 */
export const READ_INTERVAL_MS = 50;

/** Far past any transaction id: a read "after" it returns no row, only the watermark. */
const END: FeedPosition = { txid: '9223372036854775807', id: 0 };

/**
 * A replica's one reader of the event feed: every open stream of the replica is served from its reads, so a wake-up
 * costs ONE statement however many streams are open, and no stream holds a connection while idle. It reads on every
 * NOTIFY of the outbox (one LISTEN connection per replica, which its reads use too: under load they would
 * otherwise queue behind the requests for a connection of the pool), on every (re)connection of that listener (notifications
 * sent meanwhile are lost), and every `pollMs` while streams are open (the fallback; also what moves it on once a
 * long transaction that held the watermark back ends). A notification is only a wake-up: what is sent is what is
 * read from the table after `position`, so a lost notification delays an event, never skips it.
 */
export class FeedTail {
  /** Every row before it has been handed on; null until started. */
  position: FeedPosition | null = null;
  private readonly readers = new Set<TailReader>();
  private starting: Promise<void> | null = null;
  private listener: ChannelListener | null = null;
  private timer: NodeJS.Timeout | undefined;
  private gathering: NodeJS.Timeout | undefined;
  /** When the open streams' keys were last checked (performance.now()). */
  private keysCheckedAt = -Infinity;
  /** When the last read on a notification started (performance.now()). */
  private lastNotifiedRead = -Infinity;
  private running = false;
  private again = false;
  private stopped = false;

  constructor(
    private readonly db: Database,
    private readonly options: { directDatabaseUrl: string | null; pollMs: number },
  ) {}

  /** Reads go on the listening connection while it is up: never queued behind the requests for the pool. */
  private get reader(): SqlExecutor {
    return this.listener?.executor() ?? this.db;
  }

  /** Resolves once `position` is known and the listener is up (the first stream of the replica pays for it). */
  start(): Promise<void> {
    this.starting ??= (async () => {
      this.position = (await readFeed(this.db, { after: END, limit: 0 })).watermark;
      this.listener = await listenChannel(this.db, this.options.directDatabaseUrl, OUTBOX_CHANNEL, () => this.notified());
      if (this.stopped) await this.listener.close();
    })();
    return this.starting.catch((error: unknown) => {
      // A failed start is tried again by the next stream.
      this.starting = null;
      throw error;
    });
  }

  /**
   * Where a stream opened now starts ("from the moment of connection"): `position`, which the tail keeps current only
   * while streams are open (once none is, it stops reading, so the first stream after a pause moves it on to the
   * watermark), and what had committed by now: rows past the position that the stream must skip.
   */
  async startingPoint(): Promise<{ after: FeedPosition; committed: CommittedBefore }> {
    if (this.position === null) throw new Error('the feed tail is not started');
    const committed = await committedNow(this.reader);
    const watermark = { txid: String(committed.xmin), id: 0 };
    // Never backwards: another stream may have moved it on meanwhile.
    if (this.readers.size === 0 && comparePositions(watermark, this.position) > 0) this.position = watermark;
    return { after: this.position, committed };
  }

  add(reader: TailReader): void {
    this.readers.add(reader);
    if (!this.timer && !this.stopped) {
      this.timer = setInterval(() => this.wake(), this.options.pollMs);
      this.timer.unref();
    }
  }

  remove(reader: TailReader): void {
    this.readers.delete(reader);
    if (this.readers.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** A NOTIFY: a read now, or READ_INTERVAL_MS after the last one, for it and whatever commits meanwhile. */
  private notified(): void {
    if (this.gathering || this.stopped) return;
    const read = (): void => {
      this.gathering = undefined;
      this.lastNotifiedRead = performance.now();
      this.wake();
    };
    this.gathering = setTimeout(read, Math.max(0, this.lastNotifiedRead + READ_INTERVAL_MS - performance.now()));
  }

  /** Reads whatever is new; a wake-up during a read makes one more read after it, never two at once. */
  wake(): void {
    if (this.stopped || this.position === null || this.readers.size === 0) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    void this.readAll().finally(() => {
      this.running = false;
    });
  }

  private async readAll(): Promise<void> {
    try {
      do {
        this.again = false;
        const after = this.position;
        if (after === null) return;
        const { rows, watermark } = await readFeed(this.reader, { after, limit: FEED_BATCH });
        if (this.stopped) return;
        // Before the position moves: a check that fails leaves the rows to the next read, as a failed read does.
        if (rows.length || performance.now() - this.keysCheckedAt >= KEY_CHECK_MS) await this.endStreamsOfLapsedKeys();
        const last = rows.at(-1);
        // A full batch: more may follow below the watermark; read again from its last row.
        if (rows.length === FEED_BATCH && last) {
          this.position = { txid: last.txid, id: last.id };
          this.again = true;
        } else if (comparePositions(watermark, after) > 0) this.position = watermark;
        if (rows.length) for (const reader of this.readers) reader.take(rows);
      } while (this.again && !this.stopped);
    } catch (error) {
      // The next wake-up (the poll at the latest) reads again from the same position: nothing is skipped.
      if (!this.stopped) logger.error({ error: error instanceof Error ? error.message : String(error) }, 'event stream tail: read failed');
    }
  }

  /**
   * Streams are admitted once, when they open: before rows are handed on, the streams whose key was revoked or expired
   * since (or whose account went to Free) are ended, so that nothing read after a revocation reaches them (the
   * client's reconnection then meets the 401). One statement for every open stream of the replica.
   */
  private async endStreamsOfLapsedKeys(): Promise<void> {
    this.keysCheckedAt = performance.now();
    const live = await liveApiKeyIds(this.reader, [...new Set([...this.readers].map((reader) => reader.keyId))]);
    for (const reader of [...this.readers]) if (!live.has(reader.keyId)) reader.end();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.gathering);
    await this.starting?.catch(() => undefined);
    await this.listener?.close();
  }
}
