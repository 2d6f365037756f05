import type { Prisma } from '../generated/prisma/client.js';

export type EventType = 'submission.created' | 'form.created' | 'form.updated' | 'form.archived';

export interface DomainEvent {
  type: EventType;
  accountId: number;
  formId: number;
  /** The resource exactly as v1 returns it (for form.archived: as it was just before). */
  data: Record<string, unknown>;
}

/**
 * Records an event inside the transaction that caused it, so the deliveries (and, for submissions,
 * the emails) it implies commit or roll back with it. Placeholder until the webhooks pipeline lands.
 */
export async function recordEvent(_tx: Prisma.TransactionClient, _event: DomainEvent): Promise<void> {}
