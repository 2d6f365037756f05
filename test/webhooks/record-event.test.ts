import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { recordEvent } from '../../src/domain/webhooks/events.service.js';
import { QUEUE } from '../../src/infra/jobs.js';
import { PhiCipher } from '../../src/infra/phi-crypto.js';
import { createAccount, createForm, ingest, subscribe, useQueueDatabase } from './fixtures.js';

const env = useQueueDatabase();

const recorded = async () => (await env.db.prisma.outboxEvent.findMany({ orderBy: { id: 'asc' } })).map(({ accountId, formId, payload }) => ({ accountId, formId, payload }));

describe('recordEvent', () => {
  it('writes ONE outbox row in the transaction: the event as it leaves the service, fanned out later', async () => {
    const account = await createAccount(env.db.prisma);
    const form = await createForm(env.db.prisma, account.id, { webhookUrl: 'https://hooks.example.test/form-hook' });
    await subscribe(env.db.prisma, account.id, 'https://receiver.test/all');

    const submission = await ingest(env.db.prisma, form, { 'Full name': 'Ada', Email: 'ada@example.com' });

    const events = await recorded();
    expect(events).toStrictEqual([
      {
        accountId: account.id,
        formId: form.id,
        payload: { id: expect.stringMatching(/^evt_[0-9a-z]{9}[A-Za-z0-9_-]{16}$/), type: 'submission.created', createdAt: expect.any(String), data: { ...submission } },
      },
    ]);
    expect(JSON.stringify(events)).not.toContain('form-hook');
    // Deliveries, emails, even the fan-out's own job, come later (the worker's relay and fan-out).
    expect(await env.db.prisma.webhookDelivery.count()).toBe(0);
    for (const name of Object.values(QUEUE)) expect(await env.queue.boss.findJobs(name), name).toStrictEqual([]);
  });

  it('writes nothing when the transaction rolls back', async () => {
    const account = await createAccount(env.db.prisma);
    const form = await createForm(env.db.prisma, account.id, { webhookUrl: 'https://hooks.example.test/x' });
    await expect(ingest(env.db.prisma, form, { Email: 'ada@example.com' }, { fail: true })).rejects.toThrow('rolled back');
    expect(await env.db.prisma.submission.count()).toBe(0);
    expect(await recorded()).toStrictEqual([]);
  });

  it("carries ids only for a PHI form's submission", async () => {
    const account = await createAccount(env.db.prisma);
    const form = await createForm(env.db.prisma, account.id, { phi: true });
    const submission = await ingest(env.db.prisma, form, { 'Full name': 'Zelda', Email: 'zelda@example.com' }, { cipher: new PhiCipher(randomBytes(32)) });
    const [event] = await recorded();
    expect((event?.payload as { data: unknown }).data).toStrictEqual({ id: submission.id, formId: form.id, createdAt: submission.createdAt });
  });

  it('passes a form event on as it is', async () => {
    const account = await createAccount(env.db.prisma);
    const form = await createForm(env.db.prisma, account.id);
    const data = { id: form.id, name: 'Contact', type: 'standard', domain: null, fields: [], createdAt: 'x', updatedAt: 'y' };
    await env.db.prisma.$transaction((tx) => recordEvent(tx, { type: 'form.updated', accountId: account.id, formId: form.id, phi: false, data }));
    expect(await recorded()).toMatchObject([{ accountId: account.id, formId: form.id, payload: { type: 'form.updated', data } }]);
  });

  it('costs one statement whatever the number of subscriptions', async () => {
    const account = await createAccount(env.db.prisma);
    const form = await createForm(env.db.prisma, account.id, { webhookUrl: 'https://hooks.example.test/x' });
    for (let i = 0; i < 25; i++) await subscribe(env.db.prisma, account.id, `https://receiver.test/${i}`);
    env.db.resetQueryCount();
    await ingest(env.db.prisma, form, { Email: 'ada@example.com' });
    const statements = env.db.queries.filter((q) => !/^(--|BEGIN|COMMIT|ROLLBACK)/i.test(q.trim()));
    // The fixture's insert submission and update count, then the event's one insert.
    expect(statements, statements.join('\n')).toHaveLength(3);
  });
});
