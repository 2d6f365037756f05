import { randomUUID } from 'node:crypto';
import type { Config } from './config.js';
import type { Database } from './infra/db.js';
import type { Plan } from './generated/prisma/client.js';
import type { Scope } from './scopes.js';
import type { RateLimitStore } from './infra/rate-limit.js';
import type { KeyHasher } from './infra/secrets.js';
import type { LimitField } from './schema/field-rate-limit.js';
import type { OutboundFetcher } from './infra/outbound-fetch.js';
import type { PhiCipher } from './infra/phi-crypto.js';
import type { JobQueue } from './infra/jobs.js';
import { createLoaders, type Loaders } from './schema/loaders.js';

/** Process-wide collaborators, built once at start (src/main.ts) or per test. */
export interface AppDeps {
  config: Config;
  db: Database;
  hasher: KeyHasher;
  phi: PhiCipher;
  rateLimits: RateLimitStore;
  /** The one way out to customers' URLs (SSRF rules). */
  fetcher: OutboundFetcher;
  /** Requests queue jobs only inside their transaction: an erasure request, webhook redelivery, replay and ping. */
  queue: JobQueue;
}

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
}

export interface RequestContext {
  deps: AppDeps;
  viewer: Viewer | null;
  requestId: string;
  /** Request-scoped, so a batch never mixes two viewers' data. */
  loaders: Loaders;
  log: LogFields;
  /** Small per-field limits on abusable GraphQL fields (src/schema/field-rate-limit.ts), shared by both transports. */
  limitField: LimitField<RequestContext>;
  /** Headers every response to this request carries (rate-limit headers once that step has run). */
  responseHeaders: Record<string, string>;
}

export function createRequestContext(deps: AppDeps, limitField: LimitField<RequestContext>, requestId: string = randomUUID()): RequestContext {
  const context: RequestContext = { deps, viewer: null, requestId, loaders: undefined as unknown as Loaders, log: {}, responseHeaders: {}, limitField };
  context.loaders = createLoaders(context);
  return context;
}

export function requireApiKeyViewer(context: RequestContext): ApiKeyViewer {
  if (context.viewer?.kind !== 'apiKey') throw new Error('API-key viewer expected: the route layer authenticates first');
  return context.viewer;
}

export function requireSiteViewer(context: RequestContext): SiteViewer {
  if (context.viewer?.kind !== 'site') throw new Error('Site viewer expected: the route layer authenticates first');
  return context.viewer;
}
