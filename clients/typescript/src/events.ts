import { createParser } from 'eventsource-parser';
import type { operations } from './schema.js';

/** An event exactly as `GET /v1/events/{id}` answers it: `{ id, type, createdAt, data }`. */
export type LiveEvent = operations['get-event']['responses'][200]['content']['application/json'];

export interface StreamEventsOptions {
  /** The service's address without `/v1`, e.g. `http://127.0.0.1:4000`. */
  baseUrl: string;
  apiKey: string;
  /** Only this kind (`submission.created`, `form.updated`, …); every kind the key may see otherwise. */
  type?: string;
  /** Resume after this event (the last one you processed, e.g. kept in your database); from now on otherwise. */
  lastEventId?: string;
  /** Stops the stream: the loop ends and the connection closes. */
  signal?: AbortSignal;
  /** Wait before reconnecting after a drop, a server drain or a 5xx/429 (the server's `retry:` field overrides it). Default 1000 ms. */
  retryMs?: number;
  fetch?: typeof fetch;
}

/** A refusal that reconnecting cannot fix (401, 403, 400 for a resume point that is no longer retained, …). */
export class EventStreamError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`GET /v1/events/stream answered ${status}`);
  }
}

const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/**
 * The live events of `GET /v1/events/stream`, oldest first, for `for await`. When the connection drops or the
 * server drains, it reconnects by itself with `Last-Event-ID` = the last event it yielded, so a consumer sees every
 * event exactly once, in order, across reconnects (the server keeps 30 days). Too many open streams (429) and
 * server errors are retried after `retryMs`; other refusals throw `EventStreamError`.
 *
 *   for await (const event of streamEvents({ baseUrl, apiKey })) console.log(event.type, event.data);
 */
export async function* streamEvents(options: StreamEventsOptions): AsyncGenerator<LiveEvent, void, undefined> {
  const fetchImpl = options.fetch ?? fetch;
  const url = new URL(`${options.baseUrl.replace(/\/+$/, '')}/v1/events/stream`);
  if (options.type) url.searchParams.set('type', options.type);
  let lastEventId = options.lastEventId;
  let retryMs = options.retryMs ?? 1000;
  const { signal } = options;
  while (!signal?.aborted) {
    let response: Response;
    try {
      response = await fetchImpl(url, {
        headers: { authorization: `Bearer ${options.apiKey}`, accept: 'text/event-stream', ...(lastEventId && { 'last-event-id': lastEventId }) },
        signal,
      });
    } catch {
      await sleep(retryMs, signal);
      continue;
    }
    if (!response.ok || !response.body) {
      const body: unknown = await response.json().catch(() => null);
      if (response.status !== 429 && response.status < 500) throw new EventStreamError(response.status, body);
      await sleep(Math.max(retryMs, Number(response.headers.get('retry-after') ?? 0) * 1000), signal);
      continue;
    }
    const received: { id: string | undefined; data: string }[] = [];
    const parser = createParser({
      onEvent: (message) => void received.push({ id: message.id, data: message.data }),
      onRetry: (ms) => void (retryMs = ms),
    });
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch {
          break; // The connection dropped (or was aborted): reconnect below, unless stopped.
        }
        if (chunk.done) break;
        parser.feed(decoder.decode(chunk.value, { stream: true }));
        for (let message = received.shift(); message; message = received.shift()) {
          const event = JSON.parse(message.data) as LiveEvent;
          yield event;
          // Only once the consumer took it: a reconnect resumes after what was really handled.
          lastEventId = message.id ?? event.id;
        }
      }
    } finally {
      await reader.cancel().catch(() => undefined);
    }
    await sleep(retryMs, signal);
  }
}
