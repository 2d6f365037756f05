import pg from 'pg';
import type { Database } from './db.js';
import { pgClientSql, type SqlExecutor } from './db-driver.js';
import { logger } from './log.js';

export interface ChannelListener {
  /**
   * Statements on the listening connection itself while it is up (PostgreSQL), else null: what a notification wakes
   * up can read at once instead of queueing behind the requests for a connection of the pool.
   */
  executor(): SqlExecutor | null;
  close(): Promise<void>;
}

const RETRY_MIN_MS = 250;
const RETRY_MAX_MS = 10_000;

/**
 * LISTEN on `channel`: `wake` is called on each notification, and also whenever listening (re)starts, since
 * notifications sent while nobody listened are lost: a listener that reconnects must re-read whatever it serves.
 *
 * PostgreSQL: ONE dedicated connection on `directUrl` (never through a transaction-mode pooler, which would lose
 * the LISTEN registration), reconnected with backoff when it drops. PGlite: its in-process notifications.
 */
export async function listenChannel(db: Database, directUrl: string | null, channel: string, wake: () => void): Promise<ChannelListener> {
  if (db.kind === 'pglite') {
    if (!db.pglite) throw new Error('The embedded database does not expose its PGlite instance');
    const unlisten = await db.pglite.listen(channel, () => wake());
    wake();
    return { executor: () => null, close: () => unlisten() };
  }
  if (!directUrl) throw new Error('LISTEN on PostgreSQL needs a direct database URL');

  let closed = false;
  let client: pg.Client | null = null;
  let executor: SqlExecutor | null = null;
  let retryMs = RETRY_MIN_MS;
  let timer: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    if (closed) return;
    const next = new pg.Client({ connectionString: directUrl, application_name: 'widgets-gateway-streams' });
    let failed = false;
    const retry = (error?: unknown): void => {
      if (failed || closed) return;
      failed = true;
      if (client === next) {
        client = null;
        executor = null;
      }
      next.end().catch(() => undefined);
      logger.warn({ error: error instanceof Error ? error.message : 'connection ended', retryInMs: retryMs }, 'stream listener: reconnecting');
      timer = setTimeout(() => void connect(), retryMs);
      retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
    };
    next.on('error', retry);
    next.on('end', () => retry());
    next.on('notification', () => wake());
    try {
      await next.connect();
      await next.query(`LISTEN ${next.escapeIdentifier(channel)}`);
    } catch (error) {
      retry(error);
      return;
    }
    if (closed) {
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    executor = pgClientSql(next);
    retryMs = RETRY_MIN_MS;
    wake();
  };
  await connect();
  return {
    executor: () => executor,
    close: async () => {
      closed = true;
      clearTimeout(timer);
      await client?.end().catch(() => undefined);
    },
  };
}
