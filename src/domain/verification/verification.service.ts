import { randomBytes } from 'node:crypto';
import type { VerificationMethod } from '../../generated/prisma/enums.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { AppError } from '../../errors.js';
import type { OutboundFailureReason, OutboundFetcher } from '../../infra/outbound-fetch.js';
import { toVerificationStatus, wpPluginPaths, type VerificationStatus } from './verification-status.js';

type Db = Prisma.TransactionClient;

/** attempts[] of `wp_plugin_fetch_failed` (contract §4): one per probed path, in order. */
export interface ProbeAttempt {
  path: string;
  ok: boolean;
  reason: OutboundFailureReason | 'token_mismatch' | 'ok';
}

/** The success body of POST /site-verification/attempt. */
export interface AttemptResult {
  domain: string;
  verified: boolean;
  method: VerificationMethod | null;
  verifiedAt: string | null;
  lastCheckedAt: string | null;
}

/**
 * The hostname and its www/apex twin: the only hosts a probe may be redirected to (attempt rule 3).
 * `www.example.com` ↔ `example.com`; an apex gains `www.`.
 */
export function twinHostnames(hostname: string): string[] {
  const host = hostname.toLowerCase();
  if (host.startsWith('www.') && host.split('.').length > 2) return [host, host.slice(4)];
  return [host, `www.${host}`];
}

/**
 * Contract §4 "token match": the trimmed 2xx body is the token, the JSON string of the token, or a JSON
 * object whose `token` is the token. Never a substring: a page that merely echoes the token back (a search
 * page, an error page quoting the query) must not prove control of the host.
 */
export function bodyMatchesToken(body: string, token: string): boolean {
  const trimmed = body.trim();
  if (token.length === 0) return false;
  if (trimmed === token) return true;
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return false;
  }
  if (typeof parsed === 'string') return parsed === token;
  if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
    return (parsed as Record<string, unknown>).token === token;
  }
  return false;
}

/** A fresh query parameter per probe, so no cache between us and the site can answer for it. */
function withCacheBuster(url: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}_wgv=${randomBytes(8).toString('hex')}`;
}

/**
 * Probes the wp_plugin paths in order and stops at the first match. `attempts` always lists both paths on a
 * failure (a path after a match is never reached, so on success it may hold one entry).
 */
export async function probeWpPlugin(fetcher: OutboundFetcher, hostname: string, token: string): Promise<{ matched: boolean; attempts: ProbeAttempt[] }> {
  const attempts: ProbeAttempt[] = [];
  const allowedHosts = twinHostnames(hostname);
  for (const path of wpPluginPaths(hostname)) {
    const result = await fetcher.fetch(withCacheBuster(path), { method: 'GET', allowedHosts, headers: { accept: 'application/json, text/plain' } });
    if (!result.ok) {
      attempts.push({ path, ok: false, reason: result.reason });
      continue;
    }
    if (bodyMatchesToken(result.body, token)) {
      attempts.push({ path, ok: true, reason: 'ok' });
      return { matched: true, attempts };
    }
    attempts.push({ path, ok: false, reason: 'token_mismatch' });
  }
  return { matched: false, attempts };
}

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);

const siteSelect = {
  id: true,
  hostname: true,
  verified: true,
  method: true,
  verifiedAt: true,
  lastCheckedAt: true,
  verificationToken: true,
  archivedAt: true,
} as const;

async function getActiveSiteOrThrow(prisma: Db, siteId: number) {
  const site = await prisma.site.findUnique({ where: { id: siteId }, select: siteSelect });
  // Same answer as an unknown key (GET rule 2): nothing tells an archived site from an absent one.
  if (!site || site.archivedAt) throw new AppError('site_not_found');
  return site;
}

/** GET /site-verification: the exact status object; reading never touches the token. */
export async function getVerificationStatus(prisma: Db, siteId: number): Promise<VerificationStatus> {
  return toVerificationStatus(await getActiveSiteOrThrow(prisma, siteId));
}

/**
 * POST /site-verification/attempt (attempt rules 1–8, contract §4–5). An already verified site answers at
 * once: no probe, nothing changes (a dns_txt site keeps dns_txt and its verifiedAt). Otherwise the probes
 * run, `lastCheckedAt` moves either way, and only a match sets verified/method/verifiedAt. The site key
 * that called this never asserts anything: the token has to be served by the hostname itself.
 */
export async function attemptWpPluginVerification(prisma: Db, fetcher: OutboundFetcher, siteId: number, now: Date = new Date()): Promise<AttemptResult> {
  const site = await getActiveSiteOrThrow(prisma, siteId);
  if (site.verified) {
    return { domain: site.hostname, verified: true, method: site.method, verifiedAt: iso(site.verifiedAt), lastCheckedAt: iso(site.lastCheckedAt) };
  }
  const { matched, attempts } = await probeWpPlugin(fetcher, site.hostname, site.verificationToken);
  if (!matched) {
    await prisma.site.update({ where: { id: site.id }, data: { lastCheckedAt: now } });
    throw new AppError('wp_plugin_fetch_failed', { method: 'wp_plugin', attempts });
  }
  const updated = await prisma.site.update({
    where: { id: site.id },
    data: { verified: true, method: 'wp_plugin', verifiedAt: now, lastCheckedAt: now, failedChecks: 0 },
    select: { hostname: true, verified: true, method: true, verifiedAt: true, lastCheckedAt: true },
  });
  return {
    domain: updated.hostname,
    verified: updated.verified,
    method: updated.method,
    verifiedAt: iso(updated.verifiedAt),
    lastCheckedAt: iso(updated.lastCheckedAt),
  };
}
