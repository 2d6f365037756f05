import { z } from 'zod';
import type { Prisma } from '../generated/prisma/client.js';
import { AppError, type FieldProblem } from '../errors.js';
import { SCOPES } from '../scopes.js';
import { normalizeHostname } from './sites.service.js';

/* The fixture format of decisions §3 and the import's output map. Objects are strict so that a misspelt field
   fails loudly instead of silently importing a default. */

const date = z.union([z.date(), z.iso.datetime({ offset: true }).transform((value) => new Date(value))]);
const optionalDate = date.optional();
const nullableDate = date.nullable().optional();
const text = z.string().nullable().optional();
const jsonObject = z.record(z.string(), z.json());
const ref = z.string().min(1);
const timestamps = { createdAt: optionalDate, updatedAt: optionalDate };

const orderSchema = z.strictObject({
  customerName: text,
  customerEmail: z.string().min(1),
  customerPhone: text,
  amountCents: z.number().int(),
  currency: z.string().regex(/^[a-z]{3}$/, 'must be a lowercase currency code'),
  status: z.enum(['paid', 'shipped', 'refunded', 'failed']),
  shippingAddress: jsonObject.nullable().optional(),
  trackingNumber: text,
  trackingCarrier: text,
  shippedAt: nullableDate,
  providerPaymentId: text,
  downloadToken: text,
  ...timestamps,
});

const submissionSchema = z.strictObject({
  formData: jsonObject,
  sourceDomain: text,
  ...timestamps,
});

const formSchema = z.strictObject({
  ref,
  name: z.string().min(1),
  type: z.enum(['standard', 'multi-step', 'multi_step']).optional(),
  phi: z.boolean().optional(),
  archived: z.boolean().optional(),
  fields: z.array(jsonObject).optional(),
  webhookUrl: text,
  submissions: z.array(submissionSchema).optional(),
  ...timestamps,
});

const bookingSchema = z.strictObject({
  inviteeName: z.string(),
  inviteeEmail: z.string().min(1),
  slotIso: z.string().min(1),
  slotDisplay: z.string(),
  inviteeTimezone: z.string().min(1),
  status: z.enum(['scheduled', 'cancelled', 'no_show', 'completed', 'failed']),
  customFields: jsonObject.optional(),
  videoCallUrl: text,
  cancellationToken: text,
  providerEventId: text,
  assignedHost: text,
  ...timestamps,
});

const calendarWidgetSchema = z.strictObject({
  ref,
  name: z.string().min(1),
  settings: jsonObject.optional(),
  appearance: jsonObject.optional(),
  behavior: jsonObject.optional(),
  archived: z.boolean().optional(),
  bookings: z.array(bookingSchema).optional(),
  ...timestamps,
});

const ecommerceWidgetSchema = z.strictObject({
  ref,
  name: z.string().min(1),
  type: z.enum(['one_time', 'subscription', 'donation']),
  productName: z.string(),
  description: text,
  priceCents: z.number().int().nullable().optional(),
  currency: z.string().regex(/^[a-z]{3}$/, 'must be a lowercase currency code'),
  fulfilmentType: z.enum(['digital', 'service', 'physical']),
  imageUrl: text,
  imageUrls: z.array(z.string()).optional(),
  interval: z.enum(['day', 'week', 'month', 'year']).nullable().optional(),
  trialDays: z.number().int().nullable().optional(),
  providerPriceId: text,
  downloadUrl: text,
  archived: z.boolean().optional(),
  orders: z.array(orderSchema).optional(),
  ...timestamps,
});

const collectionSchema = z.strictObject({
  ref,
  name: z.string().min(1),
  orders: z.array(orderSchema).optional(),
  ...timestamps,
});

const siteSchema = z.strictObject({
  ref,
  domain: z.string().transform((value, ctx) => {
    const host = normalizeHostname(value);
    if (host) return host;
    ctx.addIssue({ code: 'custom', message: 'must be a hostname such as example.com' });
    return z.NEVER;
  }),
  environment: z.enum(['production', 'staging']).optional(),
  archived: z.boolean().optional(),
  verified: z.boolean().optional(),
  method: z.enum(['dns_txt', 'meta_tag', 'wp_plugin']).nullable().optional(),
  verifiedAt: nullableDate,
  lastCheckedAt: nullableDate,
  failedChecks: z.number().int().min(0).optional(),
  /** Normally generated; a fixed one lets a verification test serve a known token. */
  verificationToken: z.string().regex(/^[A-Za-z0-9_-]{32}$/, 'must be 32 base64url characters').optional(),
  forms: z.array(formSchema).optional(),
  calendarWidgets: z.array(calendarWidgetSchema).optional(),
  ecommerceWidgets: z.array(ecommerceWidgetSchema).optional(),
  collections: z.array(collectionSchema).optional(),
  ...timestamps,
});

const apiKeySchema = z.strictObject({
  ref,
  name: text,
  scopes: z.array(z.enum(SCOPES)).optional(),
  expiresAt: nullableDate,
  revoked: z.boolean().optional(),
  rateLimitPerHour: z.number().int().positive().nullable().optional(),
  lastUsedAt: nullableDate,
  ...timestamps,
});

const accountSchema = z.strictObject({
  ref,
  name: z.string().min(1),
  kind: z.enum(['personal', 'organization']),
  plan: z.enum(['free', 'starter', 'pro', 'business']),
  ownerEmail: text,
  webhookSigningSecret: z.string().startsWith('whsec_').optional(),
  apiKeys: z.array(apiKeySchema).optional(),
  sites: z.array(siteSchema).optional(),
  legacyForms: z.array(formSchema).optional(),
  ...timestamps,
});

type Path = (string | number)[];

function duplicateRefs(items: { ref: string }[] | undefined, path: Path, ctx: z.RefinementCtx, seen = new Set<string>()): void {
  items?.forEach((item, index) => {
    if (seen.has(item.ref)) ctx.addIssue({ code: 'custom', path: [...path, index, 'ref'], message: `duplicate ref "${item.ref}"` });
    seen.add(item.ref);
  });
}

export const fixtureSchema = z
  .strictObject({ accounts: z.array(accountSchema).optional() })
  .superRefine((fixture, ctx) => {
    duplicateRefs(fixture.accounts, ['accounts'], ctx);
    fixture.accounts?.forEach((account, a) => {
      const base: Path = ['accounts', a];
      duplicateRefs(account.apiKeys, [...base, 'apiKeys'], ctx);
      duplicateRefs(account.sites, [...base, 'sites'], ctx);
      // Forms, legacy ones included, share one map; each widget kind has its own.
      const forms = new Set<string>();
      const calendars = new Set<string>();
      const shops = new Set<string>();
      const collections = new Set<string>();
      account.sites?.forEach((site, s) => {
        const at: Path = [...base, 'sites', s];
        duplicateRefs(site.forms, [...at, 'forms'], ctx, forms);
        duplicateRefs(site.calendarWidgets, [...at, 'calendarWidgets'], ctx, calendars);
        duplicateRefs(site.ecommerceWidgets, [...at, 'ecommerceWidgets'], ctx, shops);
        duplicateRefs(site.collections, [...at, 'collections'], ctx, collections);
      });
      duplicateRefs(account.legacyForms, [...base, 'legacyForms'], ctx, forms);
    });
  });

/** What a fixture may contain (dates as ISO strings or Date objects). */
export type Fixture = z.input<typeof fixtureSchema>;
export type AccountFixture = z.input<typeof accountSchema>;
export type SiteFixture = z.input<typeof siteSchema>;
export type FormFixture = z.input<typeof formSchema>;
export type CalendarWidgetFixture = z.input<typeof calendarWidgetSchema>;
export type EcommerceWidgetFixture = z.input<typeof ecommerceWidgetSchema>;
export type OrderFixture = z.input<typeof orderSchema>;

/** The output map of decisions §3. */
export interface ImportedAccount {
  id: number;
  apiKeys: Record<string, { id: number; key: string }>;
  sites: Record<string, { id: number; siteKey: string; verificationToken: string }>;
  forms: Record<string, { id: number; submissionIds: number[] }>;
  calendarWidgets: Record<string, { id: number; bookingIds: number[] }>;
  ecommerceWidgets: Record<string, { id: number; orderIds: number[] }>;
  collections: Record<string, { id: number; orderIds: number[] }>;
}

export interface ImportResult {
  accounts: Record<string, ImportedAccount>;
}

export interface ImportOptions {
  /**
   * Seals the formData of submissions to PHI forms (decisions §4: stored encrypted); required when the fixture
   * has any, so PHI never lands in plain text by omission.
   */
  sealFormData?: (formData: Prisma.InputJsonObject) => { ciphertext: Uint8Array<ArrayBuffer>; keyId: string };
}

function formatPath(path: PropertyKey[]): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : `${out ? '.' : ''}${String(part)}`;
  return out || 'fixture';
}

export function parseFixture(input: unknown): z.output<typeof fixtureSchema> {
  const parsed = fixtureSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const fields: FieldProblem[] = parsed.error.issues.map((issue) => ({ field: formatPath(issue.path), message: issue.message }));
  throw new AppError('validation_failed', { fields });
}

export type ParsedFixture = z.output<typeof fixtureSchema>;
export type ParsedOrder = z.output<typeof orderSchema>;
export type ParsedForm = z.output<typeof formSchema>;
