import { describe, expect, it, vi } from 'vitest';
import type { EventJob } from '../../src/domain/webhooks/events.service.js';
import { relayEvents, startEventRelay } from '../../src/worker/jobs/event-relay.js';
import { JobQueue, QUEUE } from '../../src/infra/jobs.js';
import { createAccount, createForm, ingest, useQueueDatabase } from './fixtures.js';
import { waitFor } from './support.js';

const env = useQueueDatabase();

async function recordSubmissions(count: number): Promise<number[]> {
  const account = await createAccount(env.db.prisma);
  const form = await createForm(env.db.prisma, account.id);
  const ids: number[] = [];
  for (let i = 0; i < count; i++) ids.push((await ingest(env.db.prisma, form, { 'Full name': `n${i}` })).id);
  return ids;
}

/** Events not yet handed to the queue (relayed ones stay as the event history). */
const waiting = () => env.db.prisma.outboxEvent.count({ where: { relayedAt: null } });

const eventJobs = async () => (await env.queue.boss.findJobs<EventJob>(QUEUE.eventFanout)).map((job) => job.data);

describe('outbox relay', () => {
  it('moves recorded events into event.fanout jobs, a batch at a time, marking them relayed and keeping them as history', async () => {
    const ids = await recordSubmissions(5);
    const recorded = await env.db.prisma.outboxEvent.findMany({ orderBy: { id: 'asc' } });
    expect(await relayEvents(env.db, env.queue, 2)).toBe(2);
    expect(await waiting()).toBe(3);
    expect(await eventJobs()).toHaveLength(2);
    expect(await relayEvents(env.db, env.queue)).toBe(3);
    expect(await relayEvents(env.db, env.queue)).toBe(0);
    expect(await waiting()).toBe(0);
    expect(await env.db.prisma.outboxEvent.count()).toBe(5);
    const jobs = await eventJobs();
    expect(jobs.map((job) => job.payload.data.id).sort()).toStrictEqual([...ids].sort());
    expect(jobs.sort((a, b) => a.payload.id.localeCompare(b.payload.id))).toStrictEqual(
      recorded.map(({ accountId, formId, payload }) => ({ accountId, formId, payload })).sort((a, b) => (a.payload as { id: string }).id.localeCompare((b.payload as { id: string }).id)),
    );
  });

  it('keeps the events when the job insert fails, and moves them on the next pass', async () => {
    await recordSubmissions(3);
    const failing = vi.spyOn(JobQueue.prototype, 'enqueueInTransaction').mockRejectedValueOnce(new Error('job insert failed'));
    await expect(relayEvents(env.db, env.queue)).rejects.toThrow('job insert failed');
    failing.mockRestore();
    expect(await waiting()).toBe(3);
    expect(await eventJobs()).toStrictEqual([]);
    expect(await relayEvents(env.db, env.queue)).toBe(3);
    expect(await eventJobs()).toHaveLength(3);
  });

  it('relays running at once hand each event over exactly once', async () => {
    const ids = await recordSubmissions(40);
    const drain = async () => {
      let moved = 0;
      for (;;) {
        const batch = await relayEvents(env.db, env.queue, 7);
        if (batch === 0) return moved;
        moved += batch;
      }
    };
    const moved = await Promise.all([drain(), drain(), drain()]);
    expect(moved.reduce((a, b) => a + b, 0)).toBe(40);
    const jobs = await eventJobs();
    expect(jobs.map((job) => job.payload.data.id).sort()).toStrictEqual([...ids].sort());
  });

  it('polls: a running relay hands over an event recorded after it started; stop() ends it', async () => {
    // The first relay's passes, counted through its queue (every pass inserts its batch, empty or not).
    let passes = 0;
    const counted = Object.create(env.queue) as JobQueue;
    counted.enqueueInTransaction = (...args) => {
      passes++;
      return env.queue.enqueueInTransaction(...args);
    };
    const relay = startEventRelay(env.db, counted, { intervalMs: 50 });
    try {
      const [id] = await recordSubmissions(1);
      const [job] = await waitFor(async () => {
        const jobs = await eventJobs();
        return jobs.length ? jobs : null;
      }, 10_000, 'the relayed event');
      expect(job?.payload.data.id).toBe(id);
    } finally {
      await relay.stop();
    }
    const passesAtStop = passes;
    // An event recorded after stop(): a second relay, already running, woken by the same NOTIFY and polling as often,
    // hands it over; the stopped one has made no pass meanwhile.
    const second = startEventRelay(env.db, env.queue, { intervalMs: 50 });
    try {
      const [late] = await recordSubmissions(1);
      await waitFor(async () => (await eventJobs()).some((data) => data.payload.data.id === late), 10_000, 'the late event, relayed by the second relay');
    } finally {
      await second.stop();
    }
    expect(passes).toBe(passesAtStop);
    expect(await waiting()).toBe(0);
  });
});

describe('outbox relay while the database fails', () => {
  it('backs off, doubling its wait up to the cap, and goes back to its interval once a pass succeeds', async () => {
    const [id] = await recordSubmissions(1);
    // The relay's lines, as the logger writes them to stdout.
    const lines: Record<string, unknown>[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      if (String(chunk).includes('"msg":"event relay"')) lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      return true;
    });
    const failing = vi.spyOn(JobQueue.prototype, 'enqueueInTransaction').mockRejectedValue(new Error('connection refused'));
    const relay = startEventRelay(env.db, env.queue, { intervalMs: 10, maxBackoffMs: 80 });
    try {
      await waitFor(async () => (lines.length >= 5 ? true : null), 10_000, 'five failed passes');
      expect(lines.slice(0, 5)).toStrictEqual(
        [20, 40, 80, 80, 80].map((retryInMs) => ({ level: 'error', time: expect.any(String), msg: 'event relay', error: 'connection refused', retryInMs })),
      );
      failing.mockRestore();
      const [job] = await waitFor(async () => {
        const jobs = await eventJobs();
        return jobs.length ? jobs : null;
      }, 10_000, 'the event relayed once the database answers');
      expect(job?.payload.data.id).toBe(id);
      // Back to the interval: a failure now waits 20 ms again, not the cap.
      const before = lines.length;
      vi.spyOn(JobQueue.prototype, 'enqueueInTransaction').mockRejectedValueOnce(new Error('connection refused'));
      await waitFor(async () => (lines.length > before ? true : null), 10_000, 'the next failure');
      expect(lines[before]?.retryInMs).toBe(20);
    } finally {
      await relay.stop();
      vi.restoreAllMocks();
    }
  });
});
