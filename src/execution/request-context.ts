import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../deps.js';
import type { Loaders } from './loaders.js';
import type { RequestContext } from '../context.js';
import { createLoaders } from './loaders.js';

/** Every transport makes its request's context here, where the request is: its loaders live and die with it. */
export function createRequestContext(deps: AppDeps, requestId: string = randomUUID()): RequestContext {
  const context: RequestContext = { deps, viewer: null, requestId, loaders: undefined as unknown as Loaders, log: {}, responseHeaders: {} };
  // The loaders read the viewer when they run, after the gate has set it.
  context.loaders = createLoaders(deps.db, () => (context.viewer?.kind === 'apiKey' ? { accountId: context.viewer.accountId, apiKeyId: context.viewer.keyId } : null));
  return context;
}
