import createFetchClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './schema.js';

export type { components, operations, paths } from './schema.js';
export { verifyWebhook, type WebhookHeaders } from './webhooks.js';
export { EventStreamError, streamEvents, type LiveEvent, type StreamEventsOptions } from './events.js';
export { walk, WalkError, type WalkablePath, type WalkOptions } from './walk.js';

/** The v1 error body: branch on `code`, never on `error` (a message for people). */
export type ApiError = components['schemas']['Error'];

export interface WidgetsClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** The service's address without `/v1`, e.g. `http://127.0.0.1:4000`. */
  baseUrl: string;
  /** An API key (`svc_live_…`); a site-key route takes its key per call instead: `{ headers: { 'X-Service-Site-Key': siteKey } }`. */
  apiKey?: string | undefined;
}

export type WidgetsClient = Client<paths>;

/**
 * A typed client of the v1 REST API: every path, parameter, body and answer (success and error) is typed from the
 * service's OpenAPI document. `const { data, error, response } = await client.GET('/forms/{id}', { params: { path: { id } } })`.
 */
export function createWidgetsClient({ baseUrl, apiKey, headers, ...options }: WidgetsClientOptions): WidgetsClient {
  return createFetchClient<paths>({
    ...options,
    baseUrl: `${baseUrl.replace(/\/+$/, '')}/v1`,
    headers: { ...(apiKey && { authorization: `Bearer ${apiKey}` }), ...(headers as Record<string, string> | undefined) },
  });
}
