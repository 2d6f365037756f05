import type { SqlExecutor } from '../../infra/db-driver.js';
import { insertJsonRows } from '../../infra/sql.js';

/**
 * The audit log of PHI reads (contract §4 "PHI handling": each read of a PHI form's submissions is
 * written to an audit log) and of API-key actions (decisions §7.4: who, which key, what, when; never the key).
 * The caller passes its executor or its transaction; a list is one statement.
 */

/*
 * One way of writing an audit event: AuditEvent rows are written through src/infra/sql.ts only (erasure writes
 * its rows in its one statement), never through Prisma.
 */

export type AuditAction = 'submission.read' | 'submission.erased' | 'submissions.exported' | 'api_key.created' | 'api_key.rolled' | 'api_key.revoked';

export interface AuditEntry {
  accountId: number;
  /** The API key that acted; null for other principals (an administrator). */
  apiKeyId: number | null;
  action: AuditAction;
  resource: 'submission' | 'form' | 'api_key';
  resourceId: number;
  /** The submission's form (erasure, export); never a field value. */
  formId?: number | null;
}

const AUDIT_COLUMNS = ['accountId', 'apiKeyId', 'action', 'resource', 'resourceId', 'formId', 'createdAt'] as const;

export async function recordAudit(db: SqlExecutor, entry: AuditEntry, now = new Date()): Promise<void> {
  await recordAuditBatch(db, [entry], now);
}

/** One INSERT for a whole page of submissions (nothing when the list is empty). */
export async function recordAuditBatch(db: SqlExecutor, entries: AuditEntry[], now = new Date()): Promise<void> {
  if (entries.length === 0) return;
  // createdAt from here, as erasure's: the column's default would be the session's local time.
  await db.sql(insertJsonRows('AuditEvent', AUDIT_COLUMNS, entries.map((entry) => ({ ...entry, formId: entry.formId ?? null, createdAt: now }))));
}

/** Convenience for a list: one entry per submission id, same reader. */
export async function recordSubmissionReads(db: SqlExecutor, reader: { accountId: number; apiKeyId: number | null }, submissionIds: number[]): Promise<void> {
  await recordAuditBatch(
    db,
    submissionIds.map((resourceId) => ({ ...reader, action: 'submission.read' as const, resource: 'submission' as const, resourceId })),
  );
}
