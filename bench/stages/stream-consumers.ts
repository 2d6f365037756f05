import { parentPort, workerData } from 'node:worker_threads';
import { createParser } from 'eventsource-parser';
import { Agent, request } from 'undici';

/**
 * The streams stage's SSE clients, on a thread of their own: on the load generator's event loop, parsing tens of
 * thousands of messages a second held autocannon's requests back, and the ratio measured with streams open fell
 * for the bench's sake, not the gateway's (their clients sit on other machines in production). They still share
 * the machine's two cores with everything else.
 *
 * `drain` makes them read the bytes and no more from then on (for the stage's ratios with streams open): parsing
 * 40 messages per ingest cost this process 0.18 ms of CPU per ingest, on the cores the gateway and its database
 * share (a client elsewhere costs the gateway's machine nothing); the exactly-once check is the paced phase's.
 *
 * Messages in: `{ op: 'open' }`, `{ op: 'counts' }`, `{ op: 'report' }`, `{ op: 'drain' }`, `{ op: 'close' }`; each
 * is answered once.
 */

export interface ConsumerSpec {
  url: string;
  key: string;
  seesSubmissions: boolean;
}

export interface StreamReport {
  seesSubmissions: boolean;
  /** Submission id → when its event arrived (ms since the epoch). */
  received: Map<number, number>;
  duplicates: number;
  other: number;
}

export type ConsumerRequest = { op: 'open' } | { op: 'counts' } | { op: 'report' } | { op: 'drain' } | { op: 'close' };
export type ConsumerAnswer =
  | { op: 'open' }
  | { op: 'counts'; messages: number; bytes: number; submissionIds: number[] }
  | { op: 'drain' }
  | { op: 'report'; streams: StreamReport[]; createdAt: Map<number, number> }
  | { op: 'close' }
  | { op: 'error'; message: string };

interface OpenStream extends StreamReport {
  close(): void;
}

/** Wall-clock now with sub-millisecond precision, comparable with the gateways' `createdAt` and other threads'. */
const wallNow = (): number => performance.timeOrigin + performance.now();

const specs = workerData as ConsumerSpec[];
const agent = new Agent({ connections: 256, pipelining: 0 });
const streams: OpenStream[] = [];
/** Submission id → its event's createdAt (ms since the epoch), as the first stream to see it read it. */
const createdAt = new Map<number, number>();
let draining = false;
/** Bytes read while draining. */
let drained = 0;

async function openStream({ url, key, seesSubmissions }: ConsumerSpec): Promise<OpenStream> {
  const controller = new AbortController();
  const response = await request(`${url}/v1/events/stream`, { dispatcher: agent, headers: { authorization: `Bearer ${key}` }, signal: controller.signal });
  if (response.statusCode !== 200) throw new Error(`streams: GET /v1/events/stream answered ${response.statusCode}: ${await response.body.text()}`);
  const stream: OpenStream = { seesSubmissions, received: new Map(), duplicates: 0, other: 0, close: () => controller.abort() };
  const parser = createParser({
    onEvent: (message) => {
      const at = wallNow();
      const event = JSON.parse(message.data) as { type: string; createdAt: string; data: { id: number } };
      if (event.type !== 'submission.created') return void (stream.other += 1);
      if (stream.received.has(event.data.id)) stream.duplicates += 1;
      else stream.received.set(event.data.id, at);
      if (!createdAt.has(event.data.id)) createdAt.set(event.data.id, Date.parse(event.createdAt));
    },
  });
  const decoder = new TextDecoder();
  response.body.on('data', (chunk: Buffer) => {
    if (draining) drained += chunk.length;
    else parser.feed(decoder.decode(chunk, { stream: true }));
  });
  response.body.on('error', () => undefined);
  return stream;
}

const answer = (message: ConsumerAnswer): void => parentPort!.postMessage(message);

parentPort!.on('message', (message: ConsumerRequest) => {
  void (async () => {
    switch (message.op) {
      case 'open':
        for (const spec of specs) streams.push(await openStream(spec));
        return answer({ op: 'open' });
      case 'counts': {
        // Everything received so far, and per stream that may see submissions, how many distinct ones.
        const messages = streams.reduce((sum, stream) => sum + stream.received.size + stream.duplicates + stream.other, 0);
        return answer({ op: 'counts', messages, bytes: drained, submissionIds: streams.filter((s) => s.seesSubmissions).map((s) => s.received.size) });
      }
      case 'report':
        return answer({ op: 'report', streams: streams.map(({ seesSubmissions, received, duplicates, other }) => ({ seesSubmissions, received, duplicates, other })), createdAt });
      case 'drain':
        draining = true;
        return answer({ op: 'drain' });
      case 'close':
        for (const stream of streams) stream.close();
        await agent.close().catch(() => undefined);
        return answer({ op: 'close' });
    }
  })().catch((error: unknown) => answer({ op: 'error', message: error instanceof Error ? error.message : String(error) }));
});
