import { createHash } from 'node:crypto';
import type { Database } from '../../infra/db.js';
import { AppError, notFound } from '../../errors.js';
import { Prisma, type PrismaClient } from '../../generated/prisma/client.js';

export const REPLAY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** A claim this old that never completed belongs to a request that died; a retry may take it over. */
const ABANDONED_AFTER_MS = 60_000;

/**
 * The fingerprint of a record whose submission was erased (decisions §6.3): the real one is a hash of the body,
 * i.e. of the erased formData, so it goes too; the record stays so that a replay of its key answers 404.
 */
export const ERASED_FINGERPRINT = 'erased';

const VISIBLE_ASCII = /^[\x21-\x7e]{1,256}$/;

export function assertValidIdempotencyKey(key: string): void {
  if (!VISIBLE_ASCII.test(key)) throw new AppError('invalid_idempotency_key');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Covers what the request does (its target and body), not how it was spelled, and is the same over both transports. */
export function fingerprint(target: string, body: unknown): string {
  return createHash('sha256').update(`${target}\n${canonicalJson(body)}`).digest('hex');
}

export type Claim = { kind: 'claimed'; recordId: number } | { kind: 'replay'; submissionId: number };

/**
 * The claim itself: a new record for `key`, or no row when the account already holds one. A SELECT (or `FROM`
 * a CTE) may precede it, so that a caller can claim in the statement that reads what it needs anyway.
 */
export function claimInsertSql(accountId: number, key: string, print: string, now: Date, from: Prisma.Sql = Prisma.empty): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO "IdempotencyRecord" ("accountId", "key", "fingerprint", "expiresAt", "createdAt")
    SELECT ${accountId}, ${key}, ${print}, ${new Date(now.getTime() + REPLAY_WINDOW_MS)}, ${now} ${from}
    ON CONFLICT ("accountId", "key") DO NOTHING
    RETURNING "id"`;
}

/**
 * Claims `key` for this account, in its own short statement so that a concurrent duplicate sees the claim at
 * once (409 in progress) instead of racing to a second submission; the unique (accountId, key) index decides.
 */
export async function claimIdempotencyKey(db: Database, accountId: number, key: string, print: string, now = new Date()): Promise<Claim> {
  const prisma = db.prisma;
  for (let attempt = 0; attempt < 2; attempt++) {
    const inserted = await db.sql<{ id: number }>(claimInsertSql(accountId, key, print, now));
    const claimed = inserted[0];
    if (claimed) return { kind: 'claimed', recordId: claimed.id };

    const existing = await prisma.idempotencyRecord.findUnique({ where: { accountId_key: { accountId, key } } });
    if (!existing) continue;
    const expired = existing.expiresAt <= now;
    const abandoned = !existing.completedAt && now.getTime() - existing.createdAt.getTime() > ABANDONED_AFTER_MS;
    if (expired || abandoned) {
      await prisma.idempotencyRecord.deleteMany({ where: { id: existing.id, createdAt: existing.createdAt } });
      continue;
    }
    // Whatever the body: the key named a submission that no longer exists, and a replay must not create one.
    if (existing.fingerprint === ERASED_FINGERPRINT) throw notFound('submission');
    if (existing.fingerprint !== print) throw new AppError('idempotency_key_reused');
    if (!existing.completedAt || existing.submissionId === null) {
      throw new AppError('idempotency_in_progress', {}, { headers: { 'Retry-After': '1' } });
    }
    return { kind: 'replay', submissionId: existing.submissionId };
  }
  throw new AppError('idempotency_in_progress', {}, { headers: { 'Retry-After': '1' } });
}

/** A request that failed leaves its key free for a corrected retry. */
export async function releaseClaim(prisma: PrismaClient, recordId: number): Promise<void> {
  await prisma.idempotencyRecord.deleteMany({ where: { id: recordId, completedAt: null } });
}
