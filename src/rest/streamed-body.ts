import { Readable, type Writable } from 'node:stream';
import { Response } from '@whatwg-node/server';
import type { StreamedBody } from './route.js';

/**
 * A streamed route's body as a Node Readable, which the server adapter pipes to the socket: `pipe` reads the next
 * chunk only when the socket has drained (backpressure), and the adapter destroys the Readable when the response
 * closes (the client went away), which closes the producer's iterator (its `finally` releases what it holds).
 *
 * A failure after the first byte cannot change the status any more: it is logged and the connection is cut (the
 * response destroyed), so a client never takes a truncated export for a whole one.
 */
class ProducerStream extends Readable {
  private target: Writable | undefined;
  private reading = false;

  constructor(
    private readonly source: AsyncIterator<string>,
    private readonly onError: (error: unknown) => void,
  ) {
    super();
  }

  override pipe<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T {
    // Kept to cut the connection on a failure: a Readable's error does not reach what it is piped to.
    this.target = destination as unknown as Writable;
    return super.pipe(destination, options);
  }

  override _read(): void {
    if (this.reading) return;
    this.reading = true;
    this.source.next().then(
      (result) => {
        this.reading = false;
        this.push(result.done ? null : result.value);
      },
      (error: unknown) => {
        this.reading = false;
        this.onError(error);
        this.destroy();
        this.target?.destroy();
      },
    );
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.source.return?.().then(
      () => callback(error),
      () => callback(error),
    );
  }
}

/** `onError`: told of a failure after the first byte (the caller logs it with the request id; never row data). */
export function streamedResponse(streamed: StreamedBody, rateLimitHeaders: Record<string, string>, onError: (error: unknown) => void): Response {
  const body = new ProducerStream(streamed.body[Symbol.asyncIterator](), onError);
  return new Response(body as unknown as BodyInit, { status: streamed.status, headers: { ...rateLimitHeaders, ...streamed.headers } });
}
