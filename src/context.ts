import type { RateLimitResult } from './infra/rate-limit.js';
import type { AppDeps } from './deps.js';
import type { Plan } from './generated/prisma/client.js';
import type { Scope } from './scopes.js';
import type { Loaders } from './execution/loaders.js';

export interface ApiKeyViewer {
  kind: 'apiKey';
  accountId: number;
  keyId: number;
  scopes: ReadonlySet<Scope>;
  plan: Plan;
  rateLimitPerHour: number;
}

export interface SiteViewer {
  kind: 'site';
  accountId: number;
  siteId: number;
  keyHash: string;
}

export type Viewer = ApiKeyViewer | SiteViewer;

/** What the one request log line carries: never a key, token, email address or form data. */
export interface LogFields {
  route?: string;
  accountId?: number;
  keyId?: number;
  /** A streamed answer the service cut because its client stopped reading (not a client that left by itself). */
  stalled?: boolean;
  /** A streamed answer the service cut after its first byte because producing it failed (not the client's doing). */
  streamFailed?: boolean;
}

export interface RequestContext {
  deps: AppDeps;
  viewer: Viewer | null;
  requestId: string;
  /** Request-scoped, so a batch never mixes two viewers' data. */
  loaders: Loaders;
  log: LogFields;
  /** Headers every response to this request carries (rate-limit headers once that step has run). */
  responseHeaders: Record<string, string>;
  /** The API key's budget as the gate last saw it (decisions §7.1: `rateLimit`, `extensions.cost`). */
  budget?: RateLimitResult;
}

export function requireApiKeyViewer(context: RequestContext): ApiKeyViewer {
  if (context.viewer?.kind !== 'apiKey') throw new Error('API-key viewer expected: the route layer authenticates first');
  return context.viewer;
}

export function requireSiteViewer(context: RequestContext): SiteViewer {
  if (context.viewer?.kind !== 'site') throw new Error('Site viewer expected: the route layer authenticates first');
  return context.viewer;
}
