import { get, type IncomingMessage } from 'node:http';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawStatement, sql } from '../../src/infra/sql.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { closeHttpServer, serveOnLoopback } from '../support/http-server.js';
import { seedAccount } from '../support/seed.js';
import { waitFor } from '../webhooks/support.js';

/**
 * Over a real socket: an export is produced only as fast as the client reads it, and a client that goes away
 * mid-export stops it: no further batch is read and no database connection stays busy with it.
 */

const ROWS = 5000;
const BATCHES = ROWS / 500;

let t: TestApp;
let server: Server;
let port: number;
let key: string;
let formId: number;

beforeAll(async () => {
  t = await createTestApp();
  const account = await seedAccount(t.db);
  key = account.apiKeys.full!.key;
  formId = Object.values(account.forms)[0]!.id;
  // ~4 KB a row: 20 MB in all, far more than the socket buffers hold.
  await t.db.sql(rawStatement(sql`
    INSERT INTO "Submission" ("accountId", "formId", "formData", "createdAt")
    SELECT ${account.id}, ${formId}, jsonb_build_object('Name', 'n' || g, 'Notes', repeat('x', 4000)), timestamp '2026-01-01' + (g || ' ms')::interval
    FROM generate_series(1, ${ROWS}) g`));
  ({ server, port } = await serveOnLoopback(t.app));
});
afterAll(async () => {
  await closeHttpServer(server);
  await t.close();
});

const batchReads = () => t.db.queries.filter((sql) => sql.includes('from "Submission" as "s"') && sql.includes('order by "s"."createdAt", "s"."id" limit')).length;

function openExport(): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = get({ host: '127.0.0.1', port, path: `/v1/forms/${formId}/submissions/export`, headers: { authorization: `Bearer ${key}` } }, resolve);
    request.on('error', reject);
  });
}

describe('GET /v1/forms/{id}/submissions/export over a socket', () => {
  it('reads batches only as the client reads, and stops and releases everything when the client disconnects', async () => {
    t.db.resetQueryCount();
    const response = await openExport();
    expect(response.statusCode).toBe(200);
    // Read ~200 KB, then stop reading for a while: the server must wait for us (backpressure).
    let received = 0;
    await new Promise<void>((resolve) => {
      const onData = (chunk: Buffer): void => {
        received += chunk.length;
        if (received > 200_000) {
          response.pause();
          response.off('data', onData);
          resolve();
        }
      };
      response.on('data', onData);
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const whilePaused = batchReads();
    expect(whilePaused).toBeGreaterThanOrEqual(1);
    expect(whilePaused).toBeLessThan(BATCHES);

    response.destroy();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const afterDisconnect = batchReads();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(batchReads()).toBe(afterDisconnect);
    expect(afterDisconnect).toBeLessThan(BATCHES);

    if (t.db.kind === 'postgres') {
      // No connection of this database is still running (or idle inside a transaction for) the export.
      const busy = await waitFor(async () => {
        const rows = await t.db.sql(rawStatement(sql<{ n: number }>`
          SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND (state = 'active' OR state LIKE 'idle in transaction%')
            AND query LIKE '%FROM "Submission" s%'`));
        return rows[0]?.n === 0 ? 'released' : null;
      }, 10_000, 'the export connection to be released');
      expect(busy).toBe('released');
    }
    // The database still serves: a whole export afterwards completes.
    const again = await t.request('GET', `/v1/forms/${formId}/submissions/export?createdFrom=2026-01-01T00:00:04.990Z`, { key });
    expect(again.text.split('\n').filter(Boolean)).toHaveLength(11);
  });
});
