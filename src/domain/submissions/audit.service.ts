import type { Prisma } from '../../generated/prisma/client.js';

/**
 * The audit log of PHI reads (decisions §4 "PHI handling": each read of a PHI form's submissions is
 * written to an audit log). The caller passes its client or its transaction; a list is one statement.
 */

type Client = Pick<Prisma.TransactionClient, 'auditEvent'>;

export type AuditAction = 'submission.read' | 'submission.erased' | 'submissions.exported';

export interface AuditEntry {
  accountId: number;
  /** The API key that read; null for other principals (an administrator). */
  apiKeyId: number | null;
  action: AuditAction;
  resource: 'submission' | 'form';
  resourceId: number;
  /** The submission's form (erasure, export); never a field value. */
  formId?: number | null;
}

export async function recordAudit(prisma: Client, entry: AuditEntry): Promise<void> {
  await prisma.auditEvent.create({ data: entry });
}

/** One INSERT for a whole page of submissions (nothing when the list is empty). */
export async function recordAuditBatch(prisma: Client, entries: AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await prisma.auditEvent.createMany({ data: entries });
}

/** Convenience for a list: one entry per submission id, same reader. */
export async function recordSubmissionReads(
  prisma: Client,
  reader: { accountId: number; apiKeyId: number | null },
  submissionIds: number[],
): Promise<void> {
  await recordAuditBatch(
    prisma,
    submissionIds.map((resourceId) => ({ ...reader, action: 'submission.read' as const, resource: 'submission' as const, resourceId })),
  );
}
