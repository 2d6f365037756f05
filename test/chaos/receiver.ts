import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';
import type { RecordedRequest, TestHttpsServer } from '../support/https-server.js';

/**
 * The webhook receiver's side of the chaos run: every POST is checked against its subscription's secret (Standard
 * Webhooks) when it arrives, and the first try of one webhook-id in `failEvery` is answered 503, so that retries
 * happen during the run and their webhook-ids can be compared.
 */

/** One subscription listens to every form, the other to the run's form only. */
export const SUBSCRIPTION_PATHS = ['/hooks/all', '/hooks/form'] as const;

export interface ReceivedDelivery {
  path: string;
  webhookId: string;
  eventId: string | null;
  eventType: string | null;
  submissionId: number | null;
  signatureValid: boolean;
  status: number;
}

export interface WebhookReceiver {
  received: ReceivedDelivery[];
  /** Requests the receiver is still answering (delayed ones). */
  readonly inFlight: number;
}

function plainHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

function digestNumber(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0);
}

export function receiveWebhooks(server: TestHttpsServer, secrets: () => Map<string, { secret: string }>, options: { failEvery?: number } = {}): WebhookReceiver {
  const failEvery = options.failEvery ?? 8;
  const received: ReceivedDelivery[] = [];
  const tries = new Map<string, number>();
  let inFlight = 0;

  const handle = (request: RecordedRequest): { status: number; delayMs: number } => {
    const webhookId = String(request.headers['webhook-id'] ?? '');
    const secret = secrets().get(request.pathname)?.secret;
    let signatureValid = false;
    let payload: { id?: unknown; type?: unknown; data?: { id?: unknown } } = {};
    try {
      if (secret) {
        new Webhook(secret).verify(request.body, plainHeaders(request.headers));
        signatureValid = true;
      }
      payload = JSON.parse(request.body) as typeof payload;
    } catch {
      // An invalid signature or body is recorded as such; the check below counts it.
    }
    const key = `${request.pathname} ${webhookId}`;
    const attempt = (tries.get(key) ?? 0) + 1;
    tries.set(key, attempt);
    const digest = digestNumber(webhookId);
    const status = attempt === 1 && digest % failEvery === 0 ? 503 : 200;
    received.push({
      path: request.pathname,
      webhookId,
      eventId: typeof payload.id === 'string' ? payload.id : null,
      eventType: typeof payload.type === 'string' ? payload.type : null,
      submissionId: typeof payload.data?.id === 'number' ? payload.data.id : null,
      signatureValid,
      status,
    });
    // 20-100 ms: slow enough that a worker killed at a random moment is likely to be holding a delivery.
    return { status, delayMs: 20 + (digest % 80) };
  };

  for (const path of SUBSCRIPTION_PATHS) {
    server.handle(path, async (request) => {
      inFlight++;
      const answer = handle(request);
      await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
      inFlight--;
      return { status: answer.status };
    });
  }
  return {
    received,
    get inFlight() {
      return inFlight;
    },
  };
}
