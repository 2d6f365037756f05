import { createHash } from 'node:crypto';
import type { Expression, QueryCreator } from 'kysely';
import type { SqlExecutor } from '../../infra/db-driver.js';
import { sql, sqlBuilder, type DB } from '../../infra/sql.js';
import { AppError, notFound } from '../../errors.js';

/*
 * One way of writing an idempotency record: through src/infra/sql.ts only (the claim can be part of ingest's
 * form lookup, and its completion part of ingest's one statement; erasure marks records in its transaction).
 */

export const REPLAY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** A claim this old that never completed belongs to a request that died; a retry may take it over. */
const ABANDONED_AFTER_MS = 60_000;

/**
 * The fingerprint of a record whose submission was erased (contract §6.3): the real one is a hash of the body,
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

/** A new record's columns, in the order of `claimValues`. */
const CLAIM_COLUMNS = ['accountId', 'key', 'fingerprint', 'expiresAt', 'createdAt'] as const;

export interface ClaimRecord extends Record<string, unknown> {
  accountId: number;
  key: string;
  fingerprint: string;
  expiresAt: Date;
  createdAt: Date;
}

export const claimRecord = (accountId: number, key: string, print: string, now: Date): ClaimRecord => ({
  accountId,
  key,
  fingerprint: print,
  expiresAt: new Date(now.getTime() + REPLAY_WINDOW_MS),
  createdAt: now,
});

/** A new record's values, to select FROM whatever the claiming statement reads. */
export const claimValues = (record: ClaimRecord) => [
  sql<number>`${record.accountId}`.as('accountId'),
  sql<string>`${record.key}`.as('key'),
  sql<string>`${record.fingerprint}`.as('fingerprint'),
  sql<Date>`${record.expiresAt}`.as('expiresAt'),
  sql<Date>`${record.createdAt}`.as('createdAt'),
];

/**
 * The claim itself: a new record from `source` (claimValues, selected from nothing or from a CTE of the caller,
 * so that a caller can claim in the statement that reads what it needs anyway), or no row when the account
 * already holds one.
 */
export const claimInsert = <D extends DB>(db: QueryCreator<D>, source: Expression<unknown>) =>
  (db as unknown as QueryCreator<DB>)
    .insertInto('IdempotencyRecord')
    .columns(CLAIM_COLUMNS)
    .expression(source)
    .onConflict((conflict) => conflict.columns(['accountId', 'key']).doNothing())
    .returning('id');

/**
 * Claims `key` for this account, in its own short statement so that a concurrent duplicate sees the claim at
 * once (409 in progress) instead of racing to a second submission; the unique (accountId, key) index decides.
 */
export async function claimIdempotencyKey(db: SqlExecutor, accountId: number, key: string, print: string, now = new Date()): Promise<Claim> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const inserted = await db.sql(claimInsert(sqlBuilder, sqlBuilder.selectNoFrom(claimValues(claimRecord(accountId, key, print, now)))));
    const claimed = inserted[0];
    if (claimed) return { kind: 'claimed', recordId: claimed.id };

    const [existing] = await db.sql(
      sqlBuilder
        .selectFrom('IdempotencyRecord')
        .select(['id', 'fingerprint', 'submissionId', 'expiresAt', 'completedAt', 'createdAt'])
        .where('accountId', '=', accountId)
        .where('key', '=', key),
    );
    if (!existing) continue;
    const expired = existing.expiresAt <= now;
    const abandoned = !existing.completedAt && now.getTime() - existing.createdAt.getTime() > ABANDONED_AFTER_MS;
    if (expired || abandoned) {
      await db.sql(sqlBuilder.deleteFrom('IdempotencyRecord').where('id', '=', existing.id).where('createdAt', '=', existing.createdAt));
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
export async function releaseClaim(db: SqlExecutor, recordId: number): Promise<void> {
  await db.sql(sqlBuilder.deleteFrom('IdempotencyRecord').where('id', '=', recordId).where('completedAt', 'is', null));
}
