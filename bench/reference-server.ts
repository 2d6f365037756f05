import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import pg from 'pg';
import { isWellFormedApiKey, KeyHasher } from '../src/infra/secrets.js';

/**
 * The references the gateway is measured against, each a child process of its own (REF_MODE):
 * - `bare`: node:http answering the gateway's own pre-serialized bytes: the ceiling for Node here.
 * - `handwritten`: node:http + pg as one would write it by hand: key lookup per request, the page, the
 *   total, and a `count(*) … GROUP BY` of submissions for the page's forms on every request.
 * - `handwritten-counters`: the same, reading the counters maintained at ingest (what an expert writes).
 * Both hand-written modes also answer POST /v1/forms/{id}/submissions: validation, idempotency record,
 * submission, counter and an outbox row in one transaction.
 * - `dashboard`: POST /graphql for the one dashboard document only (bench/stages/dashboard.ts): key lookup, the
 *   forms page, then the newest submissions of all its forms in one lateral statement (PHI reads audited),
 *   written as the same JSON bytes the gateway answers.
 * They honour the contract's observable parts (auth, plan gate, rate-limit headers, scopes, pagination)
 * so that the comparison is with a handler doing the same job, not a shortcut.
 */

type Mode = 'bare' | 'handwritten' | 'handwritten-counters' | 'dashboard';

const mode = process.env.REF_MODE as Mode;
if (!['bare', 'handwritten', 'handwritten-counters', 'dashboard'].includes(mode)) throw new Error(`REF_MODE must be bare|handwritten|handwritten-counters|dashboard`);

interface Viewer {
  keyId: number;
  accountId: number;
  scopes: string[];
  limit: number;
}

const send = (res: http.ServerResponse, status: number, body: string | Buffer, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
};

const error = (res: http.ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}, extra: Record<string, unknown> = {}): void =>
  send(res, status, JSON.stringify({ error: message, code, ...extra }), headers);

function startBare(): http.Server {
  const file = process.env.REF_BODY_FILE;
  if (!file) throw new Error('REF_BODY_FILE is required in bare mode');
  const body = readFileSync(file);
  return http.createServer((req, res) => {
    req.resume();
    send(res, 200, body);
  });
}

/** `timestamp(3)` text is UTC by Prisma's convention; pg would read it as local time. */
const iso = (text: string): string => new Date(`${text.replace(' ', 'T')}Z`).toISOString();

function startHandwritten(counters: boolean, dashboard = false): http.Server {
  const databaseUrl = process.env.DATABASE_URL;
  const secret = process.env.SECRET_KEY;
  if (!databaseUrl || !secret) throw new Error('DATABASE_URL and SECRET_KEY are required');
  pg.types.setTypeParser(1114, (text: string) => text);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  const hasher = new KeyHasher(Buffer.from(secret, 'base64'));
  const windows = new Map<number, { resetAt: number; used: number }>();

  /** Authenticate → plan gate → rate limit → scope, in the contract's order; null when answered. */
  async function authorize(req: http.IncomingMessage, res: http.ServerResponse, scope: string | string[]): Promise<{ viewer: Viewer; headers: Record<string, string> } | null> {
    const header = req.headers.authorization ?? '';
    const key = header.startsWith('Bearer ') ? header.slice(7) : '';
    if (!isWellFormedApiKey(key)) {
      error(res, 401, 'invalid_api_key', 'Unauthorized');
      return null;
    }
    const found = await pool.query<{ id: number; accountId: number; scopes: string[]; rateLimitPerHour: number | null; plan: string }>(
      `SELECT k.id, k."accountId", k.scopes, k."rateLimitPerHour", a.plan FROM "ApiKey" k JOIN "Account" a ON a.id = k."accountId"
       WHERE k."keyHash" = $1 AND k."revokedAt" IS NULL AND (k."expiresAt" IS NULL OR k."expiresAt" > now() AT TIME ZONE 'UTC')`,
      [hasher.hash(key)],
    );
    const row = found.rows[0];
    if (!row) {
      error(res, 401, 'invalid_api_key', 'Unauthorized');
      return null;
    }
    if (row.plan === 'free') {
      error(res, 402, 'plan_feature_gated', 'API access needs a paid plan', {}, { feature: 'apiAccess' });
      return null;
    }
    const limit = row.rateLimitPerHour ?? 5000;
    const now = Date.now();
    let window = windows.get(row.id);
    if (!window || window.resetAt <= now) {
      window = { resetAt: now + 3_600_000, used: 0 };
      windows.set(row.id, window);
    }
    const headers: Record<string, string> = {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-reset': String(Math.ceil(window.resetAt / 1000)),
    };
    if (window.used >= limit) {
      const retryAfter = Math.ceil((window.resetAt - now) / 1000);
      error(res, 429, 'rate_limited', 'Rate limit exceeded', { ...headers, 'x-ratelimit-remaining': '0', 'retry-after': String(retryAfter) }, { retryAfter });
      return null;
    }
    window.used++;
    headers['x-ratelimit-remaining'] = String(limit - window.used);
    const missing = (Array.isArray(scope) ? scope : [scope]).find((needed) => !row.scopes.includes(needed));
    if (missing) {
      error(res, 403, 'insufficient_scope', 'Insufficient scope', headers, { required: missing });
      return null;
    }
    return { viewer: { keyId: row.id, accountId: row.accountId, scopes: row.scopes, limit }, headers };
  }

  const WHOLE = /^[1-9][0-9]{0,8}$/;

  async function listForms(req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<void> {
    const auth = await authorize(req, res, 'read:forms');
    if (!auth) return;
    const pageRaw = url.searchParams.get('page') ?? '1';
    const limitRaw = url.searchParams.get('limit') ?? '20';
    if (!WHOLE.test(pageRaw) || Number(pageRaw) > 1_000_000 || !WHOLE.test(limitRaw)) {
      error(res, 400, 'invalid_pagination', 'page must be a whole number from 1 to 1000000 and limit a positive whole number', auth.headers);
      return;
    }
    const page = Number(pageRaw);
    const limit = Math.min(Number(limitRaw), 100);
    const accountId = auth.viewer.accountId;
    // Page and total are independent: run them side by side on two pooled connections.
    const [rows, total] = await Promise.all([
      pool.query<{ id: number; name: string; type: string; siteId: number | null; hostname: string | null; submissionCount: number; createdAt: string; updatedAt: string }>(
        `SELECT f.id, f.name, f.type, s.id AS "siteId", s.hostname, ${counters ? 'f."submissionCount"' : '0 AS "submissionCount"'},
                f."createdAt", f."updatedAt"
         FROM "Form" f LEFT JOIN "Site" s ON s.id = f."siteId"
         WHERE f."accountId" = $1 AND f."archivedAt" IS NULL
         ORDER BY f."createdAt" DESC, f.id DESC LIMIT $2 OFFSET $3`,
        [accountId, limit, (page - 1) * limit],
      ),
      pool.query<{ total: number }>('SELECT count(*)::int AS total FROM "Form" WHERE "accountId" = $1 AND "archivedAt" IS NULL', [accountId]),
    ]);
    const countByForm = new Map<number, number>();
    if (!counters && rows.rows.length > 0) {
      const counted = await pool.query<{ formId: number; count: number }>(
        'SELECT "formId", count(*)::int AS count FROM "Submission" WHERE "formId" = ANY($1::int[]) GROUP BY "formId"',
        [rows.rows.map((row) => row.id)],
      );
      for (const row of counted.rows) countByForm.set(row.formId, row.count);
    }
    const totalCount = total.rows[0]?.total ?? 0;
    const body = JSON.stringify({
      data: rows.rows.map((row) => ({
        id: row.id,
        name: row.name,
        type: row.type,
        domain: row.siteId === null ? null : { id: row.siteId, domain: row.hostname },
        createdAt: iso(row.createdAt),
        updatedAt: iso(row.updatedAt),
        // Key order as the gateway writes it, so that all three answers are byte-identical.
        submissionCount: counters ? row.submissionCount : (countByForm.get(row.id) ?? 0),
      })),
      pagination: { page, limit, total: totalCount, pages: Math.ceil(totalCount / limit) },
    });
    send(res, 200, body, auth.headers);
  }

  const readBody = (req: http.IncomingMessage): Promise<string> =>
    new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      req.on('error', reject);
    });

  async function ingest(req: http.IncomingMessage, res: http.ServerResponse, formIdRaw: string, path: string): Promise<void> {
    const auth = await authorize(req, res, 'write:submissions');
    if (!auth) return;
    const raw = await readBody(req);
    if (!WHOLE.test(formIdRaw)) {
      error(res, 400, 'invalid_id', 'The id in the path must be a positive integer', auth.headers);
      return;
    }
    const idempotencyKey = req.headers['idempotency-key'];
    if (typeof idempotencyKey === 'string' && !/^[\x21-\x7e]{1,256}$/.test(idempotencyKey)) {
      error(res, 400, 'invalid_idempotency_key', 'Idempotency-Key must be 1 to 256 visible ASCII characters', auth.headers);
      return;
    }
    let formData: unknown;
    try {
      formData = (JSON.parse(raw) as { formData?: unknown }).formData;
    } catch {
      error(res, 400, 'invalid_json', 'The request body is not valid JSON', auth.headers);
      return;
    }
    if (typeof formData !== 'object' || formData === null || Array.isArray(formData)) {
      error(res, 400, 'validation_failed', 'The request is invalid', auth.headers, { fields: [{ field: 'formData', message: 'must be an object' }] });
      return;
    }
    const keys = Object.keys(formData).length;
    if (keys > 50) {
      error(res, 400, 'too_many_fields', 'formData has too many fields', auth.headers, { cap: 50, used: keys });
      return;
    }
    const serialized = JSON.stringify(formData);
    const size = Buffer.byteLength(serialized);
    if (size > 51_200) {
      error(res, 413, 'payload_too_large', 'formData is too large', auth.headers, { cap: 51_200, used: size });
      return;
    }
    const accountId = auth.viewer.accountId;
    const formId = Number(formIdRaw);
    const fingerprint = createHash('sha256').update(`POST ${path}\n${raw}`).digest('hex');
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      let recordId: number | null = null;
      if (typeof idempotencyKey === 'string') {
        // A concurrent twin blocks on the unique index until this commits, then replays.
        const inserted = await client.query<{ id: number }>(
          `INSERT INTO "IdempotencyRecord" ("accountId", key, fingerprint, "expiresAt")
           VALUES ($1, $2, $3, now() AT TIME ZONE 'UTC' + interval '24 hours')
           ON CONFLICT ("accountId", key) DO NOTHING RETURNING id`,
          [accountId, idempotencyKey, fingerprint],
        );
        recordId = inserted.rows[0]?.id ?? null;
        if (recordId === null) {
          await client.query('ROLLBACK');
          await replay(res, auth.headers, accountId, idempotencyKey, fingerprint);
          return;
        }
      }
      const form = await client.query<{ archivedAt: string | null }>(
        `UPDATE "Form" SET "submissionCount" = "submissionCount" + CASE WHEN "archivedAt" IS NULL THEN 1 ELSE 0 END
         WHERE id = $1 AND "accountId" = $2 RETURNING "archivedAt"`,
        [formId, accountId],
      );
      const found = form.rows[0];
      if (!found || found.archivedAt !== null) {
        await client.query('ROLLBACK');
        if (found) error(res, 409, 'form_archived', 'The form is archived', auth.headers);
        else error(res, 404, 'not_found', 'Not found', auth.headers, { resource: 'form' });
        return;
      }
      const created = await client.query<{ id: number; createdAt: string }>(
        // With its day's count (FormSubmissionDay), as the gateway keeps it, in the same statement.
        `WITH created AS (
           INSERT INTO "Submission" ("accountId", "formId", "formData", "sourceDomain", "createdAt")
           VALUES ($1, $2, $3::jsonb, NULL, now() AT TIME ZONE 'UTC') RETURNING id, "createdAt"
         ), counted AS (
           INSERT INTO "FormSubmissionDay" ("formId", "day", "count") SELECT $2, date_trunc('day', "createdAt"), 1 FROM created
           ON CONFLICT ("formId", "day") DO UPDATE SET "count" = "FormSubmissionDay"."count" + 1
         )
         SELECT id, "createdAt" FROM created`,
        [accountId, formId, serialized],
      );
      const row = created.rows[0]!;
      const submission = { id: row.id, formId, formData, sourceDomain: null, createdAt: iso(row.createdAt) };
      const body = JSON.stringify(submission);
      await client.query('INSERT INTO "BenchOutbox" (type, payload) VALUES ($1, $2::jsonb)', ['submission.created', body]);
      if (recordId !== null) {
        await client.query(`UPDATE "IdempotencyRecord" SET "submissionId" = $1, "completedAt" = now() AT TIME ZONE 'UTC' WHERE id = $2`, [row.id, recordId]);
      }
      await client.query('COMMIT');
      send(res, 201, body, auth.headers);
    } catch (cause) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw cause;
    } finally {
      client.release();
    }
  }

  async function replay(res: http.ServerResponse, headers: Record<string, string>, accountId: number, key: string, fingerprint: string): Promise<void> {
    const found = await pool.query<{ fingerprint: string; submissionId: number | null; formId: number; formData: unknown; createdAt: string }>(
      `SELECT r.fingerprint, r."submissionId", s."formId", s."formData", s."createdAt"
       FROM "IdempotencyRecord" r LEFT JOIN "Submission" s ON s.id = r."submissionId" WHERE r."accountId" = $1 AND r.key = $2`,
      [accountId, key],
    );
    const row = found.rows[0];
    if (!row || row.fingerprint !== fingerprint) {
      error(res, 422, 'idempotency_key_reused', 'This Idempotency-Key was used with a different request', headers);
      return;
    }
    if (row.submissionId === null) {
      error(res, 409, 'idempotency_in_progress', 'A request with this Idempotency-Key is still in progress', { ...headers, 'retry-after': '1' });
      return;
    }
    const body = JSON.stringify({ id: row.submissionId, formId: row.formId, formData: row.formData, sourceDomain: null, createdAt: iso(row.createdAt) });
    send(res, 200, body, { ...headers, 'idempotent-replayed': 'true' });
  }

  /**
   * The dashboard (bench/stages/dashboard.ts) as one would write it by hand: the document is known (REF_DASHBOARD_QUERY),
   * so the handler checks the body carries it and runs its three statements (key, forms page, newest submissions of the page).
   * Errors use the REST envelope: only the 200 is compared with the gateway's.
   */
  const dashboardDocument = process.env.REF_DASHBOARD_QUERY;
  if (dashboard && !dashboardDocument) throw new Error('REF_DASHBOARD_QUERY is required in dashboard mode');

  async function dashboardQuery(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const raw = await readBody(req);
    let query: unknown;
    try {
      query = (JSON.parse(raw) as { query?: unknown }).query;
    } catch {
      error(res, 400, 'invalid_json', 'The request body is not valid JSON');
      return;
    }
    if (query !== dashboardDocument) {
      error(res, 400, 'unknown_query', 'Only the dashboard query is served here');
      return;
    }
    const auth = await authorize(req, res, ['read:forms', 'read:submissions']);
    if (!auth) return;
    const forms = await pool.query<{ id: number; name: string; submissionCount: number }>(
      `SELECT id, name, "submissionCount" FROM "Form" WHERE "accountId" = $1 AND "archivedAt" IS NULL
       ORDER BY "createdAt" DESC, id DESC LIMIT 100`,
      [auth.viewer.accountId],
    );
    const ids = forms.rows.map((form) => form.id);
    const latest = await pool.query<{ id: number; formId: number; createdAt: string; formDataKeyId: number | null }>(
      `SELECT s.id, s."formId", s."createdAt", s."formDataKeyId" FROM unnest($1::int[]) AS f(id)
       CROSS JOIN LATERAL (
         SELECT id, "formId", "createdAt", "formDataKeyId" FROM "Submission" WHERE "formId" = f.id ORDER BY "createdAt" DESC, id DESC LIMIT 5
       ) AS s`,
      [ids],
    );
    const phi = latest.rows.filter((row) => row.formDataKeyId !== null).map((row) => row.id);
    if (phi.length) {
      await pool.query(
        `INSERT INTO "AuditEvent" ("accountId", "apiKeyId", action, resource, "resourceId")
         SELECT $1, $2, 'submission.read', 'submission', unnest($3::int[])`,
        [auth.viewer.accountId, auth.viewer.keyId, phi],
      );
    }
    const byForm = new Map<number, { id: number; createdAt: string }[]>(ids.map((id) => [id, []]));
    for (const row of latest.rows) byForm.get(row.formId)?.push({ id: row.id, createdAt: iso(row.createdAt) });
    const body = JSON.stringify({
      data: { forms: { data: forms.rows.map((form) => ({ id: form.id, name: form.name, submissionCount: form.submissionCount, latestSubmissions: byForm.get(form.id) })) } },
    });
    send(res, 200, body, auth.headers);
  }

  const INGEST = /^\/v1\/forms\/([^/]+)\/submissions$/;
  return http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    let handled: Promise<void> | null = null;
    if (dashboard) {
      if (req.method === 'POST' && url.pathname === '/graphql') handled = dashboardQuery(req, res);
    } else if (req.method === 'GET' && url.pathname === '/v1/forms') handled = listForms(req, res, url);
    else if (req.method === 'POST') {
      const match = INGEST.exec(url.pathname);
      if (match) handled = ingest(req, res, match[1]!, url.pathname);
    }
    if (!handled) {
      req.resume();
      error(res, 404, 'not_found', 'Not found');
      return;
    }
    handled.catch((cause: unknown) => {
      process.stderr.write(`reference ${mode}: ${(cause as Error).message}\n`);
      if (!res.headersSent) error(res, 500, 'internal_error', 'Internal server error');
    });
  });
}

const server = mode === 'bare' ? startBare() : startHandwritten(mode === 'handwritten-counters', mode === 'dashboard');
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address !== 'string') process.stdout.write(`listening ${address.port}\n`);
});
const stop = (): void => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
