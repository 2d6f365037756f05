import type { Prisma } from '../../infra/db.js';
import type { DeliveryStatus } from '../../generated/prisma/client.js';
import type { DeliveryView } from './deliveries.service.js';
import { AppError, notFound, type FieldProblem } from '../../errors.js';
import { EVENT_TYPES, type EventType } from './events.service.js';
import { skipTake, toPage, type Page, type PageRequest } from '../pagination.js';
import { generateWebhookSecret } from '../../infra/secrets.js';
import { targetUrlProblem } from '../../infra/outbound-fetch.js';
import { idNumber } from '../validation.js';

/**
 * REST Hooks subscriptions (decisions §4 "webhook subscriptions", §5 "webhook input errors", "webhook
 * secret"), shared by REST and GraphQL. A deleted subscription is kept (deliveries reference it) but is
 * inactive and invisible: every lookup treats it, like another account's, as absent.
 */

export interface WebhookSubscriptionView {
  id: number;
  url: string;
  event: EventType;
  formId: number | null;
  active: boolean;
  createdAt: Date;
}

/** Create's answer: the secret is shown here only (for a new subscription). */
export interface CreatedWebhookSubscription extends WebhookSubscriptionView {
  secret: string | null;
  /** False when an identical live subscription existed and is returned instead. */
  created: boolean;
}

export interface CreateWebhookInput {
  url?: unknown;
  event?: unknown;
  formId?: unknown;
}

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** The read scope a subscriber needs for the event's resource (decisions §4). */
export function scopeForEvent(event: EventType): 'read:submissions' | 'read:forms' {
  return event.startsWith('submission.') ? 'read:submissions' : 'read:forms';
}

export const isEventType = (value: unknown): value is EventType => typeof value === 'string' && (EVENT_TYPES as readonly string[]).includes(value);

/** The URL rules of creation, PATCH and a form's webhookUrl alike (decisions §6.5 "webhook URL at creation"). */
export function webhookUrlProblem(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return 'url is required';
  if (value.length > MAX_WEBHOOK_URL_LENGTH) return `url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`;
  const problem = targetUrlProblem(value);
  return problem ? `url ${problem}` : null;
}

const view = (row: { id: number; url: string; event: string; formId: number | null; active: boolean; createdAt: Date }): WebhookSubscriptionView => ({
  id: row.id,
  url: row.url,
  event: row.event as EventType,
  formId: row.formId,
  active: row.active,
  createdAt: row.createdAt,
});

const VIEW_SELECT = { id: true, url: true, event: true, formId: true, active: true, createdAt: true } as const;

/**
 * Validates and creates. Subscribing again to the same url + event + form returns the existing live
 * subscription (`created: false`, `secret: null`: the secret was shown once, at creation; REST answers
 * 200 instead of 201). A deactivated (410) one is not "existing": a new subscription is created.
 */
export async function createWebhookSubscription(prisma: Prisma, accountId: number, input: CreateWebhookInput): Promise<CreatedWebhookSubscription> {
  const problems: FieldProblem[] = [];
  const urlProblem = webhookUrlProblem(input.url);
  if (urlProblem) problems.push({ field: 'url', message: urlProblem });
  if (!isEventType(input.event)) problems.push({ field: 'event', message: `event must be one of ${EVENT_TYPES.join(', ')}` });
  let formId: number | null = null;
  if (input.formId !== undefined && input.formId !== null) {
    if (!idNumber.safeParse(input.formId).success) {
      problems.push({ field: 'formId', message: 'formId must be the id of one of your forms' });
    } else {
      const form = await prisma.form.findFirst({ where: { id: input.formId, accountId }, select: { id: true } });
      if (!form) problems.push({ field: 'formId', message: 'formId must be the id of one of your forms' });
      else formId = form.id;
    }
  }
  if (problems.length > 0 || !isEventType(input.event) || typeof input.url !== 'string') throw new AppError('validation_failed', { fields: problems });
  const url = input.url;
  const event = input.event;

  const existing = await prisma.webhookSubscription.findFirst({
    where: { accountId, url, event, formId, active: true, deletedAt: null },
    select: VIEW_SELECT,
    orderBy: { id: 'asc' },
  });
  if (existing) return { ...view(existing), secret: null, created: false };
  const row = await prisma.webhookSubscription.create({
    data: { accountId, url, event, formId, secret: generateWebhookSecret() },
    select: { ...VIEW_SELECT, secret: true },
  });
  return { ...view(row), secret: row.secret, created: true };
}

const LIVE = { deletedAt: null } as const;

export async function listWebhookSubscriptions(prisma: Prisma, accountId: number, page: PageRequest): Promise<Page<WebhookSubscriptionView>> {
  const where = { accountId, ...LIVE };
  const [rows, total] = await Promise.all([
    prisma.webhookSubscription.findMany({ where, select: VIEW_SELECT, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], ...skipTake(page) }),
    prisma.webhookSubscription.count({ where }),
  ]);
  return toPage(rows.map(view), page, total);
}

export async function getWebhookSubscriptionOrThrow(prisma: Prisma, accountId: number, id: number): Promise<WebhookSubscriptionView> {
  const row = await prisma.webhookSubscription.findFirst({ where: { id, accountId, ...LIVE }, select: VIEW_SELECT });
  if (!row) throw notFound('webhook');
  return view(row);
}

/** Soft delete: the row stays for its deliveries, inactive; pending deliveries to it are not sent. */
export async function deleteWebhookSubscription(prisma: Prisma, accountId: number, id: number): Promise<void> {
  const { count } = await prisma.webhookSubscription.updateMany({
    where: { id, accountId, ...LIVE },
    data: { deletedAt: new Date(), active: false },
  });
  if (count === 0) throw notFound('webhook');
}

export interface DeliveryFilter {
  /** Only this subscription's deliveries (it must be the account's, deleted ones included). */
  subscriptionId?: number;
  status?: DeliveryStatus;
}

/**
 * Deliveries for dashboards (GraphQL `webhookDeliveries`: the account's, or one subscription's, deleted ones
 * included), newest first: attempts, status, last status code, latency, next retry.
 * Never the payload (it may carry form data) and never the target URL.
 */
export async function listWebhookDeliveries(
  prisma: Prisma,
  accountId: number,
  page: PageRequest,
  filter: DeliveryFilter = {},
): Promise<Page<DeliveryView>> {
  if (filter.subscriptionId !== undefined) {
    const owned = await prisma.webhookSubscription.findFirst({ where: { id: filter.subscriptionId, accountId }, select: { id: true } });
    if (!owned) throw notFound('webhook');
  }
  const where = {
    accountId,
    ...(filter.subscriptionId !== undefined ? { subscriptionId: filter.subscriptionId } : {}),
    ...(filter.status ? { status: filter.status } : {}),
  };
  const [rows, total] = await Promise.all([
    prisma.webhookDelivery.findMany({
      where,
      select: {
        id: true,
        subscriptionId: true,
        formId: true,
        eventId: true,
        eventType: true,
        messageId: true,
        status: true,
        attempts: true,
        lastStatusCode: true,
        lastLatencyMs: true,
        lastError: true,
        lastAttemptAt: true,
        nextAttemptAt: true,
        deliveredAt: true,
        createdAt: true,
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      ...skipTake(page),
    }),
    prisma.webhookDelivery.count({ where }),
  ]);
  return toPage(rows.map(({ subscriptionId, ...row }) => ({ ...row, webhookId: subscriptionId })), page, total);
}

export interface UpdateWebhookInput {
  url?: string | null;
  active?: boolean | null;
}

/**
 * PATCH `{ url?, active? }` (decisions §6.5): a new url obeys the creation rules. A new url or `active: true`
 * starts the endpoint's record afresh (failingSince cleared), so that old failures cannot deactivate it again at
 * once. Returns the subscription as it is afterwards.
 */
export async function updateWebhookSubscription(prisma: Prisma, accountId: number, id: number, input: UpdateWebhookInput): Promise<WebhookSubscriptionView> {
  const problems: FieldProblem[] = [];
  if (input.url !== undefined) {
    const problem = webhookUrlProblem(input.url);
    if (problem) problems.push({ field: 'url', message: problem });
  }
  if (input.active === null) problems.push({ field: 'active', message: 'active must be true or false' });
  if (problems.length) throw new AppError('validation_failed', { fields: problems });
  const fresh = (typeof input.url === 'string') || input.active === true;
  const data = {
    ...(typeof input.url === 'string' ? { url: input.url } : {}),
    ...(typeof input.active === 'boolean' ? { active: input.active } : {}),
    ...(fresh ? { failingSince: null } : {}),
  };
  if (Object.keys(data).length === 0) return getWebhookSubscriptionOrThrow(prisma, accountId, id);
  const rows = await prisma.webhookSubscription.updateManyAndReturn({ where: { id, accountId, ...LIVE }, data, select: VIEW_SELECT });
  const row = rows[0];
  if (!row) throw notFound('webhook');
  return view(row);
}
