import { committedIn, comparePositions, readFeed, type CommittedBefore, type FeedPosition, type FeedRow } from '../domain/webhooks/event-feed.service.js';
import type { EventPayload, EventType } from '../domain/webhooks/events.service.js';
import { liveApiKeyIds } from '../domain/accounts/api-keys.service.js';
import type { Database } from '../infra/db.js';
import { FEED_BATCH, type FeedTail, type TailReader } from './feed-tail.js';

/** An open stream: events oldest first, `null` when none came for `idleMs` (the transport's keep-alive). */
export interface EventStream extends AsyncIterableIterator<EventPayload | null> {
  /**
   * Up to `max` events already waiting, taken at once (as `next()` would return them, without waiting): a transport
   * writes them in one piece instead of one write per event.
   */
  takeQueued(max: number): EventPayload[];
}

export interface SubscriberOptions {
  accountId: number;
  /** The API key it was opened with: the stream ends once the key is no longer let in (feed-tail.ts). */
  keyId: number;
  types: ReadonlySet<EventType>;
  /** Where it starts: after a resumed event, or the tail's position ("from the moment of connection"). */
  after: FeedPosition;
  /** A stream from the moment of connection: what had committed then, which it never sends. Null: a resumed stream. */
  skipCommittedBefore: CommittedBefore | null;
  idleMs: number;
  /** Rows held for a reader slower than the events: past it, the stream drops them and reads them again later. */
  maxQueued: number;
  /** Called once when the stream ends, however it ends. */
  onEnd: () => void;
  onSent: () => void;
}

/**
 * One stream. It catches up from the table (its account's rows after `sent`, up to the tail's position, batch by
 * batch), then goes live: from then on the replica's tail hands it the rows it reads. A row is queued only when it
 * comes after everything queued or sent (`seen`), so the switch from catching up to live neither repeats nor skips.
 *
 * Memory is bounded per stream: rows are pulled one at a time by the transport, only as fast as the client reads
 * (backpressure); a client that falls `maxQueued` rows behind loses its queue and catches up from the table again,
 * at its own pace, from the last row it was sent.
 */
export class EventSubscriber implements EventStream, TailReader {
  private queue: FeedRow[] = [];
  private live = false;
  /** The last row sent (or the start): where catching up resumes. */
  private sent: FeedPosition;
  /** The last row sent or queued: what the tail's rows must come after. */
  private seen: FeedPosition;
  private ended = false;
  private wakeUp: (() => void) | null = null;
  /** Dropped once the stream is past every transaction the snapshot knew: no later row can be in it. */
  private committedBefore: CommittedBefore | null;

  constructor(
    private readonly db: Database,
    private readonly tail: FeedTail,
    private readonly options: SubscriberOptions,
  ) {
    this.sent = options.after;
    this.seen = options.after;
    this.committedBefore = options.skipCommittedBefore;
    tail.add(this);
  }

  get keyId(): number {
    return this.options.keyId;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  take(rows: readonly FeedRow[]): void {
    if (!this.live || this.ended) return;
    const { accountId, types, maxQueued } = this.options;
    for (const row of rows) {
      if (row.accountId !== accountId || !types.has(row.type) || comparePositions(row, this.seen) <= 0) continue;
      this.seen = row;
      if (!this.committedEarlier(row)) this.queue.push(row);
    }
    if (this.queue.length > maxQueued) {
      this.queue = [];
      this.live = false;
      this.seen = this.sent;
    }
    this.wakeUp?.();
  }

  async next(): Promise<IteratorResult<EventPayload | null>> {
    for (;;) {
      if (this.ended) return { done: true, value: undefined };
      const row = this.queue.shift();
      if (row) {
        this.sent = row;
        this.options.onSent();
        return { done: false, value: row.payload };
      }
      if (!this.live) await this.catchUp();
      else if (!(await this.sleep())) return { done: false, value: null };
    }
  }

  takeQueued(max: number): EventPayload[] {
    if (this.ended) return [];
    const rows = this.queue.splice(0, max);
    const last = rows.at(-1);
    if (last) this.sent = last;
    for (let i = 0; i < rows.length; i++) this.options.onSent();
    return rows.map((row) => row.payload);
  }

  /** One batch of the account's rows from the table, up to the tail's position; live once nothing is left below it. */
  private async catchUp(): Promise<void> {
    const upTo = this.tail.position;
    if (upTo === null) throw new Error('the feed tail is not started');
    const account = { accountId: this.options.accountId, types: [...this.options.types] };
    const { rows } = await readFeed(this.db, { after: this.seen, account, upTo, limit: FEED_BATCH });
    // Rows read from the table go only to a key still let in, as the tail's do.
    if (rows.length && !(await liveApiKeyIds(this.db, [this.options.keyId])).has(this.options.keyId)) this.end();
    if (this.ended) return;
    for (const row of rows) if (!this.committedEarlier(row)) this.queue.push(row);
    const last = rows.at(-1);
    if (last) this.seen = last;
    if (rows.length === FEED_BATCH) return;
    if (comparePositions(this.seen, upTo) < 0) this.seen = upTo;
    // No await since the tail's position was compared: the tail hands on nothing in between.
    const now = this.tail.position;
    if (now !== null && comparePositions(now, upTo) === 0) this.live = true;
  }

  /** A row that had committed before this stream connected (which it does not send). */
  private committedEarlier(row: FeedRow): boolean {
    const before = this.committedBefore;
    if (before === null) return false;
    if (BigInt(row.txid) >= before.xmax) {
      // Rows come in txid order: every later one is past the snapshot too.
      this.committedBefore = null;
      return false;
    }
    return committedIn(before, row.txid);
  }

  /** True when woken (rows, or the end), false after `idleMs` of nothing. */
  private sleep(): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wakeUp = null;
        resolve(false);
      }, this.options.idleMs);
      this.wakeUp = () => {
        clearTimeout(timer);
        this.wakeUp = null;
        resolve(true);
      };
    });
  }

  /** Ends the stream (the client went away, or the replica drains): a pending `next()` returns done. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.queue = [];
    this.tail.remove(this);
    this.options.onEnd();
    this.wakeUp?.();
  }

  async return(): Promise<IteratorResult<EventPayload | null>> {
    this.end();
    return { done: true, value: undefined };
  }
}
