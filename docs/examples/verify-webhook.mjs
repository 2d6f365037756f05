// Verifies a widgets-gateway webhook delivery (Standard Webhooks) with Node's own crypto: no dependency.
// Run a receiver:  WEBHOOK_SECRET=whsec_… node docs/examples/verify-webhook.mjs   (listens on 127.0.0.1:8080;
// put it behind your HTTPS endpoint: deliveries go to https URLs on port 443 only).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';

/** Deliveries older or newer than this are refused, so that a captured request cannot be replayed later. */
const TOLERANCE_SECONDS = 5 * 60;

/**
 * True when `rawBody` (the exact bytes received, before any JSON parsing) was signed with `secret` for these
 * headers. `headers` holds lower-case names, as node:http gives them.
 */
export function verifyWebhook(secret, headers, rawBody, nowSeconds = Math.floor(Date.now() / 1000)) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return false;
  if (!/^\d+$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > TOLERANCE_SECONDS) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${rawBody}`).digest();
  // The header may carry several space-separated signatures (during a secret rotation): one match is enough.
  return signatures.split(' ').some((entry) => {
    const [version, value] = entry.split(',');
    const given = Buffer.from(value ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const secret = process.env.WEBHOOK_SECRET;
  if (!secret) throw new Error('set WEBHOOK_SECRET to the whsec_… secret shown when the webhook was created');
  const seen = new Set(); // webhook-id: a retry or a replay carries the id of the first try
  createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (!verifyWebhook(secret, request.headers, body)) {
        response.writeHead(400).end();
        return;
      }
      const id = request.headers['webhook-id'];
      if (!seen.has(id)) {
        seen.add(id);
        const event = JSON.parse(body);
        console.log(event.type, event.id, JSON.stringify(event.data));
      }
      response.writeHead(204).end(); // any 2xx is success; answer fast and work afterwards
    });
  }).listen(8080, '127.0.0.1', () => console.log('listening on http://127.0.0.1:8080'));
}
