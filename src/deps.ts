import type { Config } from './config.js';
import type { Database } from './infra/db.js';
import type { JobQueue } from './infra/jobs.js';
import type { OutboundFetcher } from './infra/outbound-fetch.js';
import type { PhiCipher } from './infra/phi-crypto.js';
import type { RateLimitStore } from './infra/rate-limit.js';
import type { KeyHasher } from './infra/secrets.js';
import type { EventStreams } from './streams/event-streams.js';

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
  /** The live event streams of this replica (src/streams), which REST and GraphQL open for their clients. */
  streams: EventStreams;
}
