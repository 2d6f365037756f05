import type { Prisma, PrismaClient } from '../../generated/prisma/client.js';
import { AppError, notFound, validationFailed, type FieldProblem } from '../../errors.js';
import { prismaSql } from '../../infra/db-driver.js';
import type { KeyHasher } from '../../infra/secrets.js';
import { isScope, READ_SCOPES, type Scope } from '../../scopes.js';
import { skipTake, toPage, type Page, type PageRequest } from '../pagination.js';
import { recordAudit, type AuditAction } from '../submissions/audit.service.js';
import { issueApiKey, type ApiKeyListItem } from './api-keys.service.js';

/**
 * API keys managed through the API (decisions §7.4): list, read, create, roll, revoke, for the acting key's account.
 * A key never grants a scope it lacks; the key itself is shown once (create, roll) and only its keyed hash is
 * stored; every action writes an AuditEvent (who acted, on which key, what, when; never the key) in the same
 * transaction as the change.
 */

type Db = Prisma.TransactionClient;

/** Who acts: the authenticated key (its id is the audit's "who", its scopes bound what it may grant). */
export interface KeyActor {
  accountId: number;
  keyId: number;
  scopes: ReadonlySet<Scope>;
}

/** The shown-once answer of create and roll. */
export interface CreatedApiKeyView {
  id: number;
  name: string | null;
  key: string;
  scopes: string[];
  lastFour: string;
  createdAt: Date;
  expiresAt: Date | null;
}

export interface CreateApiKeyInput {
  name?: string | null;
  scopes?: string[] | null;
  expiresAt?: Date | null;
}

/** Decisions §7.4: a rolled key's overlap, at most a week. */
export const MAX_ROLL_OVERLAP_SECONDS = 604_800;

const VIEW_SELECT = { id: true, name: true, scopes: true, lastFour: true, createdAt: true, expiresAt: true, revokedAt: true, lastUsedAt: true } as const;

const keyNotFound = (): AppError => notFound('api_key');

export async function listAccountApiKeys(prisma: Db, accountId: number, page: PageRequest): Promise<Page<ApiKeyListItem>> {
  const where = { accountId };
  const [rows, total] = await Promise.all([
    prisma.apiKey.findMany({ where, select: VIEW_SELECT, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], ...skipTake(page) }),
    prisma.apiKey.count({ where }),
  ]);
  return toPage(rows, page, total);
}

/** Another account's key is indistinguishable from an absent one. */
export async function getAccountApiKeyOrThrow(prisma: Db, accountId: number, id: number): Promise<ApiKeyListItem> {
  const row = await prisma.apiKey.findFirst({ where: { id, accountId }, select: VIEW_SELECT });
  if (!row) throw keyNotFound();
  return row;
}

/** The first scope asked for that the actor lacks: granting it would be an escalation (403, §7.4). */
function assertGrantable(actor: KeyActor, scopes: readonly string[]): void {
  const missing = scopes.find((scope) => !actor.scopes.has(scope as Scope));
  if (missing !== undefined) throw new AppError('insufficient_scope', { required: missing });
}

function parseScopes(scopes: string[] | null | undefined): Scope[] {
  if (scopes == null) return READ_SCOPES;
  const problems: FieldProblem[] = [];
  scopes.forEach((scope, index) => {
    if (!isScope(scope)) problems.push({ field: `scopes.${index}`, message: `unknown scope ${JSON.stringify(scope)}` });
  });
  if (problems.length) throw validationFailed(problems);
  if (scopes.length === 0) throw validationFailed([{ field: 'scopes', message: 'name at least one scope, or leave scopes out for a read-only key' }]);
  return [...new Set(scopes as Scope[])];
}

async function audit(tx: Db, actor: KeyActor, action: AuditAction, keyId: number, now: Date): Promise<void> {
  await recordAudit(prismaSql(tx), { accountId: actor.accountId, apiKeyId: actor.keyId, action, resource: 'api_key', resourceId: keyId }, now);
}

async function shownOnce(tx: Db, hasher: KeyHasher, actor: KeyActor, input: { name: string | null; scopes: Scope[]; expiresAt: Date | null; rateLimitPerHour: number | null }): Promise<CreatedApiKeyView> {
  const issued = await issueApiKey(tx, hasher, { accountId: actor.accountId, ...input });
  const row = await tx.apiKey.findUniqueOrThrow({ where: { id: issued.id }, select: { name: true, lastFour: true, createdAt: true } });
  return { id: issued.id, name: row.name, key: issued.key, scopes: issued.scopes, lastFour: row.lastFour, createdAt: row.createdAt, expiresAt: issued.expiresAt };
}

export async function createAccountApiKey(prisma: PrismaClient, hasher: KeyHasher, actor: KeyActor, input: CreateApiKeyInput, now = new Date()): Promise<CreatedApiKeyView> {
  // Order of checks as everywhere (§4): what the scopes are (400), then whether the actor may grant them (403).
  const scopes = parseScopes(input.scopes);
  assertGrantable(actor, scopes);
  if (input.expiresAt && input.expiresAt <= now) throw validationFailed([{ field: 'expiresAt', message: 'expiresAt must be in the future' }]);
  return prisma.$transaction(async (tx) => {
    const created = await shownOnce(tx, hasher, actor, { name: input.name ?? null, scopes, expiresAt: input.expiresAt ?? null, rateLimitPerHour: null });
    await audit(tx, actor, 'api_key.created', created.id, now);
    return created;
  });
}

/**
 * A new key of the same name, scopes and budget override; the rolled one keeps working `overlapSeconds` (0: revoked
 * now), then the gate refuses it by its expiresAt (it never outlives an earlier expiry it already had).
 */
export async function rollAccountApiKey(prisma: PrismaClient, hasher: KeyHasher, actor: KeyActor, id: number, overlapSeconds: number, now = new Date()): Promise<CreatedApiKeyView> {
  if (!Number.isInteger(overlapSeconds) || overlapSeconds < 0 || overlapSeconds > MAX_ROLL_OVERLAP_SECONDS) {
    throw validationFailed([{ field: 'expiresInSeconds', message: `expiresInSeconds must be an integer from 0 to ${MAX_ROLL_OVERLAP_SECONDS}` }]);
  }
  return prisma.$transaction(async (tx) => {
    const old = await tx.apiKey.findFirst({ where: { id, accountId: actor.accountId }, select: { name: true, scopes: true, revokedAt: true, expiresAt: true, rateLimitPerHour: true } });
    if (!old) throw keyNotFound();
    // A new secret for a key that holds more than the actor would be an escalation, as creating it would.
    assertGrantable(actor, old.scopes);
    if (old.revokedAt || (old.expiresAt && old.expiresAt <= now)) throw validationFailed([{ field: 'id', message: 'a revoked or expired key cannot be rolled' }]);
    const end = new Date(now.getTime() + overlapSeconds * 1000);
    // Conditional on still being live: two concurrent rolls of one key make one new key, the other fails as revoked.
    const ended = await tx.apiKey.updateMany({
      where: { id, revokedAt: null },
      data: overlapSeconds === 0 ? { revokedAt: now } : { expiresAt: old.expiresAt && old.expiresAt < end ? old.expiresAt : end },
    });
    if (ended.count !== 1) throw validationFailed([{ field: 'id', message: 'a revoked or expired key cannot be rolled' }]);
    const created = await shownOnce(tx, hasher, actor, { name: old.name, scopes: old.scopes.filter(isScope), expiresAt: null, rateLimitPerHour: old.rateLimitPerHour });
    await audit(tx, actor, 'api_key.rolled', id, now);
    await audit(tx, actor, 'api_key.created', created.id, now);
    return created;
  });
}

/** Revoked at once (a key may revoke itself); revoking a revoked key keeps its first revocation time. */
export async function revokeAccountApiKey(prisma: PrismaClient, actor: KeyActor, id: number, now = new Date()): Promise<void> {
  await prisma.$transaction(async (tx) => {
    const row = await tx.apiKey.findFirst({ where: { id, accountId: actor.accountId }, select: { id: true } });
    if (!row) throw keyNotFound();
    const revoked = await tx.apiKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: now } });
    if (revoked.count === 1) await audit(tx, actor, 'api_key.revoked', id, now);
  });
}
