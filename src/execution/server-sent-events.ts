import type { EventPayload } from '../domain/webhooks/events.service.js';

/** A comment line (WHATWG server-sent events): ignored by clients, it keeps proxies and load balancers from timing out. */
export const KEEP_ALIVE = ': keep-alive\n\n';

/**
 * An event stream as `text/event-stream` (contract §7.2): one message per event (`id`, `event`, `data` on one line:
 * JSON never holds a raw line break), a keep-alive comment whenever the stream was idle, and one at once so that the
 * client sees the stream open. Pulled one message at a time by the facade (src/rest/streamed-body.ts:
 * backpressure); `return()` ends the stream (src/streams), which gives back its slot.
 */
export class ServerSentEvents implements AsyncIterableIterator<string> {
  private opened = false;

  constructor(
    private readonly events: AsyncIterator<EventPayload | null>,
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
    return { done: false, value: `id: ${event.id}\nevent: ${event.type}\ndata: ${await this.data(event)}\n\n` };
  }

  async return(): Promise<IteratorResult<string>> {
    await this.events.return?.();
    return { done: true, value: undefined };
  }
}
