import type { EventPayload } from '../domain/webhooks/events.service.js';

/**
 * A live event stream as a subscription's source: the events only (Yoga's SSE transport keeps the connection alive
 * itself). Not an async generator: Yoga's `return()` when the client goes away must reach the stream at once, to
 * give back its slot, while a generator would queue it behind the `next()` that waits for an event.
 */
export class LiveEvents implements AsyncIterableIterator<EventPayload> {
  constructor(private readonly stream: AsyncIterator<EventPayload | null>) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<EventPayload>> {
    for (;;) {
      const item = await this.stream.next();
      if (item.done) return { done: true, value: undefined };
      if (item.value !== null) return { done: false, value: item.value };
    }
  }

  async return(): Promise<IteratorResult<EventPayload>> {
    await this.stream.return?.();
    return { done: true, value: undefined };
  }
}
