import { Readable, type Writable } from 'node:stream';
import { Response } from '@whatwg-node/server';
import type { StreamedBody } from '../execution/route.js';

/**
 * A streamed route's body as a Node Readable, which the server adapter pipes to the socket: `pipe` reads the next
 * chunk only when the socket has drained (backpressure), and the adapter destroys the Readable when the response
 * closes (the client went away), which closes the producer's iterator (its `finally` releases what it holds).
 *
 * A failure after the first byte cannot change the status any more: it is logged and the connection is cut (the
 * response destroyed), so a client never takes a truncated export for a whole one.
 */
/** Streams being written now: shutdown shortens their idle limit, so a stalled reader does not hold the process. */
const live = new Set<ProducerStream>();
let drainIdleMs: number | null = null;

export interface StreamIdle {
  /** How long the client may go without reading (the socket not draining) before its response is ended. */
  ms: number;
  /** Told once when a stalled response is ended (the caller logs it with the request id). */
  onIdle(): void;
}

class ProducerStream extends Readable {
  private target: Writable | undefined;
  private reading = false;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly source: AsyncIterator<string>,
    private readonly onError: (error: unknown) => void,
    private readonly idle: StreamIdle,
  ) {
    super();
    live.add(this);
  }

  /**
   * Armed whenever a chunk was handed over and the socket has not asked for the next: `pipe` asks again only once
   * the client has read what was sent, so a client that stops reading leaves it armed until it fires.
   */
  armIdle(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.idle.onIdle();
      this.destroy();
      this.target?.destroy();
    }, Math.min(this.idle.ms, drainIdleMs ?? Infinity));
  }

  get waitingForReader(): boolean {
    return this.idleTimer !== undefined;
  }

  override pipe<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T {
    // Kept to cut the connection on a failure: a Readable's error does not reach what it is piped to.
    this.target = destination as unknown as Writable;
    return super.pipe(destination, options);
  }

  override _read(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    if (this.reading) return;
    this.reading = true;
    this.source.next().then(
      (result) => {
        this.reading = false;
        this.push(result.done ? null : result.value);
        if (!result.done && !this.destroyed) this.armIdle();
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
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    live.delete(this);
    this.source.return?.().then(
      () => callback(error),
      () => callback(error),
    );
  }
}

/**
 * `onError`: told of a failure after the first byte (the caller logs it with the request id; never row data).
 * `idle`: a client that has not read for `idle.ms` has its response ended (connection cut, as for a failure).
 */
export function streamedResponse(streamed: StreamedBody, rateLimitHeaders: Record<string, string>, onError: (error: unknown) => void, idle: StreamIdle): Response {
  const body = new ProducerStream(streamed.body[Symbol.asyncIterator](), onError, idle);
  return new Response(body as unknown as BodyInit, { status: streamed.status, headers: { ...rateLimitHeaders, ...streamed.headers } });
}

/**
 * Shutdown: from now on a stream whose client has not read for `ms` is ended, those stalled already within `ms`
 * from now, so that stalled readers do not hold the drain to its deadline (and the exit code at 1).
 */
export function shortenStreamIdle(ms: number): void {
  drainIdleMs = ms;
  for (const stream of live) if (stream.waitingForReader) stream.armIdle();
}
