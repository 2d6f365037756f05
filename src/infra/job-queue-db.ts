import PgBossDb from 'pg-boss/dist/db.js';
import type pg from 'pg';
import { StatementNames } from './db-driver.js';

type Listen = PgBossDb['listen'];
type ListenHandle = Awaited<ReturnType<Listen>>;

interface Subscriber {
  onNotification(payload: string): void;
  onReconnect(): void;
}

interface Channel {
  subscribers: Set<Subscriber>;
  handle: Promise<ListenHandle>;
}

export interface JobQueueDbOptions {
  /** pg-boss's statements: DATABASE_URL, a pooler's address when one sits in between. */
  connectionString: string;
  /** LISTEN/NOTIFY: straight to PostgreSQL (DIRECT_DATABASE_URL). */
  directConnectionString: string;
  max: number;
  application_name: string;
  /**
   * Prepare pg-boss's statements under a name (the service's own are: db-driver.ts). Off behind a pooler in
   * transaction mode (DATABASE_POOLER), where a name prepared on one server connection is unknown on the next.
   */
  namedStatements: boolean;
}

/**
 * pg-boss's texts are built from its queue names and options (a fetch's batch size is in its text): a few dozen in
 * all. Planning them was most of their cost: its delivery fetch took 0.6-0.75 ms of PostgreSQL CPU unnamed and
 * 0.075-0.1 ms prepared (the email fetch 0.2-0.4 and 0.025-0.125), on a queue the pipeline-cost bench had used.
 */
const jobStatementNames = new StatementNames('wg_jobs', 200);

/**
 * `cached plan must not change result type`: a table under a prepared statement changed its columns since (a newer
 * release's pg-boss migrated its schema while this process runs, and some of its statements return `*`). Nothing
 * ran: PostgreSQL checks before it executes.
 */
const PLAN_RESULT_CHANGED = '0A000';

/**
 * pg-boss's own database access with its LISTEN connection split off: statements go through its pool (a pooler in
 * transaction mode serves them: pg-boss keeps no session state between them, and they are named only without one), the
 * listener goes to PostgreSQL directly, because a pooler in transaction mode hands the session that ran LISTEN to
 * other clients and the registration is lost. pg-boss's own listener code is kept (heartbeat, reconnect, recovery
 * of missed notifications): it runs on a second pg-boss Db whose pool is never used.
 *
 * Listeners of one channel share one connection: pg-boss's own and each concurrent worker's (concurrent-worker.ts)
 * hear the same job-insert channel, so a worker holds one direct connection per channel (the jobs' and the outbox's)
 * instead of one per listener (operator guide, "Connection budget").
 */
export class JobQueueDb extends PgBossDb {
  private readonly direct: PgBossDb;

  private readonly namedStatements: boolean;

  constructor(options: JobQueueDbOptions) {
    const { directConnectionString, namedStatements, ...pooled } = options;
    super(pooled);
    this.namedStatements = namedStatements;
    this.direct = new PgBossDb({ ...pooled, connectionString: directConnectionString, max: 1 });
    // pg-boss listens for 'error' on the Db it is given, not on this inner one: an 'error' event with no listener
    // throws, so a terminated listener connection would end the process instead of reconnecting.
    this.direct.on('error', (error: unknown) => this.emit('error', error));
  }

  /**
   * A statement with parameters goes out prepared under its name (one statement: the extended protocol takes no
   * more); one without, as pg-boss sends it (its set-up scripts hold several statements).
   */
  override async executeSql(text: string, values?: unknown[]): Promise<pg.QueryResult> {
    const name = this.namedStatements && values?.length ? jobStatementNames.of(text) : undefined;
    if (!name) return super.executeSql(text, values);
    try {
      // pg-boss's Db opens its pool in open() and types it private; executeSql is the one place it is shared.
      return await (this as unknown as { pool: pg.Pool }).pool.query({ name, text, values });
    } catch (error) {
      if ((error as { code?: unknown }).code !== PLAN_RESULT_CHANGED) throw error;
      // The name is stale on this process's connections: the text runs unnamed from now on (the next release's
      // process prepares it afresh).
      jobStatementNames.unname(text);
      return super.executeSql(text, values);
    }
  }

  override async open(): Promise<void> {
    await super.open();
    await this.direct.open();
  }

  override async close(): Promise<void> {
    await Promise.all([super.close(), this.direct.close()]);
  }

  private readonly channels = new Map<string, Channel>();

  override async listen(channel: string, onNotification: (payload: string) => void, onReconnect: () => void): Promise<ListenHandle> {
    let shared = this.channels.get(channel);
    if (!shared) {
      const subscribers = new Set<Subscriber>();
      const handle = this.direct.listen(
        channel,
        (payload) => subscribers.forEach((subscriber) => subscriber.onNotification(payload)),
        () => subscribers.forEach((subscriber) => subscriber.onReconnect()),
      );
      const created: Channel = { subscribers, handle };
      shared = created;
      this.channels.set(channel, created);
      // A failed LISTEN is forgotten, so that the next listener tries again.
      handle.catch(() => {
        if (this.channels.get(channel) === created) this.channels.delete(channel);
      });
    }
    const subscriber: Subscriber = { onNotification, onReconnect };
    shared.subscribers.add(subscriber);
    const channelOf = shared;
    try {
      await channelOf.handle;
    } catch (error) {
      channelOf.subscribers.delete(subscriber);
      throw error;
    }
    return {
      close: async () => {
        channelOf.subscribers.delete(subscriber);
        if (channelOf.subscribers.size > 0) return;
        if (this.channels.get(channel) === channelOf) this.channels.delete(channel);
        await (await channelOf.handle).close();
      },
    };
  }
}
