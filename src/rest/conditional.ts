import { createHash } from 'node:crypto';
import { Response } from '@whatwg-node/server';
import type { RequestContext } from '../context.js';
import type { Route, ParsedInput } from '../execution/route.js';

/*
 * Contract §6.2, conditional GETs. The ETag is a hash of the body itself, so it changes exactly when the body
 * does, costs no SQL on a plain 200, and is the same on every replica. Where a route has a version that grows
 * with every write its body shows (its row's `version` option, src/execution/route.ts), a conditional request reads that version first; a tag this
 * process computed from a body built after reading the same version is still the body's tag, so a 304 is
 * decided without building the body. Otherwise the body is built and hashed, and a match is still a 304.
 *
 * The budget: a conditional request only peeks at it (429 when spent) and is charged once its answer is known
 * not to be a 304 (src/rest/facade.ts).
 */

export const CACHE_HEADERS = { 'Cache-Control': 'private, no-cache', Vary: 'Authorization, X-Service-Site-Key' } as const;

/** A strong tag: 128 bits of SHA-256 of the exact bytes sent. */
export function etagOf(json: string): string {
  return `"${createHash('sha256').update(json).digest('base64url').slice(0, 22)}"`;
}

/** The client's `If-None-Match`: the opaque tags it holds (W/ prefixes dropped: If-None-Match compares weakly), or any. */
export type IfNoneMatch = { any: true } | { any: false; tags: Set<string> };

export function parseIfNoneMatch(header: string | null): IfNoneMatch | null {
  if (header === null) return null;
  if (header.trim() === '*') return { any: true };
  const tags = new Set<string>();
  for (const match of header.matchAll(/(?:W\/)?("[^"]*")/g)) if (match[1]) tags.add(match[1]);
  return tags.size ? { any: false, tags } : null;
}

export const matches = (condition: IfNoneMatch, etag: string): boolean => condition.any || condition.tags.has(etag);

/** 304: no body, the same ETag, the rate-limit headers of the peek, the caching headers. */
export function notModified(etag: string, headers: Record<string, string>): Response {
  return new Response(null, { status: 304, headers: { ...headers, ...CACHE_HEADERS, ETag: etag } });
}

/**
 * A fixed public document (/v1/openapi.json): tagged once, so a client holding it revalidates for a 304 with no
 * body (§6.2). `no-cache`: kept, but asked again each time, as the document changes with each release.
 */
export function documentResponder(body: string, contentType: string): (request: Request) => Response {
  const etag = etagOf(body);
  return (request) => {
    const condition = parseIfNoneMatch(request.headers.get('if-none-match'));
    if (condition && matches(condition, etag)) return new Response(null, { status: 304, headers: { ETag: etag, 'Cache-Control': 'no-cache' } });
    return new Response(body, { headers: { 'content-type': contentType, ETag: etag, 'Cache-Control': 'no-cache' } });
  };
}

const accountId = (context: RequestContext): number | null => (context.viewer?.kind === 'apiKey' ? context.viewer.accountId : null);

/** At most this many remembered tags per process (~2 MB); the oldest go first. */
const MAX_REMEMBERED = 10_000;

export interface ConditionalGets {
  /** The tag for a 304 decided from the route's version alone, or null (then build the body and `settle`). */
  shortcut(route: Route, context: RequestContext, input: ParsedInput, condition: IfNoneMatch): Promise<string | null>;
  /** After the body is built: its tag, remembered against the version read before it. */
  settle(route: Route, context: RequestContext, input: ParsedInput, json: string): string;
}

export function createConditionalGets(): ConditionalGets {
  const remembered = new Map<string, { version: string; etag: string }>();
  // The version read by `shortcut` for this request, so that `settle` remembers the tag against it (a version
  // read BEFORE the body: a write in between moves the version on, so the pair can only be stale, never wrong).
  const versions = new WeakMap<ParsedInput, { key: string; version: string }>();

  const keyOf = (route: Route, context: RequestContext, input: ParsedInput): string =>
    `${accountId(context)} ${route.method} ${route.path} ${input.params.id ?? ''} ${JSON.stringify(input.query)}`;

  return {
    async shortcut(route, context, input, condition) {
      if (!route.version) return null;
      const version = await route.version(context, input);
      if (version === null) return null;
      const key = keyOf(route, context, input);
      versions.set(input, { key, version });
      const known = remembered.get(key);
      return known && known.version === version && matches(condition, known.etag) ? known.etag : null;
    },
    settle(_route, _context, input, json) {
      const etag = etagOf(json);
      const read = versions.get(input);
      if (read) {
        remembered.delete(read.key);
        remembered.set(read.key, { version: read.version, etag });
        if (remembered.size > MAX_REMEMBERED) {
          const oldest = remembered.keys().next().value;
          if (oldest !== undefined) remembered.delete(oldest);
        }
      }
      return etag;
    },
  };
}
