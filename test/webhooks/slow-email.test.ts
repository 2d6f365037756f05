import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmailSender } from '../../src/worker/jobs/email.job.js';
import type { OutgoingEmail } from '../../src/worker/jobs/outgoing-email.js';
import { startWorker, type RunningWorker } from '../../src/worker/start-worker.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { createAccount, createForm, ingest } from './fixtures.js';
import { testConfig, waitFor } from './support.js';

/**
 * One email the mail server takes long to accept must not hold back the others: each email job settles on its own
 * (in pg-boss's batch loop the next batch waited for the slowest message of the last, so emails fell behind).
 */

let db: TestDatabase;
let worker: RunningWorker;
let release!: () => void;
const released = new Promise<void>((resolve) => (release = resolve));
const sent: OutgoingEmail[] = [];
let stuckSending = false;

/** Accepts every message at once, except the one to stuck@example.com, which waits for `release()`. */
const sender: EmailSender = {
  async send(email) {
    if (email.to === 'stuck@example.com') {
      stuckSending = true;
      await released;
    }
    sent.push(email);
  },
  close() {},
};

beforeAll(async () => {
  db = await createTestDatabase();
  worker = await startWorker({ config: testConfig({ databaseUrl: db.url }), db, emailSender: sender, pollingIntervalSeconds: 0.5 });
});
afterAll(async () => {
  release();
  await worker?.stop();
  await db?.close();
});

describe('a slow email', () => {
  it('holds one slot: the emails after it are sent meanwhile', async () => {
    const account = await createAccount(db.prisma);
    const form = await createForm(db.prisma, account.id);
    await ingest(db.prisma, form, { name: 'Stuck', email: 'stuck@example.com' });
    await waitFor(async () => stuckSending, 15_000, 'the slow email being sent');

    for (let i = 0; i < 5; i++) await ingest(db.prisma, form, { name: `N${i}`, email: `n${i}@example.com` });
    // The first submission's notification, then both emails of each later one.
    await waitFor(async () => sent.length === 11, 15_000, 'the other emails');
    expect(sent.filter((email) => email.to === 'stuck@example.com')).toStrictEqual([]);
    expect(sent.filter((email) => /^n\d@example\.com$/.test(String(email.to))).map((email) => email.to).sort()).toStrictEqual(['n0@example.com', 'n1@example.com', 'n2@example.com', 'n3@example.com', 'n4@example.com']);

    release();
    await waitFor(async () => sent.length === 12, 15_000, 'the slow email');
  });
});
