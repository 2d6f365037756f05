import { createParser } from 'eventsource-parser';
import { expect, vi } from 'vitest';

/** One message of a stream as a real SSE parser reads it (eventsource-parser, as the typed client). */
export interface SseMessage {
  id: string | undefined;
  event: string | undefined;
  data: string;
}

/**
 * A real client of `GET /v1/events/stream` (or a GraphQL subscription over SSE): fetch over a socket, the body fed to
 * eventsource-parser as it arrives. `close()` aborts the request (the client goes away).
 */
export class SseClient {
  readonly messages: SseMessage[] = [];
  comments = 0;
  ended = false;
  private readonly abort = new AbortController();
  private done: Promise<void> = Promise.resolve();

  private constructor(readonly response: Response) {}

  static async open(url: string, init: { key: string; headers?: Record<string, string>; method?: string; body?: string }): Promise<SseClient> {
    const controller = new AbortController();
    const response = await fetch(url, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${init.key}`, accept: 'text/event-stream', ...init.headers },
      body: init.body,
      signal: controller.signal,
    });
    const client = new SseClient(response);
    Object.assign(client, { abort: controller });
    if (response.ok && response.body) client.done = client.read(response.body);
    return client;
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const parser = createParser({
      onEvent: (message) => this.messages.push({ id: message.id, event: message.event, data: message.data }),
      onComment: () => void (this.comments += 1),
    });
    const decoder = new TextDecoder();
    const reader = body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(decoder.decode(value, { stream: true }));
      }
    } catch {
      // Aborted by close(), or the server cut the connection.
    }
    this.ended = true;
  }

  /** The REST stream's events: message id, event name, and the parsed `data` (the event as GET /events/{id}). */
  get events(): { id: string; type: string; body: Record<string, unknown> }[] {
    return this.messages
      .filter((m) => m.event !== 'next' && m.event !== 'complete')
      .map((m) => ({ id: m.id ?? '', type: m.event ?? 'message', body: JSON.parse(m.data) as Record<string, unknown> }));
  }

  /** A GraphQL subscription's results (`event: next`). */
  get results(): Record<string, unknown>[] {
    return this.messages.filter((m) => m.event === 'next').map((m) => JSON.parse(m.data) as Record<string, unknown>);
  }

  async waitForEvents(count: number, timeout = 10_000): Promise<void> {
    await vi.waitFor(() => expect(this.events.length + this.results.length).toBeGreaterThanOrEqual(count), { timeout, interval: 20 });
  }

  async waitForEnd(timeout = 10_000): Promise<void> {
    await vi.waitFor(() => expect(this.ended).toBe(true), { timeout, interval: 20 });
  }

  async close(): Promise<void> {
    this.abort.abort();
    await this.done;
  }
}
