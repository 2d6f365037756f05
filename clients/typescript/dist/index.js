import createFetchClient from 'openapi-fetch';
export { verifyWebhook } from './webhooks.js';
export { EventStreamError, streamEvents } from './events.js';
export { walk, WalkError } from './walk.js';
/**
 * A typed client of the v1 REST API: every path, parameter, body and answer (success and error) is typed from the
 * service's OpenAPI document. `const { data, error, response } = await client.GET('/forms/{id}', { params: { path: { id } } })`.
 */
export function createWidgetsClient({ baseUrl, apiKey, headers, ...options }) {
    return createFetchClient({
        ...options,
        baseUrl: `${baseUrl.replace(/\/+$/, '')}/v1`,
        headers: { ...(apiKey && { authorization: `Bearer ${apiKey}` }), ...headers },
    });
}
