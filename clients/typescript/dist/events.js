import { createParser } from 'eventsource-parser';
/** A refusal that reconnecting cannot fix (401, 403, 400 for a resume point that is no longer retained, …). */
export class EventStreamError extends Error {
    status;
    body;
    constructor(status, body) {
        super(`GET /v1/events/stream answered ${status}`);
        this.status = status;
        this.body = body;
    }
}
const sleep = (ms, signal) => new Promise((resolve) => {
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
export async function* streamEvents(options) {
    const fetchImpl = options.fetch ?? fetch;
    const url = new URL(`${options.baseUrl.replace(/\/+$/, '')}/v1/events/stream`);
    if (options.type)
        url.searchParams.set('type', options.type);
    let lastEventId = options.lastEventId;
    let retryMs = options.retryMs ?? 1000;
    const { signal } = options;
    while (!signal?.aborted) {
        let response;
        try {
            response = await fetchImpl(url, {
                headers: { authorization: `Bearer ${options.apiKey}`, accept: 'text/event-stream', ...(lastEventId && { 'last-event-id': lastEventId }) },
                signal,
            });
        }
        catch {
            await sleep(retryMs, signal);
            continue;
        }
        if (!response.ok || !response.body) {
            const body = await response.json().catch(() => null);
            if (response.status !== 429 && response.status < 500)
                throw new EventStreamError(response.status, body);
            await sleep(Math.max(retryMs, Number(response.headers.get('retry-after') ?? 0) * 1000), signal);
            continue;
        }
        const received = [];
        const parser = createParser({
            onEvent: (message) => void received.push({ id: message.id, data: message.data }),
            onRetry: (ms) => void (retryMs = ms),
        });
        const reader = response.body.getReader();
        const decoder = new TextDecoder();
        try {
            for (;;) {
                let chunk;
                try {
                    chunk = await reader.read();
                }
                catch {
                    break; // The connection dropped (or was aborted): reconnect below, unless stopped.
                }
                if (chunk.done)
                    break;
                parser.feed(decoder.decode(chunk.value, { stream: true }));
                for (let message = received.shift(); message; message = received.shift()) {
                    const event = JSON.parse(message.data);
                    yield event;
                    // Only once the consumer took it: a reconnect resumes after what was really handled.
                    lastEventId = message.id ?? event.id;
                }
            }
        }
        finally {
            await reader.cancel().catch(() => undefined);
        }
        await sleep(retryMs, signal);
    }
}
