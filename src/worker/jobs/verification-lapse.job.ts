import { promises as dns } from 'node:dns';
import type { VerificationMethod } from '../../generated/prisma/enums.js';
import type { Prisma } from '../../generated/prisma/client.js';
import type { OutboundFetcher } from '../../infra/outbound-fetch.js';
import { headHasVerificationMeta } from '../../domain/verification/meta-tag.js';
import { probeWpPlugin, twinHostnames } from '../../domain/verification/verification.service.js';

type Db = Prisma.TransactionClient;

/** After this many failed re-checks in a row a verified site turns unverified (contract §4 "lapse"). */
export const LAPSE_AFTER_FAILURES = 3;

/**
 * "Once a day": a site is due when its last check is at least this old. A little under 24 h, so that a daily
 * schedule whose runs start a few seconds or minutes apart (or that claimed a site late in the previous
 * run) does not skip a day; the claim below still keeps one run from checking a site twice.
 */
export const RECHECK_AFTER_MS = 20 * 60 * 60 * 1000;

const BATCH_SIZE = 50;
/** Checks in flight at once within one run: each can take the fetcher's whole 5 s budget. */
const CONCURRENCY = 4;

export type TxtResolver = (hostname: string) => Promise<string[][]>;

export interface LapseJobDeps {
  prisma: Db;
  fetcher: OutboundFetcher;
  /** TXT lookup; default `dns.resolveTxt`. Tests inject answers. */
  resolveTxt?: TxtResolver;
}

export interface LapseRunResult {
  /** Sites this run claimed and checked. */
  checked: number;
  /** Sites that turned unverified in this run. */
  lapsed: number;
}

interface DueSite {
  id: number;
  hostname: string;
  method: VerificationMethod;
  verificationToken: string;
}

/** TXT records of the hostname itself (no underscore prefix) contain exactly `service-verify=<token>`. */
export async function checkDnsTxt(resolveTxt: TxtResolver, hostname: string, token: string): Promise<boolean> {
  let records: string[][];
  try {
    records = await resolveTxt(hostname);
  } catch {
    return false;
  }
  // A TXT record may arrive split in 255-byte chunks; its value is their concatenation.
  return records.some((chunks) => chunks.join('') === `service-verify=${token}`);
}

export async function checkMetaTag(fetcher: OutboundFetcher, hostname: string, token: string): Promise<boolean> {
  const result = await fetcher.fetch(`https://${hostname}/`, { method: 'GET', allowedHosts: twinHostnames(hostname), headers: { accept: 'text/html' } });
  return result.ok && headHasVerificationMeta(result.body, token);
}

async function checkSite(deps: LapseJobDeps, site: DueSite): Promise<boolean> {
  switch (site.method) {
    case 'dns_txt':
      return checkDnsTxt(deps.resolveTxt ?? ((hostname) => dns.resolveTxt(hostname)), site.hostname, site.verificationToken);
    case 'meta_tag':
      return checkMetaTag(deps.fetcher, site.hostname, site.verificationToken);
    case 'wp_plugin':
      return (await probeWpPlugin(deps.fetcher, site.hostname, site.verificationToken)).matched;
  }
}

/**
 * Claims one due site: the conditional update succeeds for exactly one worker, because it moves
 * `lastCheckedAt` out of the due window in the same statement that tests it. No transaction stays open
 * during the network check (which may take seconds), unlike a row lock held with FOR UPDATE.
 */
async function claim(prisma: Db, id: number, cutoff: Date, now: Date): Promise<boolean> {
  const { count } = await prisma.site.updateMany({
    where: { id, verified: true, demo: false, archivedAt: null, OR: [{ lastCheckedAt: null }, { lastCheckedAt: { lte: cutoff } }] },
    data: { lastCheckedAt: now },
  });
  return count === 1;
}

/** Records one check's outcome; returns true when this failure made the site lapse. */
async function record(prisma: Db, id: number, passed: boolean, now: Date): Promise<boolean> {
  if (passed) {
    // A passing re-check proves ownership again: verifiedAt is "when ownership was last proven".
    await prisma.site.updateMany({ where: { id, verified: true }, data: { failedChecks: 0, verifiedAt: now } });
    return false;
  }
  const updated = await prisma.site.update({ where: { id }, data: { failedChecks: { increment: 1 } }, select: { failedChecks: true } });
  if (updated.failedChecks < LAPSE_AFTER_FAILURES) return false;
  const { count } = await prisma.site.updateMany({ where: { id, verified: true }, data: { verified: false, verifiedAt: null } });
  return count === 1;
}

/**
 * The daily lapse run (contract §4): verified, non-archived sites with a recorded method whose last check is
 * due are re-checked by that method; a pass resets the failure counter, a failure increments it, and the
 * third failure in a row clears `verified` and `verifiedAt` (the method stays: how it was last proven).
 * Several workers may run it at once: each site is claimed by one of them only. A verified site without a
 * method (set by an administrator) has nothing to re-check and is left alone, and so is the first-start demo's
 * site (`demo`): its hostname is fictional, so every check would fail and the demo would stop working.
 */
export async function recheckVerifiedSites(deps: LapseJobDeps, now: Date = new Date()): Promise<LapseRunResult> {
  const cutoff = new Date(now.getTime() - RECHECK_AFTER_MS);
  const result: LapseRunResult = { checked: 0, lapsed: 0 };
  for (;;) {
    const due = await deps.prisma.site.findMany({
      where: {
        verified: true,
        demo: false,
        archivedAt: null,
        method: { not: null },
        OR: [{ lastCheckedAt: null }, { lastCheckedAt: { lte: cutoff } }],
      },
      orderBy: [{ lastCheckedAt: { sort: 'asc', nulls: 'first' } }, { id: 'asc' }],
      take: BATCH_SIZE,
      select: { id: true, hostname: true, method: true, verificationToken: true },
    });
    // Claimed sites leave the due window (their lastCheckedAt is now), so each query returns new ones.
    if (due.length === 0) return result;
    const queue = due.flatMap((site) => (site.method ? [{ ...site, method: site.method }] : []));
    const work = async (): Promise<void> => {
      for (let site = queue.shift(); site; site = queue.shift()) {
        if (!(await claim(deps.prisma, site.id, cutoff, now))) continue;
        result.checked += 1;
        const passed = await checkSite(deps, site);
        if (await record(deps.prisma, site.id, passed, now)) result.lapsed += 1;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, work));
  }
}
