import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import pg from 'pg';
import lockfile from 'proper-lockfile';
import { pgDriverSql, pgliteDriverSql, unavailable, type DriverSql } from './db-driver.js';
import { copyPgliteTemplate } from './db-template.js';
import { trackPool } from './metrics.js';
import { PrismaClient } from '../generated/prisma/client.js';

export type Prisma = PrismaClient;

/** A raw SQL session for what Prisma does not do: migrations, advisory locks, test resets. */
export interface SqlSession {
  exec(script: string): Promise<void>;
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
}

/** Prisma for the model, plus SQL straight on the driver (`sql`, `transaction`) for the hot paths. */
export interface Database extends DriverSql {
  prisma: PrismaClient;
  kind: 'postgres' | 'pglite';
  /**
   * The outbox relay's transactions (which fan the events out) and the queued `event.fanout` jobs'. On PostgreSQL,
   * connections of their own: every delivery waits for the relay, one batch at a time, and on the shared pool it
   * queued behind the requests' and up to DELIVERY_CONCURRENCY deliveries' statements (the worst of a delivery's
   * latency). On PGlite, its one connection.
   */
  pipeline: DriverSql;
  /** The embedded instance (pglite only), for the job queue, which must share it: one process, one PGlite. */
  pglite?: PGlite;
  /** Runs `fn` on one dedicated connection (PGlite has only one). */
  withSession<T>(fn: (session: SqlSession) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** null: the embedded PGlite database under `dataDir`. */
  databaseUrl: string | null;
  /** Where sessions go (`withSession`: migrations, their advisory lock), never through a pooler. Default: databaseUrl. */
  directDatabaseUrl?: string | null;
  /** `transaction`: a pooler in transaction mode sits behind databaseUrl (config.ts), so no statement is named. */
  databasePooler?: 'none' | 'transaction';
  /** The main pool's connections (default 10); Prisma's adapter draws on the same pool. */
  databasePoolSize?: number;
  /**
   * The main pool connects all its connections before openDatabase returns and never closes one for being idle (a
   * gateway's): otherwise the first burst after start, or after 10 s without requests, pays a connection's TCP and
   * startup for each of them while requests wait. Offered 300 ingests/s, a fresh gateway refused 3-9 % of its first
   * 3 s as overloaded, and one idle for 12 s up to 4 %; none with the connections open.
   */
  holdPoolOpen?: boolean;
  /** The relay's and the fan-out jobs' pool (default 2), opened on first use. */
  pipelinePoolSize?: number;
  dataDir: string;
  /** Called once per SQL statement sent, by Prisma or `sql`/`transaction` (tests count them). */
  onQuery?: (sql: string) => void;
  /** Skip the directory lock (a test's private in-memory copy). */
  pglite?: PGlite;
}

export class DataDirLockedError extends Error {
  constructor(readonly dataDir: string, readonly pid: number | null) {
    super(`The embedded database in ${dataDir} is in use by process ${pid ?? '(starting)'} (is the server running?). Stop it first, or set DATABASE_URL.`);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A holder refreshes its lock's mtime every half of this; a lock not refreshed for this long is stale (its holder
 * is gone without the pid check below seeing it, e.g. in another pid namespace) and is taken over.
 */
const LOCK_STALE_MS = 60_000;

const readPid = (file: string): number | null => {
  try {
    return Number(readFileSync(file, 'utf8')) || null;
  } catch {
    return null;
  }
};

/**
 * PGlite lets two processes open one directory and then silently loses writes, so whoever opens it holds an
 * exclusive lock (proper-lockfile: `db.lock`, refreshed while held) and writes its pid beside it (`db.pid`), to
 * name the holder in the error. A lock whose recorded process is gone (a crashed server), or is this process's pid
 * (a restarted container's pid 1), is taken over at once.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const options = { lockfilePath: join(dataDir, 'db.lock'), realpath: false, stale: LOCK_STALE_MS };
  const pidFile = join(dataDir, 'db.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const release = lockfile.lockSync(dataDir, options);
      writeFileSync(pidFile, String(process.pid));
      return () => {
        rmSync(pidFile, { force: true });
        release();
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
      const pid = readPid(pidFile);
      // No pid yet: the holder is between taking the lock and writing it.
      if (pid === null || (pid !== process.pid && isAlive(pid))) throw new DataDirLockedError(dataDir, pid);
      rmSync(options.lockfilePath, { recursive: true, force: true });
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}

export const pgliteDir = (dataDir: string): string => join(dataDir, 'pgdata');

/**
 * PostgreSQL settings of the embedded database beyond PGlite's own. shared_buffers: the default 128 MB sits in
 * PGlite's WebAssembly heap, which PostgreSQL touches whole at start (PGlite alone: 348 MB RSS, 201 MB with 16 MB).
 * 16 MB (2,048 pages) holds a development dataset's hot pages; PGlite's files are real files, so pages beyond it are
 * read back from the OS page cache.
 */
const PGLITE_SETTINGS = ['shared_buffers=16MB'];

/**
 * A query whose connection was lost throws 503 `service_unavailable`, as the SQL driver's statements do
 * (db-driver.ts `unavailable`): the parts of a request on Prisma (sites, webhooks, verification) must not answer 500.
 */
function answeringUnavailable(client: PrismaClient): PrismaClient {
  const extended = client.$extends({
    query: {
      async $allOperations({ args, query }) {
        try {
          return await query(args);
        } catch (error) {
          throw unavailable(error);
        }
      },
    },
  });
  // The extension adds no model or method: the client's type is the same, less the options' generics.
  return extended as unknown as PrismaClient;
}

function createClient(adapter: SqlMigrationAwareDriverAdapterFactory, onQuery?: (sql: string) => void): PrismaClient {
  if (!onQuery) return answeringUnavailable(new PrismaClient({ adapter }));
  const client = new PrismaClient({ adapter, log: [{ emit: 'event', level: 'query' }] });
  client.$on('query', (event) => onQuery(event.query));
  return answeringUnavailable(client);
}

function pgliteSession(db: PGlite): SqlSession {
  return {
    exec: async (script) => {
      await db.exec(script);
    },
    query: async <Row,>(sql: string, params: unknown[] = []) => (await db.query<Row>(sql, params)).rows,
  };
}

/** Opens `count` connections of `pool` at once and returns them to it; if any fails, the pool is ended and that error thrown. */
async function connectAll(pool: pg.Pool, count: number): Promise<void> {
  const opened = await Promise.allSettled(Array.from({ length: count }, () => pool.connect()));
  for (const result of opened) if (result.status === 'fulfilled') result.value.release();
  const failed = opened.find((result) => result.status === 'rejected');
  if (failed) {
    await pool.end();
    throw failed.reason;
  }
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const driverOptions = { onQuery: options.onQuery, namedStatements: options.databasePooler !== 'transaction' };
    const poolSize = options.databasePoolSize ?? 10;
    // `min`: pg-pool closes an idle connection only while it holds more than that many.
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: poolSize, min: options.holdPoolOpen ? poolSize : 0 });
    // An idle connection the server closed (restart, failover, admin termination) is dropped by the pool and
    // replaced on the next checkout; without a listener its 'error' event would crash the process.
    pool.on('error', () => {});
    if (options.holdPoolOpen) await connectAll(pool, poolSize);
    const prisma = createClient(new PrismaPg(pool), options.onQuery);
    // Opened on first use (a worker's relay), so a process without a worker holds none of them.
    const pipelinePool = new pg.Pool({ connectionString: options.databaseUrl, max: options.pipelinePoolSize ?? 2 });
    pipelinePool.on('error', () => {});
    trackPool('main', pool);
    trackPool('pipeline', pipelinePool);
    const directUrl = options.directDatabaseUrl ?? options.databaseUrl;
    return {
      prisma,
      ...pgDriverSql(pool, driverOptions),
      pipeline: pgDriverSql(pipelinePool, driverOptions),
      kind: 'postgres',
      // A session of its own on the direct URL: a pooler in transaction mode would hand each statement of a session
      // (a session-level advisory lock and its unlock) to whichever server connection is free.
      withSession: async (fn) => {
        const client = new pg.Client({ connectionString: directUrl });
        client.on('error', () => {});
        await client.connect();
        try {
          return await fn({
            exec: async (script) => {
              await client.query(script);
            },
            query: async <Row,>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as Row[],
          });
        } finally {
          await client.end().catch(() => undefined);
        }
      },
      close: async () => {
        await prisma.$disconnect();
        await Promise.all([pool.end(), pipelinePool.end()]);
      },
    };
  }

  let unlock = (): void => {};
  let pglite = options.pglite;
  if (!pglite) {
    unlock = lockDataDir(options.dataDir);
    try {
      const dir = pgliteDir(options.dataDir);
      if (!copyPgliteTemplate(dir) && !existsSync(dir)) mkdirSync(dir, { recursive: true });
      // Loaded only for the embedded database: a PostgreSQL deployment never pays for the WASM build.
      const { PGlite } = await import('@electric-sql/pglite');
      pglite = await PGlite.create(dir, { startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((setting) => ['-c', setting])] });
    } catch (error) {
      unlock();
      throw error;
    }
  }
  const db = pglite;
  const { PrismaPGlite } = await import('pglite-prisma-adapter');
  const prisma = createClient(new PrismaPGlite(db), options.onQuery);
  const session = pgliteSession(db);
  const driver = pgliteDriverSql(db, options.onQuery);
  return {
    prisma,
    ...driver,
    pipeline: driver,
    kind: 'pglite',
    pglite: db,
    withSession: (fn) => fn(session),
    close: async () => {
      await prisma.$disconnect();
      await db.close();
      unlock();
    },
  };
}
