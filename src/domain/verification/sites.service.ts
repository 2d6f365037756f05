import type { SiteEnvironment, VerificationMethod } from '../../generated/prisma/enums.js';
import type { Prisma, Site } from '../../generated/prisma/client.js';
import { AppError } from '../../errors.js';
import { accountNotFound } from '../accounts/accounts.service.js';
import { generateSiteKey, generateVerificationToken, type KeyHasher } from '../../infra/secrets.js';

/*
 * One way of writing a site: Site rows are written through Prisma's client only (here, verification, the lapse
 * job, the gate's re-hash, the fixture import and the demo), never through raw SQL. Its hot read (the gate) is typed SQL.
 */

type Db = Prisma.TransactionClient;

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const HOSTNAME_RE = new RegExp(`^(?=.{1,253}$)${LABEL}(?:\\.${LABEL})+$`);

/**
 * A registered hostname: lowercase, no trailing dot, at least two labels, not an IP literal. The
 * verification probes fetch exactly this name, so anything else is refused up front. Returns null when invalid.
 */
export function normalizeHostname(input: string): string | null {
  const host = input.trim().toLowerCase().replace(/\.$/, '');
  if (!HOSTNAME_RE.test(host)) return null;
  if (/^[0-9]+$/.test(host.slice(host.lastIndexOf('.') + 1))) return null;
  return host;
}

export interface CreateSiteInput {
  accountId: number;
  hostname: string;
  environment?: SiteEnvironment;
  verified?: boolean;
  /** How ownership was proven, or the method chosen at registration. */
  method?: VerificationMethod | null;
}

/** The site key and the token exist in clear only in this answer; the key is stored as its hash. */
export interface CreatedSite {
  id: number;
  siteKey: string;
  verificationToken: string;
}

export const siteNotFound = (id: number): AppError => new AppError('not_found', { resource: 'site' }, { message: `Site ${id} not found` });

export async function createSite(prisma: Db, hasher: KeyHasher, input: CreateSiteInput): Promise<CreatedSite> {
  const hostname = normalizeHostname(input.hostname);
  if (!hostname) {
    throw new AppError('validation_failed', { fields: [{ field: 'domain', message: 'must be a hostname such as example.com' }] });
  }
  const account = await prisma.account.findUnique({ where: { id: input.accountId }, select: { id: true } });
  if (!account) throw accountNotFound(input.accountId);
  const siteKey = generateSiteKey();
  const verificationToken = generateVerificationToken();
  const verified = input.verified ?? false;
  const site = await prisma.site.create({
    data: {
      accountId: input.accountId,
      hostname,
      environment: input.environment ?? 'production',
      siteKeyHash: hasher.hash(siteKey),
      verificationToken,
      verified,
      method: input.method ?? null,
      verifiedAt: verified ? new Date() : null,
    },
    select: { id: true },
  });
  return { id: site.id, siteKey, verificationToken };
}

/** The old key's hash is overwritten, so it stops matching at once. */
export async function regenerateSiteKey(prisma: Db, hasher: KeyHasher, id: number): Promise<{ id: number; siteKey: string }> {
  const siteKey = generateSiteKey();
  const { count } = await prisma.site.updateMany({ where: { id }, data: { siteKeyHash: hasher.hash(siteKey) } });
  if (count === 0) throw siteNotFound(id);
  return { id, siteKey };
}

/** Idempotent: archiving an archived site keeps the first archive time. */
export async function archiveSite(prisma: Db, id: number): Promise<{ id: number; archivedAt: Date }> {
  await prisma.site.updateMany({ where: { id, archivedAt: null }, data: { archivedAt: new Date() } });
  const site = await prisma.site.findUnique({ where: { id }, select: { id: true, archivedAt: true } });
  if (!site || !site.archivedAt) throw siteNotFound(id);
  return { id: site.id, archivedAt: site.archivedAt };
}

/**
 * The admin override of verification. true: verified now (by `method`, else the method already recorded);
 * false: `verifiedAt` cleared, the method kept as "how it was last proven". Either way the lapse counter restarts.
 */
export async function setVerified(prisma: Db, id: number, verified: boolean, method?: VerificationMethod | null): Promise<Site> {
  const existing = await prisma.site.findUnique({ where: { id }, select: { id: true } });
  if (!existing) throw siteNotFound(id);
  return prisma.site.update({
    where: { id },
    data: {
      verified,
      verifiedAt: verified ? new Date() : null,
      failedChecks: 0,
      ...(method !== undefined ? { method } : {}),
    },
  });
}
