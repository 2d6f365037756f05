import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../docs/examples/verify-webhook.mjs';

// The integrator guide's example must accept exactly what the delivery job sends: it signs with this library's
// `sign(id, date, body)` (src/worker/jobs/webhook-delivery.job.ts).
describe('docs/examples/verify-webhook.mjs', () => {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const body = JSON.stringify({ id: 'evt_1', type: 'submission.created', createdAt: '2026-11-24T10:00:00.000Z', data: { id: 1, formData: { Name: 'Zoë "Ada"' } } });
  const now = new Date('2026-11-24T10:00:00.000Z');
  const seconds = Math.floor(now.getTime() / 1000);
  const headersFor = (signature: string, timestamp = seconds) => ({
    'webhook-id': 'msg_1',
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signature,
  });
  const signed = new Webhook(secret).sign('msg_1', now, body);

  it('accepts a delivery signed the way the service signs it', () => {
    expect(verifyWebhook(secret, headersFor(signed), body, seconds)).toBe(true);
  });

  it('accepts when one of several signatures matches (secret rotation)', () => {
    expect(verifyWebhook(secret, headersFor(`v1,${randomBytes(32).toString('base64')} ${signed}`), body, seconds)).toBe(true);
  });

  it('refuses a changed body, another secret, a changed id and a missing header', () => {
    expect(verifyWebhook(secret, headersFor(signed), body.replace('Ada', 'Eve'), seconds)).toBe(false);
    expect(verifyWebhook(`whsec_${randomBytes(32).toString('base64')}`, headersFor(signed), body, seconds)).toBe(false);
    expect(verifyWebhook(secret, { ...headersFor(signed), 'webhook-id': 'msg_2' }, body, seconds)).toBe(false);
    expect(verifyWebhook(secret, { 'webhook-id': 'msg_1', 'webhook-timestamp': String(seconds) }, body, seconds)).toBe(false);
  });

  it('refuses a delivery more than five minutes old or ahead', () => {
    expect(verifyWebhook(secret, headersFor(signed), body, seconds + 301)).toBe(false);
    expect(verifyWebhook(secret, headersFor(signed), body, seconds - 301)).toBe(false);
    expect(verifyWebhook(secret, headersFor(signed), body, seconds + 299)).toBe(true);
  });
});
