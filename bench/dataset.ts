import pg from 'pg';
import { openDatabase } from '../src/infra/db.js';
import { issueApiKey } from '../src/domain/accounts/api-keys.service.js';
import { migrate } from '../src/infra/migrations.js';
import { generateSiteKey, generateVerificationToken, generateWebhookSecret, KeyHasher } from '../src/infra/secrets.js';
import { SCOPES } from '../src/scopes.js';

/**
 * The benchmark dataset, written with set-based SQL (INSERT … SELECT generate_series) so that a million
 * submissions take seconds. Counter columns are recomputed exactly after every load: the service reads
 * counts from them, so a stale counter would make the gateway answer something the references do not.
 */

/** BENCH_DB=wg_bench_<suffix> lets two benches share one server without dropping each other's data. */
export const BENCH_DB = process.env.BENCH_DB ?? 'wg_bench';
if (!/^wg_bench[a-z0-9_]*$/.test(BENCH_DB)) throw new Error(`BENCH_DB must start with wg_bench and hold only a-z, 0-9 and _: ${BENCH_DB}`);
export const FORMS = 100;
export const CALENDARS = 50;
export const BOOKINGS = 20_000;
export const SHOP_WIDGETS = 50;
export const ORDERS = 20_000;
/** Large enough that the hourly budget never answers 429 during a run; still a valid INTEGER. */
export const BENCH_RATE_LIMIT = 2_000_000_000;

export interface BenchDataset {
  url: string;
  apiKey: string;
  accountId: number;
  formIds: number[];
  orderIds: number[];
  calendarIds: number[];
}

/** The same server as `serverUrl`, database `name`. */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Drops and recreates a bench database (`wg_bench…` only), migrated, so every run starts from the same state. */
export async function recreateDatabase(serverUrl: string, name: string): Promise<string> {
  if (!/^wg_bench[a-z0-9_]*$/.test(name)) throw new Error(`not a bench database name: ${name}`);
  await dropDatabase(serverUrl, name);
  await withClient(databaseUrl(serverUrl, 'postgres'), (admin) => admin.query(`CREATE DATABASE ${name}`));
  const url = databaseUrl(serverUrl, name);
  const db = await openDatabase({ databaseUrl: url, dataDir: '' });
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
  return url;
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  if (!/^wg_bench[a-z0-9_]*$/.test(name)) throw new Error(`not a bench database name: ${name}`);
  await withClient(databaseUrl(serverUrl, 'postgres'), (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

/** Timestamps are `timestamp(3)` holding UTC (Prisma's convention), whatever the session time zone. */
const NOW_UTC = `(now() AT TIME ZONE 'UTC')`;

const FORM_FIELDS = JSON.stringify([
  { id: 'name', type: 'text', label: 'Name' },
  { id: 'email', type: 'email', label: 'Email' },
  { id: 'message', type: 'textarea', label: 'Message' },
]);

/**
 * Everything but the submissions: 1 pro account, 1 verified production site, 100 forms (each with a
 * webhookUrl, so each submission has a webhook to fan out to), 50 calendars with 20k bookings, 50 shop widgets with
 * 20k orders, one API key with every scope, and the hand-written reference's outbox table.
 */
export async function seedBase(url: string, secretKey: Buffer): Promise<BenchDataset> {
  const hasher = new KeyHasher(secretKey);
  const ids = await withClient(url, async (client) => {
    await client.query('BEGIN');
    const account = await client.query<{ id: number }>(
      `INSERT INTO "Account" (name, kind, plan, "ownerEmail", "webhookSigningSecret", "updatedAt")
       VALUES ('Bench Co', 'organization', 'pro', 'owner@bench.example', $1, ${NOW_UTC}) RETURNING id`,
      [generateWebhookSecret()],
    );
    const accountId = account.rows[0]!.id;
    const site = await client.query<{ id: number }>(
      `INSERT INTO "Site" ("accountId", hostname, environment, "siteKeyHash", "verificationToken", verified, method,
         "verifiedAt", "lastCheckedAt", "updatedAt")
       VALUES ($1, 'bench.example.com', 'production', $2, $3, true, 'dns_txt', ${NOW_UTC}, ${NOW_UTC}, ${NOW_UTC})
       RETURNING id`,
      [accountId, hasher.hash(generateSiteKey()), generateVerificationToken()],
    );
    const siteId = site.rows[0]!.id;
    const forms = await client.query<{ id: number }>(
      `INSERT INTO "Form" ("accountId", "siteId", name, type, fields, "webhookUrl", "createdAt", "updatedAt")
       SELECT $1, $2, 'Form ' || lpad(g::text, 3, '0'),
              (CASE WHEN g % 5 = 0 THEN 'multi-step' ELSE 'standard' END)::"FormType",
              $3::jsonb, 'https://hooks.bench.example/forms/' || g,
              ${NOW_UTC} - make_interval(days => g), ${NOW_UTC} - make_interval(hours => g)
       FROM generate_series(1, ${FORMS}) AS g
       RETURNING id`,
      [accountId, siteId, FORM_FIELDS],
    );
    const calendars = await client.query<{ id: number }>(
      `INSERT INTO "CalendarWidget" ("accountId", "siteId", name, settings, appearance, behavior, "createdAt", "updatedAt")
       SELECT $1, $2, 'Calendar ' || g, '{"durationMinutes":30}'::jsonb, '{"theme":"light"}'::jsonb,
              '{"bufferMinutes":5}'::jsonb, ${NOW_UTC} - make_interval(days => g), ${NOW_UTC}
       FROM generate_series(1, ${CALENDARS}) AS g
       RETURNING id`,
      [accountId, siteId],
    );
    const calendarIds = calendars.rows.map((row) => row.id);
    await client.query(
      `INSERT INTO "Booking" ("accountId", "calendarWidgetId", "inviteeName", "inviteeEmail", "slotIso", "slotDisplay",
         "inviteeTimezone", status, "customFields", "videoCallUrl", "createdAt")
       SELECT $1, ($2::int[])[1 + g % ${CALENDARS}], 'Invitee ' || g, 'invitee' || g || '@bench.example',
              to_char(${NOW_UTC} + make_interval(hours => g), 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
              to_char(${NOW_UTC} + make_interval(hours => g), 'Dy DD Mon YYYY HH24:MI'),
              'Europe/Paris', (ARRAY['scheduled','cancelled','no_show','completed','failed'])[1 + g % 5]::"BookingStatus",
              jsonb_build_object('company', 'Co ' || g), 'https://meet.bench.example/' || g,
              ${NOW_UTC} - make_interval(mins => g)
       FROM generate_series(1, ${BOOKINGS}) AS g`,
      [accountId, calendarIds],
    );
    const shops = await client.query<{ id: number }>(
      `INSERT INTO "EcommerceWidget" ("accountId", "siteId", name, type, "productName", description, "priceCents", currency,
         "fulfilmentType", "imageUrl", "imageUrls", interval, "trialDays", "createdAt", "updatedAt")
       SELECT $1, $2, 'Shop ' || g, (ARRAY['one_time','subscription','donation'])[1 + g % 3]::"ShopWidgetType",
              'Product ' || g, 'A product for the benchmark', 100 * g, 'usd',
              (ARRAY['digital','service','physical'])[1 + g % 3]::"FulfilmentType",
              'https://img.bench.example/' || g || '.png', ARRAY['https://img.bench.example/' || g || '.png'],
              CASE WHEN g % 3 = 1 THEN 'month'::"BillingInterval" END, CASE WHEN g % 3 = 1 THEN 14 END,
              ${NOW_UTC} - make_interval(days => g), ${NOW_UTC}
       FROM generate_series(1, ${SHOP_WIDGETS}) AS g
       RETURNING id`,
      [accountId, siteId],
    );
    const shopIds = shops.rows.map((row) => row.id);
    const orders = await client.query<{ id: number }>(
      `INSERT INTO "Order" ("accountId", "ecommerceWidgetId", "customerName", "customerEmail", "customerPhone", "amountCents",
         currency, status, "shippingAddress", "trackingNumber", "trackingCarrier", "shippedAt", "createdAt")
       SELECT $1, ($2::int[])[1 + g % ${SHOP_WIDGETS}], 'Customer ' || g, 'customer' || g || '@bench.example',
              '+3312345' || lpad((g % 10000)::text, 4, '0'), 500 + g % 10000, 'usd',
              (ARRAY['paid','shipped','refunded','failed'])[1 + g % 4]::"OrderStatus",
              CASE WHEN g % 4 = 1 THEN jsonb_build_object('line1', g || ' Bench Street', 'city', 'Paris', 'country', 'FR') END,
              CASE WHEN g % 4 = 1 THEN 'TRK' || g END, CASE WHEN g % 4 = 1 THEN 'ups' END,
              CASE WHEN g % 4 = 1 THEN ${NOW_UTC} - make_interval(mins => g) END,
              ${NOW_UTC} - make_interval(mins => 2 * g)
       FROM generate_series(1, ${ORDERS}) AS g
       RETURNING id`,
      [accountId, shopIds],
    );
    await client.query(
      `UPDATE "CalendarWidget" c SET "bookingCount" = n.count
       FROM (SELECT "calendarWidgetId" AS id, count(*)::int AS count FROM "Booking" GROUP BY 1) n WHERE c.id = n.id`,
    );
    await client.query(
      `UPDATE "EcommerceWidget" e SET "orderCount" = n.count
       FROM (SELECT "ecommerceWidgetId" AS id, count(*)::int AS count FROM "Order" GROUP BY 1) n WHERE e.id = n.id`,
    );
    // The hand-written ingest reference writes its jobs here (one row per event, fanned out by a worker).
    await client.query(
      `CREATE TABLE IF NOT EXISTS "BenchOutbox" (id bigserial PRIMARY KEY, type text NOT NULL, payload jsonb NOT NULL,
         "createdAt" timestamp(3) NOT NULL DEFAULT (now() AT TIME ZONE 'UTC'))`,
    );
    await client.query('COMMIT');
    return { accountId, calendarIds, formIds: forms.rows.map((row) => row.id), orderIds: orders.rows.map((row) => row.id) };
  });

  const db = await openDatabase({ databaseUrl: url, dataDir: '' });
  try {
    const issued = await issueApiKey(db.prisma, hasher, {
      accountId: ids.accountId,
      scopes: [...SCOPES],
      rateLimitPerHour: BENCH_RATE_LIMIT,
      name: 'bench',
    });
    return { url, apiKey: issued.key, ...ids };
  } finally {
    await db.close();
  }
}

/**
 * Adds submissions until the table holds `total` rows (round-robin over the forms, newest ids newest),
 * recomputes every form's exact `submissionCount`, and refreshes statistics and the visibility map so
 * that index-only counts behave as on a settled production table, then checkpoints.
 */
export async function topUpSubmissions(url: string, dataset: BenchDataset, total: number): Promise<{ added: number; ms: number }> {
  const started = performance.now();
  const added = await withClient(url, async (client) => {
    const current = await client.query<{ count: number }>('SELECT count(*)::int AS count FROM "Submission"');
    const have = current.rows[0]!.count;
    if (have >= total) return 0;
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO "Submission" ("accountId", "formId", "formData", "sourceDomain", "createdAt")
       SELECT $1, ($2::int[])[1 + g % ${FORMS}],
              jsonb_build_object('Name', 'Person ' || g, 'Email', 'person' || g || '@bench.example', 'Message', 'Hello from ' || g),
              'bench.example.com',
              -- Older than anything ingested during the run; newer ids are newer rows.
              ${NOW_UTC} - interval '1 day' - make_interval(secs => (10000000 - g) * 3)
       FROM generate_series($3::int + 1, $4::int) AS g`,
      [dataset.accountId, dataset.formIds, have, total],
    );
    await client.query(
      `UPDATE "Form" f SET "submissionCount" = (SELECT count(*) FROM "Submission" s WHERE s."formId" = f.id)`,
    );
    await recountDays(client, dataset.formIds);
    await client.query('COMMIT');
    await client.query('VACUUM ANALYZE "Submission"');
    await client.query('VACUUM ANALYZE "Form"');
    await client.query('VACUUM ANALYZE "FormSubmissionDay"');
    // The load's dirty pages are written now, not by a checkpoint in the middle of whichever run comes next
    // (on two cores that skewed the 1M forms list by up to 20 % in its first slice). Needs superuser; else skipped.
    await client.query('CHECKPOINT').catch(() => undefined);
    return total - have;
  });
  return { added, ms: performance.now() - started };
}

/**
 * Adds submissions to ONE form until it holds `total`, newer ids newer, then recomputes that form's counter and day
 * counts and refreshes statistics like topUpSubmissions. Without `overDays`, each one second older than the next (the
 * export bench: a form of 100k, then 1M rows); with it, spread evenly over the `overDays` days before yesterday (a
 * year of a busy form, for the deep-list stage's windows).
 */
export async function fillForm(url: string, dataset: BenchDataset, formId: number, total: number, overDays?: number): Promise<{ added: number; ms: number }> {
  const started = performance.now();
  const age = overDays === undefined ? `make_interval(secs => 10000000 - g)` : `make_interval(secs => ($4::int - g) * ($5::float8 * 86400 / $4::int))`;
  const added = await withClient(url, async (client) => {
    const current = await client.query<{ count: number }>('SELECT count(*)::int AS count FROM "Submission" WHERE "formId" = $1', [formId]);
    const have = current.rows[0]!.count;
    if (have >= total) return 0;
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO "Submission" ("accountId", "formId", "formData", "sourceDomain", "createdAt")
       SELECT $1, $2,
              jsonb_build_object('Name', 'Person ' || g, 'Email', 'person' || g || '@bench.example', 'Message', 'Hello from ' || g),
              'bench.example.com', ${NOW_UTC} - interval '1 day' - ${age}
       FROM generate_series($3::int + 1, $4::int) AS g`,
      [dataset.accountId, formId, have, total, ...(overDays === undefined ? [] : [overDays])],
    );
    await client.query(`UPDATE "Form" SET "submissionCount" = (SELECT count(*) FROM "Submission" WHERE "formId" = $1) WHERE id = $1`, [formId]);
    await recountDays(client, [formId]);
    await client.query('COMMIT');
    await client.query('VACUUM ANALYZE "Submission"');
    await client.query('VACUUM ANALYZE "FormSubmissionDay"');
    await client.query('CHECKPOINT').catch(() => undefined);
    return total - have;
  });
  return { added, ms: performance.now() - started };
}

/** The forms' day counts (FormSubmissionDay: what window totals sum) recomputed from their rows, as the service keeps them. */
async function recountDays(client: pg.Client, formIds: number[]): Promise<void> {
  await client.query('DELETE FROM "FormSubmissionDay" WHERE "formId" = ANY($1::int[])', [formIds]);
  await client.query(
    `INSERT INTO "FormSubmissionDay" ("formId", "day", "count")
     SELECT "formId", date_trunc('day', "createdAt"), count(*)::int FROM "Submission" WHERE "formId" = ANY($1::int[]) GROUP BY 1, 2`,
    [formIds],
  );
}

/** The counters (and the forms' day counts) must equal the rows: a check the report carries, since the service trusts the counters. */
export async function countersExact(url: string): Promise<boolean> {
  return withClient(url, async (client) => {
    const result = await client.query<{ bad: number }>(
      `SELECT (SELECT count(*) FROM "Form" f WHERE f."submissionCount" <> (SELECT count(*) FROM "Submission" s WHERE s."formId" = f.id))
            + (SELECT count(*) FROM "CalendarWidget" c WHERE c."bookingCount" <> (SELECT count(*) FROM "Booking" b WHERE b."calendarWidgetId" = c.id))
            + (SELECT count(*) FROM "EcommerceWidget" e WHERE e."orderCount" <> (SELECT count(*) FROM "Order" o WHERE o."ecommerceWidgetId" = e.id))
            + (SELECT count(*) FROM (SELECT "formId", date_trunc('day', "createdAt") AS "day", count(*)::int AS "count" FROM "Submission" GROUP BY 1, 2) s
                 FULL JOIN (SELECT * FROM "FormSubmissionDay" WHERE "count" <> 0) d USING ("formId", "day") WHERE s."count" IS DISTINCT FROM d."count")
            AS bad`,
    );
    return Number(result.rows[0]!.bad) === 0;
  });
}

export async function submissionTotal(url: string): Promise<number> {
  return withClient(url, async (client) => {
    const result = await client.query<{ count: number }>('SELECT count(*)::int AS count FROM "Submission"');
    return result.rows[0]!.count;
  });
}

/** Runs one query on the bench database (the driver's checks: jobs enqueued, versions). */
export async function queryOne<Row extends Record<string, unknown>>(url: string, sql: string, params: unknown[] = []): Promise<Row | undefined> {
  return withClient(url, async (client) => (await client.query<Row>(sql, params)).rows[0]);
}
