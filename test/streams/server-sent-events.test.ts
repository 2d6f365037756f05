import { describe, expect, it } from 'vitest';
import type { EventPayload } from '../../src/domain/webhooks/events.service.js';
import { KEEP_ALIVE, ServerSentEvents } from '../../src/execution/server-sent-events.js';

const event = (n: number): EventPayload => ({ id: `evt_${n}`, type: 'form.updated', createdAt: '2026-01-01T00:00:00.000Z', data: { n } });

/** A stream that has `waiting` events queued at once, handed out as EventSubscriber does: one by next(), the rest taken. */
function queued(waiting: EventPayload[]) {
  const taken: number[] = [];
  return {
    taken,
    async next(): Promise<IteratorResult<EventPayload | null>> {
      const first = waiting.shift();
      return first ? { done: false, value: first } : { done: true, value: undefined };
    },
    takeQueued(max: number): EventPayload[] {
      taken.push(max);
      return waiting.splice(0, max);
    },
  };
}

describe('ServerSentEvents', () => {
  it('writes the events already waiting in one piece, at most 100 per write, each a whole message', async () => {
    const source = queued(Array.from({ length: 150 }, (_, i) => event(i)));
    const sse = new ServerSentEvents(source, async (e) => JSON.stringify(e));
    expect((await sse.next()).value).toBe(KEEP_ALIVE);
    const first = (await sse.next()).value as string;
    const second = (await sse.next()).value as string;
    expect(first.split('\n\n').filter(Boolean)).toHaveLength(100);
    expect(second.split('\n\n').filter(Boolean)).toHaveLength(50);
    expect(first.startsWith(`id: evt_0\nevent: form.updated\ndata: ${JSON.stringify(event(0))}\n\n`)).toBe(true);
    expect(second.endsWith(`id: evt_149\nevent: form.updated\ndata: ${JSON.stringify(event(149))}\n\n`)).toBe(true);
    expect((await sse.next()).done).toBe(true);
  });
});
