import { z } from 'zod';
import { Prisma, type PrismaClient } from '../generated/prisma/client.js';
import { AppError, type FieldProblem } from '../errors.js';
import { SCOPES, READ_SCOPES } from '../scopes.js';
import { generateApiKey, generateSiteKey, generateVerificationToken, generateWebhookSecret, type KeyHasher } from './secrets.service.js';
import { normalizeHostname } from './sites.service.js';

/* The fixture format of decisions §3. Objects are strict so that a misspelt field fails loudly
   instead of silently importing a default. */

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

/**
 * Rows go in level by level with one multi-row INSERT … RETURNING per table, so a fixture of any size costs
 * about a dozen statements. Within one INSERT the sequence hands out ids in row order, so sorting the
 * returned ids maps them back to the fixture's order.
 */
async function insertAll<T>(rows: T[], insert: (data: T[]) => Promise<{ id: number }[]>): Promise<number[]> {
  if (rows.length === 0) return [];
  const created = await insert(rows);
  return created.map((row) => row.id).sort((a, b) => a - b);
}

const idAt = (ids: number[], index: number): number => {
  const id = ids[index];
  if (id === undefined) throw new Error('insert returned fewer rows than it was given');
  return id;
};

type Parsed = z.output<typeof fixtureSchema>;
type ParsedOrder = z.output<typeof orderSchema>;
type ParsedForm = z.output<typeof formSchema>;

interface Stamps {
  createdAt: Date;
  updatedAt: Date;
}

function stamps(item: { createdAt?: Date | undefined; updatedAt?: Date | undefined }, now: Date): Stamps {
  const createdAt = item.createdAt ?? now;
  return { createdAt, updatedAt: item.updatedAt ?? createdAt };
}

const json = (value: Record<string, unknown>): Prisma.InputJsonObject => value as Prisma.InputJsonObject;

export async function importFixture(
  prisma: PrismaClient,
  hasher: KeyHasher,
  fixture: unknown,
  options: ImportOptions = {},
): Promise<ImportResult> {
  const parsed = parseFixture(fixture);
  // One transaction: a fixture lands whole or not at all.
  return prisma.$transaction((tx) => writeFixture(tx, hasher, parsed, options), { maxWait: 30_000, timeout: 120_000 });
}

async function writeFixture(
  tx: Prisma.TransactionClient,
  hasher: KeyHasher,
  fixture: Parsed,
  options: ImportOptions,
): Promise<ImportResult> {
  const now = new Date();
  const accounts = fixture.accounts ?? [];
  const result: ImportResult = { accounts: {} };

  const accountIds = await insertAll(
    accounts.map((account) => ({
      name: account.name,
      kind: account.kind,
      plan: account.plan,
      ownerEmail: account.ownerEmail ?? null,
      webhookSigningSecret: account.webhookSigningSecret ?? generateWebhookSecret(),
      ...stamps(account, now),
    })),
    (data) => tx.account.createManyAndReturn({ data, select: { id: true } }),
  );
  const maps: ImportedAccount[] = accounts.map((account, a) => {
    const map: ImportedAccount = {
      id: idAt(accountIds, a),
      apiKeys: {},
      sites: {},
      forms: {},
      calendarWidgets: {},
      ecommerceWidgets: {},
      collections: {},
    };
    result.accounts[account.ref] = map;
    return map;
  });

  // API keys: generated here, stored only as their hash.
  const keys = accounts.flatMap((account, a) => (account.apiKeys ?? []).map((spec) => ({ spec, a, key: generateApiKey() })));
  const keyIds = await insertAll(
    keys.map(({ spec, a, key }) => {
      const { createdAt } = stamps(spec, now);
      return {
        accountId: idAt(accountIds, a),
        name: spec.name ?? null,
        keyHash: hasher.hash(key),
        lastFour: key.slice(-4),
        scopes: [...new Set(spec.scopes ?? READ_SCOPES)],
        expiresAt: spec.expiresAt ?? null,
        revokedAt: spec.revoked ? now : null,
        rateLimitPerHour: spec.rateLimitPerHour ?? null,
        lastUsedAt: spec.lastUsedAt ?? null,
        createdAt,
      };
    }),
    (data) => tx.apiKey.createManyAndReturn({ data, select: { id: true } }),
  );
  keys.forEach(({ spec, a, key }, k) => {
    maps[a]!.apiKeys[spec.ref] = { id: idAt(keyIds, k), key };
  });

  const sites = accounts.flatMap((account, a) =>
    (account.sites ?? []).map((spec) => ({ spec, a, siteKey: generateSiteKey(), token: spec.verificationToken ?? generateVerificationToken() })),
  );
  const siteIds = await insertAll(
    sites.map(({ spec, a, siteKey, token }) => {
      const times = stamps(spec, now);
      const verified = spec.verified ?? false;
      return {
        accountId: idAt(accountIds, a),
        hostname: spec.domain,
        environment: spec.environment ?? 'production',
        archivedAt: spec.archived ? times.updatedAt : null,
        siteKeyHash: hasher.hash(siteKey),
        verificationToken: token,
        verified,
        method: spec.method ?? null,
        // A verified site always has a verification time; an explicit one (or null) wins.
        verifiedAt: spec.verifiedAt !== undefined ? spec.verifiedAt : verified ? times.createdAt : null,
        lastCheckedAt: spec.lastCheckedAt ?? null,
        failedChecks: spec.failedChecks ?? 0,
        ...times,
      };
    }),
    (data) => tx.site.createManyAndReturn({ data, select: { id: true } }),
  );
  sites.forEach(({ spec, a, siteKey, token }, s) => {
    maps[a]!.sites[spec.ref] = { id: idAt(siteIds, s), siteKey, verificationToken: token };
  });

  // Forms: those of each site, then the account's legacy ones (no site).
  const forms: { spec: ParsedForm; a: number; siteId: number | null }[] = [];
  accounts.forEach((account, a) => {
    (account.sites ?? []).forEach((site) => {
      const siteId = maps[a]!.sites[site.ref]!.id;
      for (const spec of site.forms ?? []) forms.push({ spec, a, siteId });
    });
    for (const spec of account.legacyForms ?? []) forms.push({ spec, a, siteId: null });
  });
  const formIds = await insertAll(
    forms.map(({ spec, a, siteId }) => {
      const times = stamps(spec, now);
      return {
        accountId: idAt(accountIds, a),
        siteId,
        name: spec.name,
        type: spec.type === 'multi-step' || spec.type === 'multi_step' ? ('multi_step' as const) : ('standard' as const),
        fields: (spec.fields ?? []).map(json),
        webhookUrl: spec.webhookUrl ?? null,
        phi: spec.phi ?? false,
        archivedAt: spec.archived ? times.updatedAt : null,
        // The counter the service keeps instead of counting rows (decisions §5 "counts").
        submissionCount: spec.submissions?.length ?? 0,
        ...times,
      };
    }),
    (data) => tx.form.createManyAndReturn({ data, select: { id: true } }),
  );
  forms.forEach(({ spec, a }, f) => {
    maps[a]!.forms[spec.ref] = { id: idAt(formIds, f), submissionIds: [] };
  });

  const submissions = forms.flatMap(({ spec, a }, f) => (spec.submissions ?? []).map((sub) => ({ sub, form: spec, a, f })));
  const submissionIds = await insertAll(
    submissions.map(({ sub, form, a, f }) => {
      if (form.phi && !options.sealFormData) throw new Error('Submissions of PHI forms are stored encrypted: pass sealFormData');
      const sealed = form.phi && options.sealFormData ? options.sealFormData(json(sub.formData)) : null;
      return {
        accountId: idAt(accountIds, a),
        formId: idAt(formIds, f),
        formData: sealed ? Prisma.DbNull : json(sub.formData),
        formDataCiphertext: sealed ? sealed.ciphertext : null,
        formDataKeyId: sealed ? sealed.keyId : null,
        sourceDomain: sub.sourceDomain ?? null,
        createdAt: stamps(sub, now).createdAt,
      };
    }),
    (data) => tx.submission.createManyAndReturn({ data, select: { id: true } }),
  );
  submissions.forEach(({ form, a }, i) => {
    maps[a]!.forms[form.ref]!.submissionIds.push(idAt(submissionIds, i));
  });

  // Calendar widgets and their bookings.
  const calendars = accounts.flatMap((account, a) =>
    (account.sites ?? []).flatMap((site) => (site.calendarWidgets ?? []).map((spec) => ({ spec, a, siteId: maps[a]!.sites[site.ref]!.id }))),
  );
  const calendarIds = await insertAll(
    calendars.map(({ spec, a, siteId }) => {
      const times = stamps(spec, now);
      return {
        accountId: idAt(accountIds, a),
        siteId,
        name: spec.name,
        settings: json(spec.settings ?? {}),
        appearance: json(spec.appearance ?? {}),
        behavior: json(spec.behavior ?? {}),
        archivedAt: spec.archived ? times.updatedAt : null,
        bookingCount: spec.bookings?.length ?? 0,
        ...times,
      };
    }),
    (data) => tx.calendarWidget.createManyAndReturn({ data, select: { id: true } }),
  );
  calendars.forEach(({ spec, a }, c) => {
    maps[a]!.calendarWidgets[spec.ref] = { id: idAt(calendarIds, c), bookingIds: [] };
  });
  const bookings = calendars.flatMap(({ spec, a }, c) => (spec.bookings ?? []).map((booking) => ({ booking, widget: spec, a, c })));
  const bookingIds = await insertAll(
    bookings.map(({ booking, a, c }) => ({
      accountId: idAt(accountIds, a),
      calendarWidgetId: idAt(calendarIds, c),
      inviteeName: booking.inviteeName,
      inviteeEmail: booking.inviteeEmail,
      slotIso: booking.slotIso,
      slotDisplay: booking.slotDisplay,
      inviteeTimezone: booking.inviteeTimezone,
      status: booking.status,
      customFields: json(booking.customFields ?? {}),
      videoCallUrl: booking.videoCallUrl ?? null,
      cancellationToken: booking.cancellationToken ?? null,
      providerEventId: booking.providerEventId ?? null,
      assignedHost: booking.assignedHost ?? null,
      createdAt: stamps(booking, now).createdAt,
    })),
    (data) => tx.booking.createManyAndReturn({ data, select: { id: true } }),
  );
  bookings.forEach(({ widget, a }, i) => {
    maps[a]!.calendarWidgets[widget.ref]!.bookingIds.push(idAt(bookingIds, i));
  });

  // Shop widgets and collections, then all their orders in one statement.
  const shops = accounts.flatMap((account, a) =>
    (account.sites ?? []).flatMap((site) => (site.ecommerceWidgets ?? []).map((spec) => ({ spec, a, siteId: maps[a]!.sites[site.ref]!.id }))),
  );
  const shopIds = await insertAll(
    shops.map(({ spec, a, siteId }) => {
      const times = stamps(spec, now);
      return {
        accountId: idAt(accountIds, a),
        siteId,
        name: spec.name,
        type: spec.type,
        productName: spec.productName,
        description: spec.description ?? null,
        priceCents: spec.priceCents ?? null,
        currency: spec.currency,
        fulfilmentType: spec.fulfilmentType,
        imageUrl: spec.imageUrl ?? null,
        imageUrls: spec.imageUrls ?? [],
        interval: spec.interval ?? null,
        trialDays: spec.trialDays ?? null,
        providerPriceId: spec.providerPriceId ?? null,
        downloadUrl: spec.downloadUrl ?? null,
        archivedAt: spec.archived ? times.updatedAt : null,
        // Widget-mode orders only: cart orders belong to a collection, not to a widget.
        orderCount: spec.orders?.length ?? 0,
        ...times,
      };
    }),
    (data) => tx.ecommerceWidget.createManyAndReturn({ data, select: { id: true } }),
  );
  shops.forEach(({ spec, a }, w) => {
    maps[a]!.ecommerceWidgets[spec.ref] = { id: idAt(shopIds, w), orderIds: [] };
  });
  const collections = accounts.flatMap((account, a) =>
    (account.sites ?? []).flatMap((site) => (site.collections ?? []).map((spec) => ({ spec, a, siteId: maps[a]!.sites[site.ref]!.id }))),
  );
  const collectionIds = await insertAll(
    collections.map(({ spec, a, siteId }) => ({ accountId: idAt(accountIds, a), siteId, name: spec.name, ...stamps(spec, now) })),
    (data) => tx.collection.createManyAndReturn({ data, select: { id: true } }),
  );
  collections.forEach(({ spec, a }, c) => {
    maps[a]!.collections[spec.ref] = { id: idAt(collectionIds, c), orderIds: [] };
  });

  const orders: { order: ParsedOrder; a: number; widgetId: number | null; collectionId: number | null; ids: number[] }[] = [
    ...shops.flatMap(({ spec, a }, w) =>
      (spec.orders ?? []).map((order) => ({ order, a, widgetId: idAt(shopIds, w), collectionId: null, ids: maps[a]!.ecommerceWidgets[spec.ref]!.orderIds })),
    ),
    ...collections.flatMap(({ spec, a }, c) =>
      (spec.orders ?? []).map((order) => ({ order, a, widgetId: null, collectionId: idAt(collectionIds, c), ids: maps[a]!.collections[spec.ref]!.orderIds })),
    ),
  ];
  const orderIds = await insertAll(
    orders.map(({ order, a, widgetId, collectionId }) => {
      return {
        accountId: idAt(accountIds, a),
        ecommerceWidgetId: widgetId,
        collectionId,
        customerName: order.customerName ?? null,
        customerEmail: order.customerEmail,
        customerPhone: order.customerPhone ?? null,
        amountCents: order.amountCents,
        currency: order.currency,
        status: order.status,
        shippingAddress: order.shippingAddress ? json(order.shippingAddress) : Prisma.DbNull,
        trackingNumber: order.trackingNumber ?? null,
        trackingCarrier: order.trackingCarrier ?? null,
        shippedAt: order.shippedAt ?? null,
        providerPaymentId: order.providerPaymentId ?? null,
        downloadToken: order.downloadToken ?? null,
        createdAt: stamps(order, now).createdAt,
      };
    }),
    (data) => tx.order.createManyAndReturn({ data, select: { id: true } }),
  );
  orders.forEach(({ ids }, i) => ids.push(idAt(orderIds, i)));

  return result;
}
