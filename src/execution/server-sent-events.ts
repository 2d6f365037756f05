import type { EventPayload } from '../domain/webhooks/events.service.js';

/** A comment line (WHATWG server-sent events): ignored by clients, it keeps proxies and load balancers from timing out. */
export const KEEP_ALIVE = ': keep-alive\n\n';

/** An open stream's events (src/streams' EventStream): pulled one by one, plus those already waiting at once. */
interface QueuedEvents extends AsyncIterator<EventPayload | null> {
  takeQueued(max: number): EventPayload[];
}

/** At most this many events in one write: a client far behind still gets them in pieces of a bounded size. */
const MAX_EVENTS_PER_WRITE = 100;

/**
 * An event stream as `text/event-stream` (contract §7.2): one message per event (`id`, `event`, `data` on one line:
 * JSON never holds a raw line break), a keep-alive comment whenever the stream was idle, and one at once so that the
 * client sees the stream open. Pulled one message at a time by the facade (src/rest/streamed-body.ts:
 * backpressure); `return()` ends the stream (src/streams), which gives back its slot.
 */
export class ServerSentEvents implements AsyncIterableIterator<string> {
  private opened = false;

  constructor(
    private readonly events: QueuedEvents,
    /** The `data` line: the event's JSON exactly as `GET /v1/events/{id}` answers it. */
    private readonly data: (event: EventPayload) => Promise<string>,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<string>> {
    if (!this.opened) {
      this.opened = true;
      return { done: false, value: KEEP_ALIVE };
    }
    const item = await this.events.next();
    if (item.done) return { done: true, value: undefined };
    const event = item.value;
    if (event === null) return { done: false, value: KEEP_ALIVE };
    // Whatever else is waiting goes out in the same write: per event and stream, a write of its own was most of a
    // replica's CPU under a steady load (the bench's streams stage).
    let messages = await this.message(event);
    for (const more of this.events.takeQueued(MAX_EVENTS_PER_WRITE - 1)) messages += await this.message(more);
    return { done: false, value: messages };
  }

  private async message(event: EventPayload): Promise<string> {
    return `id: ${event.id}\nevent: ${event.type}\ndata: ${await this.data(event)}\n\n`;
  }

  async return(): Promise<IteratorResult<string>> {
    await this.events.return?.();
    return { done: true, value: undefined };
  }
}
