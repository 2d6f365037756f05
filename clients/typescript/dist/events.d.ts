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
export declare class EventStreamError extends Error {
    readonly status: number;
    readonly body: unknown;
    constructor(status: number, body: unknown);
}
/**
 * The live events of `GET /v1/events/stream`, oldest first, for `for await`. When the connection drops or the
 * server drains, it reconnects by itself with `Last-Event-ID` = the last event it yielded, so a consumer sees every
 * event exactly once, in order, across reconnects (the server keeps 30 days). Too many open streams (429) and
 * server errors are retried after `retryMs`; other refusals throw `EventStreamError`.
 *
 *   for await (const event of streamEvents({ baseUrl, apiKey })) console.log(event.type, event.data);
 */
export declare function streamEvents(options: StreamEventsOptions): AsyncGenerator<LiveEvent, void, undefined>;
