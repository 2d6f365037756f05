import { createHmac, timingSafeEqual } from 'node:crypto';
/** Deliveries older or newer than this are refused, so that a captured request cannot be replayed later. */
const TOLERANCE_SECONDS = 5 * 60;
/**
 * True when `rawBody` (the exact text received, before any JSON parsing) was signed with `secret` (`whsec_…`) for
 * these headers, per Standard Webhooks: `webhook-signature` holds `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`,
 * possibly several space-separated (during a secret rotation): one match is enough.
 */
export function verifyWebhook(secret, headers, rawBody, nowSeconds = Math.floor(Date.now() / 1000)) {
    const id = headers['webhook-id'];
    const timestamp = headers['webhook-timestamp'];
    const signatures = headers['webhook-signature'];
    if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string')
        return false;
    if (!/^\d+$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > TOLERANCE_SECONDS)
        return false;
    const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
    const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${rawBody}`).digest();
    return signatures.split(' ').some((entry) => {
        const [version, value] = entry.split(',');
        const given = Buffer.from(value ?? '', 'base64');
        return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
    });
}
