import type { Prisma } from '../../infra/db.js';
import type { OutgoingEmail } from './outgoing-email.js';

/**
 * The email to an account owner whose webhook subscription was deactivated after 3 days of only failed
 * deliveries (contract §6.5 "failing endpoints"). It names the subscription by id and event, never by its URL
 * (a secret of the integrator's), and says how to recover: reactivate, then replay what failed.
 */
export interface DeactivationEmailInput {
  subscriptionId: number;
  event: string;
  /** When its failing period began: with the id, the Message-ID a retried send keeps. */
  failingSince: string;
  ownerEmail: string | null;
  /** `http://HOST:PORT/v1`, for the API calls it names. */
  apiBaseUrl: string;
}

export function renderDeactivationEmail(input: DeactivationEmailInput): OutgoingEmail | null {
  if (!input.ownerEmail) return null;
  const base = `${input.apiBaseUrl}/webhooks/${input.subscriptionId}`;
  const subject = `Webhook #${input.subscriptionId} was turned off after 3 days of failed deliveries`;
  const lines = [
    `None of the deliveries of webhook #${input.subscriptionId} (${input.event}) succeeded for 3 days, so it was turned off.`,
    `See what failed: GET ${base}/deliveries?status=failed`,
    `Turn it back on once the endpoint answers: PATCH ${base} {"active": true}`,
    `Then resend what it missed: POST ${base}/replay {"createdFrom": "…", "createdBefore": "…", "status": "failed"}`,
  ];
  const escape = (value: string): string => value.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
  return {
    to: input.ownerEmail,
    subject,
    text: `${lines.join('\n')}\n`,
    html: `<!doctype html><html><body><h1>${escape(subject)}</h1>${lines.map((line) => `<p>${escape(line)}</p>`).join('')}</body></html>`,
    messageId: `<webhook-${input.subscriptionId}-deactivated-${Date.parse(input.failingSince)}@widgets-gateway>`,
  };
}

/** Reads the subscription at send time: only its id, event and the owner's address. */
export async function sendDeactivationEmail(
  prisma: Prisma,
  send: (email: OutgoingEmail) => Promise<void>,
  job: { subscriptionId: number; failingSince: string },
  apiBaseUrl: string,
): Promise<void> {
  const row = await prisma.webhookSubscription.findUnique({
    where: { id: job.subscriptionId },
    select: { id: true, event: true, account: { select: { ownerEmail: true } } },
  });
  if (!row) return;
  const email = renderDeactivationEmail({ subscriptionId: row.id, event: row.event, failingSince: job.failingSince, ownerEmail: row.account.ownerEmail, apiBaseUrl });
  if (email) await send(email);
}
