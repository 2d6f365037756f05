import { randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import type { EventJob } from '../../src/domain/webhooks/events.service.js';
import { createEventFanoutHandler, type EventFanoutDeps } from '../../src/worker/jobs/event-fanout.job.js';
import { relayEvents, startEventRelay } from '../../src/worker/jobs/event-relay.js';
import { JobQueue, QUEUE } from '../../src/infra/jobs.js';
import { PhiCipher } from '../../src/infra/phi-crypto.js';
import { createAccount, createForm, ingest, useQueueDatabase } from './fixtures.js';
import { waitFor } from './support.js';

const env = useQueueDatabase();
const deps = (queue: JobQueue = env.queue): EventFanoutDeps => ({ db: env.db, queue, phi: new PhiCipher(randomBytes(32)) });

/** A form with a webhookUrl (one delivery per submission) and `count` submissions, each recording its event. */
async function recordSubmissions(count: number): Promise<number[]> {
  const account = await createAccount(env.db.prisma);
  const form = await createForm(env.db.prisma, account.id, { webhookUrl: 'https://hooks.example.test/relay' });
  const ids: number[] = [];
  for (let i = 0; i < count; i++) ids.push((await ingest(env.db.prisma, form, { 'Full name': `n${i}` })).id);
  return ids;
}

/** Events not yet taken off the outbox (relayed ones stay as the event history). */
const waiting = () => env.db.prisma.outboxEvent.count({ where: { relayedAt: null } });

/** The submissions whose deliveries were written, one entry per delivery. */
const delivered = async () => (await env.db.prisma.webhookDelivery.findMany()).map((d) => (d.payload as { data: { id: number } }).data.id).sort((a, b) => a - b);

const eventJobs = async () => (await env.queue.boss.findJobs<EventJob>(QUEUE.eventFanout)).map((job) => job.data);

describe('outbox relay', () => {
  it('takes events off the outbox a batch at a time and fans them out in the same transaction, keeping them as history', async () => {
    const ids = await recordSubmissions(5);
    expect(await relayEvents(deps(), 2)).toStrictEqual({ events: 2, queued: 0, deliveries: 2, emails: 2 });
    expect(await waiting()).toBe(3);
    expect(await delivered()).toStrictEqual(ids.slice(0, 2));
    expect(await relayEvents(deps())).toStrictEqual({ events: 3, queued: 0, deliveries: 3, emails: 3 });
    expect(await relayEvents(deps())).toStrictEqual({ events: 0, queued: 0, deliveries: 0, emails: 0 });
    expect(await waiting()).toBe(0);
    expect(await env.db.prisma.outboxEvent.count()).toBe(5);
    expect(await delivered()).toStrictEqual(ids);
    // Each delivery has its job, and each pass one for its submissions' emails; no event went through the queue.
    expect(await env.queue.boss.findJobs(QUEUE.webhookDelivery)).toHaveLength(5);
    expect((await env.queue.boss.findJobs<{ items: unknown[] }>(QUEUE.emailSend)).map((job) => job.data.items.length).sort()).toStrictEqual([2, 3]);
    expect(await eventJobs()).toStrictEqual([]);
  });

  it('costs the same statements for one event as for a batch of twenty', async () => {
    const statementsFor = async (count: number) => {
      await recordSubmissions(count);
      env.db.resetQueryCount();
      expect((await relayEvents(deps())).deliveries).toBe(count);
      return env.db.queries.filter((q) => !/^(BEGIN|COMMIT)/i.test(q.trim())).length;
    };
    // Take the events with their targets (one statement), insert the deliveries, their jobs, the emails' jobs.
    expect(await statementsFor(1)).toBe(4);
    expect(await statementsFor(20)).toBe(4);
  });

  it('queues a batch whose fan-out fails as event.fanout jobs, where the good events go out one at a time', async () => {
    const ids = await recordSubmissions(2);
    const form = await env.db.prisma.form.findFirstOrThrow();
    // An event the fan-out cannot read: its submission id is no number.
    const payload = { id: 'evt_unreadable', type: 'submission.created', createdAt: new Date().toISOString(), data: { id: 'not-a-number' } };
    await env.db.prisma.outboxEvent.create({ data: { accountId: form.accountId, formId: form.id, eventId: payload.id, type: payload.type, payload } });
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      if (String(chunk).includes('event relay')) lines.push(String(chunk));
      return true;
    });
    try {
      expect(await relayEvents(deps())).toStrictEqual({ events: 3, queued: 3, deliveries: 0, emails: 0 });
    } finally {
      vi.restoreAllMocks();
    }
    expect(await waiting()).toBe(0);
    expect(await delivered()).toStrictEqual([]);
    // Logged with the error's name and code, never its message (it quotes the value it could not read).
    expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toStrictEqual([
      { level: 'warn', time: expect.any(String), msg: 'event relay: fan-out failed, batch queued', error: { name: expect.any(String), code: '22P02' }, queued: 3 },
    ]);
    expect(lines.join('')).not.toContain('not-a-number');
    // The queue's handler: the batch fails again, then each event runs on its own; only the unreadable one fails.
    const handler = createEventFanoutHandler(deps());
    const jobs = await eventJobs();
    expect(jobs).toHaveLength(3);
    await expect(handler.batch(jobs)).rejects.toThrow();
    const outcomes = await Promise.allSettled(jobs.map((job) => handler.single(job)));
    expect(outcomes.map((o) => o.status).sort()).toStrictEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect(await delivered()).toStrictEqual(ids);
  });

  it('keeps the events when the database fails both ways, and moves them on the next pass', async () => {
    const ids = await recordSubmissions(3);
    const failing = vi.spyOn(JobQueue.prototype, 'enqueueInTransaction').mockRejectedValue(new Error('job insert failed'));
    await expect(relayEvents(deps())).rejects.toThrow('job insert failed');
    failing.mockRestore();
    expect(await waiting()).toBe(3);
    expect(await delivered()).toStrictEqual([]);
    expect(await eventJobs()).toStrictEqual([]);
    expect((await relayEvents(deps())).deliveries).toBe(3);
    expect(await delivered()).toStrictEqual(ids);
  });

  it('relays running at once fan each event out exactly once', async () => {
    const ids = await recordSubmissions(40);
    const drain = async () => {
      let moved = 0;
      for (;;) {
        const { events } = await relayEvents(deps(), 7);
        if (events === 0) return moved;
        moved += events;
      }
    };
    const moved = await Promise.all([drain(), drain(), drain()]);
    expect(moved.reduce((a, b) => a + b, 0)).toBe(40);
    expect(await delivered()).toStrictEqual(ids);
  });

  it('polls: a running relay fans out an event recorded after it started; stop() ends it', async () => {
    // The first relay's passes, counted through its queue (every pass that takes events inserts their jobs).
    let passes = 0;
    const counted = Object.create(env.queue) as JobQueue;
    counted.enqueueInTransaction = (...args) => {
      passes++;
      return env.queue.enqueueInTransaction(...args);
    };
    const relay = startEventRelay(deps(counted), { intervalMs: 50 });
    try {
      const [id] = await recordSubmissions(1);
      await waitFor(async () => ((await delivered()).includes(id!) ? true : null), 10_000, 'the relayed event');
    } finally {
      await relay.stop();
    }
    const passesAtStop = passes;
    // An event recorded after stop(): a second relay, already running, woken by the same NOTIFY and polling as often,
    // fans it out; the stopped one has made no pass meanwhile.
    const second = startEventRelay(deps(), { intervalMs: 50 });
    try {
      const [late] = await recordSubmissions(1);
      await waitFor(async () => ((await delivered()).includes(late!) ? true : null), 10_000, 'the late event, relayed by the second relay');
    } finally {
      await second.stop();
    }
    expect(passes).toBe(passesAtStop);
    expect(await waiting()).toBe(0);
  });
});

describe('outbox relay gathering', () => {
  it('relays an event after a quiet spell at once; close ones wait for coalesceEvents, or coalesceMs after the first', async () => {
    // No polling within the test: every pass here is a NOTIFY's.
    const relay = startEventRelay(deps(), { intervalMs: 600_000, coalesceMs: 5_000, coalesceEvents: 3 });
    try {
      // Its LISTEN registered (one statement on its own connection).
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      // The first event heard: nothing to wait for.
      let started = Date.now();
      const [first] = await recordSubmissions(1);
      await waitFor(async () => ((await delivered()).includes(first!) ? true : null), 15_000, 'the first event');
      expect(Date.now() - started).toBeLessThan(1_500);
      // Three events within the window of the one before: a pass at the third, long before the window ends.
      started = Date.now();
      const three = await recordSubmissions(3);
      await waitFor(async () => ((await waiting()) === 0 ? true : null), 15_000, 'the three events');
      expect(Date.now() - started).toBeLessThan(4_000);
      // One more right after them: it waits for others until the window ends.
      const [late] = await recordSubmissions(1);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(await waiting()).toBe(1);
      await waitFor(async () => ((await delivered()).includes(late!) ? true : null), 15_000, 'the last event, after the window');
      expect(await delivered()).toStrictEqual([first!, ...three, late!]);
    } finally {
      await relay.stop();
    }
  }, 30_000);
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
    const relay = startEventRelay(deps(), { intervalMs: 10, maxBackoffMs: 80 });
    try {
      await waitFor(async () => (lines.length >= 5 ? true : null), 10_000, 'five failed passes');
      expect(lines.slice(0, 5)).toStrictEqual(
        [20, 40, 80, 80, 80].map((retryInMs) => ({ level: 'error', time: expect.any(String), msg: 'event relay', error: 'connection refused', retryInMs })),
      );
      failing.mockRestore();
      await waitFor(async () => ((await delivered()).includes(id!) ? true : null), 10_000, 'the event relayed once the database answers');
      // Back to the interval: a failure now (another event waiting) waits 20 ms again, not the cap.
      const before = lines.length;
      const again = vi.spyOn(JobQueue.prototype, 'enqueueInTransaction').mockRejectedValue(new Error('connection refused'));
      await recordSubmissions(1);
      await waitFor(async () => (lines.length > before ? true : null), 10_000, 'the next failure');
      again.mockRestore();
      expect(lines[before]?.retryInMs).toBe(20);
    } finally {
      await relay.stop();
      vi.restoreAllMocks();
    }
  });
});
