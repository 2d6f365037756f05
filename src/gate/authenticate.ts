import type { ApiKeyViewer, SiteViewer } from '../context.js';
import type { AppDeps } from '../deps.js';
import { AppError } from '../errors.js';
import type { InferResult } from 'kysely';
import { preparedQuery, sql, sqlBuilder } from '../infra/sql.js';
import { isScope, type Scope } from '../scopes.js';
import { isWellFormedApiKey, isWellFormedSiteKey } from '../infra/secrets.js';

export const DEFAULT_RATE_LIMIT_PER_HOUR = 5000;
export const SITE_KEY_BUDGET_PER_HOUR = 600;
export const SITE_ATTEMPT_BUDGET_PER_HOUR = 30;

/** lastUsedAt is bookkeeping, not security: write it at most once a minute per key and per process. */
const LAST_USED_WRITE_INTERVAL_MS = 60_000;
/** Keyed by the key's hash, which no other key ever has (ids can be reused by a restored database). */
const lastUsedWrites = new Map<string, number>();

const unauthorized = (): AppError => new AppError('invalid_api_key');

/**
 * Bearer API key → viewer. A malformed key is refused before any database work; a known key is read with its
 * account's plan in ONE statement on every request (no cache), so revocation and plan changes apply to the
 * very next request on every replica.
 */
export async function authenticateApiKey(deps: AppDeps, authorization: string | null, now = new Date()): Promise<ApiKeyViewer> {
  const match = /^Bearer (\S+)$/.exec(authorization ?? '');
  const key = match?.[1];
  if (!key || !isWellFormedApiKey(key)) throw unauthorized();
  const keyHash = deps.hasher.hash(key);
  const rows = await deps.db.sql(apiKeyByHash(null, { keyHash }));
  let row = rows[0];
  if (row && !deps.hasher.sameHash(keyHash, row.keyHash)) throw unauthorized();
  // Only a miss during a rotation pays for the second look: a current key never does.
  if (!row && deps.hasher.hasPrevious) row = await findUnderPreviousPepper(deps, key, keyHash);
  if (!row) throw unauthorized();
  if (row.revokedAt || (row.expiresAt && row.expiresAt <= now)) throw unauthorized();
  touchLastUsed(deps, row.id, row.keyHash, now);
  return {
    kind: 'apiKey',
    accountId: row.accountId,
    keyId: row.id,
    scopes: new Set(row.scopes.filter(isScope)),
    plan: row.plan,
    rateLimitPerHour: row.rateLimitPerHour ?? DEFAULT_RATE_LIMIT_PER_HOUR,
  };
}

const apiKeyRows = sqlBuilder
  .selectFrom('ApiKey as k')
  .innerJoin('Account as a', 'a.id', 'k.accountId')
  .select(['k.id', 'k.accountId', 'k.keyHash', 'k.scopes', 'k.expiresAt', 'k.revokedAt', 'k.rateLimitPerHour', 'a.plan']);

type KeyRow = InferResult<typeof apiKeyRows>[number];

const apiKeyByHash = preparedQuery((_shape: null, values: { keyHash: string }) => apiKeyRows.where('k.keyHash', '=', values.keyHash));

/**
 * A key issued before SECRET_KEY was rotated: one statement for all previous hashes, then its row is re-hashed under
 * the current pepper, so the next request takes the one-statement path and the old key can be retired once every
 * key has been used. Revoked and expired keys are re-hashed too: they stay refused either way.
 */
async function findUnderPreviousPepper(deps: AppDeps, key: string, keyHash: string): Promise<KeyRow | undefined> {
  const previous = deps.hasher.previousHashes(key);
  const [row] = await deps.db.sql(apiKeyRows.where(sql<boolean>`k."keyHash" = ANY(${previous}::text[])`));
  if (!row || !deps.hasher.matchesPrevious(previous, row.keyHash)) return undefined;
  // Conditional on the old hash: a concurrent request that re-hashed it first makes this a no-op.
  await deps.db.sql(sqlBuilder.updateTable('ApiKey').set({ keyHash }).where('id', '=', row.id).where('keyHash', '=', row.keyHash));
  return { ...row, keyHash };
}

const touchKey = preparedQuery((_shape: null, values: { keyId: number; now: Date }) =>
  sqlBuilder.updateTable('ApiKey').set({ lastUsedAt: values.now }).where('id', '=', values.keyId),
);

function touchLastUsed(deps: AppDeps, keyId: number, keyHash: string, now: Date): void {
  const last = lastUsedWrites.get(keyHash) ?? 0;
  if (now.getTime() - last < LAST_USED_WRITE_INTERVAL_MS) return;
  lastUsedWrites.set(keyHash, now.getTime());
  // Off the request's path: a failed bookkeeping write must never fail the request.
  deps.db.sql(touchKey(null, { keyId, now })).catch(() => lastUsedWrites.delete(keyHash));
}

/** Free accounts have no API access (the contract's plan gate); upgrading lifts it on the next request. */
export function assertPlanAllowsApi(viewer: ApiKeyViewer): void {
  if (viewer.plan === 'free') throw new AppError('plan_feature_gated', { feature: 'apiAccess' });
}

export function assertScope(viewer: ApiKeyViewer, scope: Scope): void {
  if (!viewer.scopes.has(scope)) throw new AppError('insufficient_scope', { required: scope });
}

/**
 * `X-Service-Site-Key` → the site it belongs to. Unknown, malformed, regenerated and archived all answer the
 * same 404, so the response cannot be used to probe which keys exist.
 */
export async function authenticateSiteKey(deps: AppDeps, header: string | null): Promise<SiteViewer> {
  if (header === null || header === '') throw new AppError('missing_site_key');
  if (!isWellFormedSiteKey(header)) throw new AppError('site_not_found');
  const keyHash = deps.hasher.hash(header);
  let [site] = await deps.db.sql(siteRows.where('siteKeyHash', '=', keyHash));
  if (site && !deps.hasher.sameHash(keyHash, site.siteKeyHash)) throw new AppError('site_not_found');
  // As for API keys: a second look only on a miss during a rotation, then the row moves to the current pepper.
  if (!site && deps.hasher.hasPrevious) site = await findSiteUnderPreviousPepper(deps, header, keyHash);
  if (!site || site.archivedAt) throw new AppError('site_not_found');
  return { kind: 'site', accountId: site.accountId, siteId: site.id, keyHash };
}

const siteRows = sqlBuilder.selectFrom('Site').select(['id', 'accountId', 'archivedAt', 'siteKeyHash']);

type SiteRow = InferResult<typeof siteRows>[number];

async function findSiteUnderPreviousPepper(deps: AppDeps, key: string, keyHash: string): Promise<SiteRow | undefined> {
  const previous = deps.hasher.previousHashes(key);
  const [site] = await deps.db.sql(siteRows.where(sql<boolean>`"siteKeyHash" = ANY(${previous}::text[])`));
  if (!site || !deps.hasher.matchesPrevious(previous, site.siteKeyHash)) return undefined;
  // Re-hashing is no change of the site: its updatedAt (Prisma's @updatedAt, set by the client) stays as it was.
  await deps.db.sql(sqlBuilder.updateTable('Site').set({ siteKeyHash: keyHash }).where('id', '=', site.id).where('siteKeyHash', '=', site.siteKeyHash));
  return { ...site, siteKeyHash: keyHash };
}
