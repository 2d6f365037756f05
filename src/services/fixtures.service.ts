import { Prisma, type PrismaClient } from '../generated/prisma/client.js';
import { READ_SCOPES } from '../scopes.js';
import { parseFixture, type ImportedAccount, type ImportOptions, type ImportResult, type ParsedFixture, type ParsedForm, type ParsedOrder } from './fixture-format.js';
import { generateApiKey, generateSiteKey, generateVerificationToken, generateWebhookSecret, type KeyHasher } from './secrets.service.js';

export * from './fixture-format.js';

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
  fixture: ParsedFixture,
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
