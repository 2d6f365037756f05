/** Header names in lower case, as node:http gives them (a Fetch `Headers` can be passed through `Object.fromEntries`). */
export type WebhookHeaders = Record<string, string | string[] | undefined>;
/**
 * True when `rawBody` (the exact text received, before any JSON parsing) was signed with `secret` (`whsec_…`) for
 * these headers, per Standard Webhooks: `webhook-signature` holds `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`,
 * possibly several space-separated (during a secret rotation): one match is enough.
 */
export declare function verifyWebhook(secret: string, headers: WebhookHeaders, rawBody: string, nowSeconds?: number): boolean;
