import type { Prisma } from '../../generated/prisma/client.js';
import { AppError } from '../../errors.js';
import { READ_SCOPES, type Scope } from '../../scopes.js';
import { accountNotFound } from './accounts.service.js';
import { generateApiKey, type KeyHasher } from '../../infra/secrets.js';
import type { SqlExecutor } from '../../infra/db-driver.js';
import { sql, sqlBuilder } from '../../infra/sql.js';

/*
 * One way of writing an API key: ApiKey rows are written through Prisma's client only (here, the gate's
 * last-used stamp and re-hash, the fixture import), never through raw SQL. Its hot read (the gate) is typed SQL.
 */

type Db = Prisma.TransactionClient;

export interface IssueApiKeyInput {
  accountId: number;
  /** Defaults to every `read:` scope: a new key is read-only unless asked otherwise (v1 Authentication). */
  scopes?: Scope[];
  expiresAt?: Date | null;
  rateLimitPerHour?: number | null;
  name?: string | null;
}

/** The only moment the key itself exists outside the caller: it is never stored. */
export interface IssuedApiKey {
  id: number;
  key: string;
  scopes: Scope[];
  expiresAt: Date | null;
}

/** `keys list` (contract §2): never the key or its hash. */
export interface ApiKeyListItem {
  id: number;
  name: string | null;
  scopes: string[];
  lastFour: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

const keyNotFound = (id: number): AppError => new AppError('not_found', { resource: 'api_key' }, { message: `API key ${id} not found` });

async function assertAccount(prisma: Db, accountId: number): Promise<void> {
  const account = await prisma.account.findUnique({ where: { id: accountId }, select: { id: true } });
  if (!account) throw accountNotFound(accountId);
}

export async function issueApiKey(prisma: Db, hasher: KeyHasher, input: IssueApiKeyInput): Promise<IssuedApiKey> {
  await assertAccount(prisma, input.accountId);
  const key = generateApiKey();
  const scopes = [...new Set(input.scopes ?? READ_SCOPES)];
  const row = await prisma.apiKey.create({
    data: {
      accountId: input.accountId,
      name: input.name ?? null,
      keyHash: hasher.hash(key),
      lastFour: key.slice(-4),
      scopes,
      expiresAt: input.expiresAt ?? null,
      rateLimitPerHour: input.rateLimitPerHour ?? null,
    },
    select: { id: true, expiresAt: true },
  });
  return { id: row.id, key, scopes, expiresAt: row.expiresAt };
}

/** Idempotent: revoking a revoked key keeps the first revocation time. */
export async function revokeApiKey(prisma: Db, id: number): Promise<{ id: number; revokedAt: Date }> {
  await prisma.apiKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
  const row = await prisma.apiKey.findUnique({ where: { id }, select: { id: true, revokedAt: true } });
  if (!row || !row.revokedAt) throw keyNotFound(id);
  return { id: row.id, revokedAt: row.revokedAt };
}

export async function listApiKeys(prisma: Db, accountId: number): Promise<ApiKeyListItem[]> {
  await assertAccount(prisma, accountId);
  return prisma.apiKey.findMany({
    where: { accountId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { id: true, name: true, scopes: true, lastFour: true, createdAt: true, expiresAt: true, revokedAt: true, lastUsedAt: true },
  });
}

/**
 * Of `ids`, the keys that would still be let in now: not revoked, not expired, their account not on Free (the gate's
 * own rules, authenticate.ts). An open event stream is admitted once, at its start; the streams ask this before
 * sending what they read, so that a revocation, an expiry or an overlap's end holds for them as at once as for a
 * request (contract §7.4). One statement for every stream of a replica.
 */
export async function liveApiKeyIds(db: SqlExecutor, ids: readonly number[], now = new Date()): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await db.sql(
    sqlBuilder
      .selectFrom('ApiKey as k')
      .innerJoin('Account as a', 'a.id', 'k.accountId')
      .select('k.id')
      .where(sql<boolean>`k."id" = ANY(${[...ids]}::int[])`)
      .where('k.revokedAt', 'is', null)
      .where((eb) => eb.or([eb('k.expiresAt', 'is', null), eb('k.expiresAt', '>', now)]))
      .where('a.plan', '<>', 'free'),
  );
  return new Set(rows.map((row) => row.id));
}
