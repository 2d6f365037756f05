import { afterAll, beforeAll, beforeEach } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { Prisma as PrismaNs } from '../../src/generated/prisma/client.js';
import type { Prisma } from '../../src/infra/db.js';
import type { EventFanoutDeps, FanoutResult } from '../../src/worker/jobs/event-fanout.job.js';
import { recordEvent } from '../../src/domain/webhooks/events.service.js';
import { relayEvents } from '../../src/worker/jobs/event-relay.js';
import { startJobQueue, type JobQueue } from '../../src/infra/jobs.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import type { PhiCipher } from '../../src/infra/phi-crypto.js';
import { generateWebhookSecret } from '../../src/infra/secrets.js';

/** Factories for the pipeline tests: rows created the way the ingest and forms code create them. */

export async function createAccount(prisma: Prisma, overrides: Partial<PrismaNs.AccountCreateInput> = {}) {
  return prisma.account.create({
    data: {
      name: 'Acme',
      kind: 'organization',
      plan: 'pro',
      ownerEmail: 'owner@acme.example',
      webhookSigningSecret: generateWebhookSecret(),
      ...overrides,
    },
  });
}

export const CONTACT_FIELDS = [
  { id: 'name', type: 'text', label: 'Full name' },
  { id: 'email', type: 'email', label: 'Email' },
  { id: 'notes', type: 'textarea', label: 'Symptoms' },
];

export async function createForm(
  prisma: Prisma,
  accountId: number,
  options: { phi?: boolean; webhookUrl?: string | null; fields?: unknown[]; name?: string } = {},
) {
  const site = await prisma.site.create({
    data: {
      accountId,
      hostname: `site-${randomBytes(4).toString('hex')}.example`,
      siteKeyHash: randomBytes(16).toString('hex'),
      verificationToken: randomBytes(24).toString('base64url'),
      verified: true,
      method: 'dns_txt',
      verifiedAt: new Date(),
    },
  });
  return prisma.form.create({
    data: {
      accountId,
      siteId: site.id,
      name: options.name ?? 'Contact',
      fields: (options.fields ?? CONTACT_FIELDS) as PrismaNs.InputJsonValue,
      phi: options.phi ?? false,
      webhookUrl: options.webhookUrl ?? null,
    },
  });
}

export interface Ingested {
  id: number;
  formId: number;
  formData: Record<string, unknown>;
  sourceDomain: string | null;
  createdAt: string;
}

/** What ingest does: the row (encrypted for PHI forms), its counter and its event, in one transaction. */
export async function ingest(
  prisma: Prisma,
  form: { id: number; accountId: number; phi: boolean },
  formData: Record<string, unknown>,
  options: { cipher?: PhiCipher; fail?: boolean } = {},
): Promise<Ingested> {
  return prisma.$transaction(async (tx) => {
    let stored: Pick<PrismaNs.SubmissionUncheckedCreateInput, 'formData' | 'formDataCiphertext' | 'formDataKeyId'>;
    if (form.phi) {
      if (!options.cipher) throw new Error('PHI form needs a cipher');
      const { ciphertext, keyId } = options.cipher.encrypt(formData);
      stored = { formDataCiphertext: ciphertext, formDataKeyId: keyId };
    } else {
      stored = { formData: formData as PrismaNs.InputJsonValue };
    }
    const row = await tx.submission.create({ data: { accountId: form.accountId, formId: form.id, sourceDomain: null, ...stored } });
    await tx.form.update({ where: { id: form.id }, data: { submissionCount: { increment: 1 } } });
    const resource: Ingested = { id: row.id, formId: form.id, formData, sourceDomain: null, createdAt: row.createdAt.toISOString() };
    await recordEvent(tx, { type: 'submission.created', accountId: form.accountId, formId: form.id, phi: form.phi, data: { ...resource } });
    if (options.fail) throw new Error('rolled back on purpose');
    return resource;
  });
}

export async function subscribe(
  prisma: Prisma,
  accountId: number,
  url: string,
  event = 'submission.created',
  formId: number | null = null,
) {
  return prisma.webhookSubscription.create({ data: { accountId, url, event, formId, secret: generateWebhookSecret() } });
}

/**
 * What the worker's outbox relay does, for tests without a worker: takes the recorded events off the outbox and fans
 * them out (deliveries, emails, their jobs); one result for the batch, none when no event was waiting.
 */
export async function fanOutRecordedEvents(deps: EventFanoutDeps): Promise<FanoutResult[]> {
  const { events, queued, deliveries, emails } = await relayEvents(deps);
  if (queued) throw new Error(`the relay's fan-out failed: ${queued} events queued`);
  return events ? [{ deliveries, emails }] : [];
}

/** A test database with a job queue (no worker) for the file's tests, emptied, jobs included, before each test. */
export function useQueueDatabase(): { db: TestDatabase; queue: JobQueue } {
  const env = {} as { db: TestDatabase; queue: JobQueue };
  beforeAll(async () => {
    env.db = await createTestDatabase();
    env.queue = await startJobQueue({ db: env.db, databaseUrl: env.db.url, schedule: false });
  });
  afterAll(async () => {
    await env.queue?.stop();
    await env.db?.close();
  });
  beforeEach(async () => {
    await env.queue.boss.deleteAllJobs();
    await env.db.truncate();
  });
  return env;
}
