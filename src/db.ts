import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import pg from 'pg';
import { PrismaClient, type Prisma as PrismaNamespace } from './generated/prisma/client.js';

export type Prisma = PrismaClient;

/** A raw SQL session for what Prisma does not do: migrations, advisory locks, test resets. */
export interface SqlSession {
  exec(script: string): Promise<void>;
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
}

export interface Database {
  prisma: PrismaClient;
  /**
   * ONE statement outside any transaction, straight on the driver. The hot paths (key lookup, lists, ingest's
   * form read) use it: Prisma's raw-query path converts every value twice (its engine protocol), which was a
   * third of the forms list's CPU. Rows come back as Prisma's would: `timestamp(3)` as a UTC Date, jsonb
   * parsed, integer and text arrays as arrays (cast counts to int: int8 would not be a number).
   */
  sql<Row>(query: PrismaNamespace.Sql): Promise<Row[]>;
  kind: 'postgres' | 'pglite';
  /** The embedded instance (pglite only), for the job queue, which must share it: one process, one PGlite. */
  pglite?: PGlite;
  /** Runs `fn` on one dedicated connection (PGlite has only one). */
  withSession<T>(fn: (session: SqlSession) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** null: the embedded PGlite database under `dataDir`. */
  databaseUrl: string | null;
  dataDir: string;
  /** Called once per SQL statement Prisma sends (tests count them). */
  onQuery?: (sql: string) => void;
  /** Skip the directory lock (a test's private in-memory copy). */
  pglite?: PGlite;
}

export class DataDirLockedError extends Error {
  constructor(readonly dataDir: string, readonly pid: number) {
    super(`The embedded database in ${dataDir} is in use by process ${pid} (is the server running?). Stop it first, or set DATABASE_URL.`);
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
 * PGlite lets two processes open one directory and then silently loses writes, so whoever opens it
 * holds an exclusive lock file with its pid; a lock left by a dead process is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockFile = join(dataDir, 'db.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(readFileSync(lockFile, 'utf8'));
      if (pid && pid !== process.pid && isAlive(pid)) throw new DataDirLockedError(dataDir, pid);
      rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}

export const pgliteDir = (dataDir: string): string => join(dataDir, 'pgdata');

const TIMESTAMP_OID = 1114;
const digits = (text: string, from: number, count: number): number => {
  let value = 0;
  for (let i = from; i < from + count; i++) value = value * 10 + text.charCodeAt(i) - 48;
  return value;
};

/**
 * `timestamp(3)` holds UTC by Prisma's convention; the drivers would read it as local time. Read by hand from
 * `YYYY-MM-DD HH:MM:SS[.f{1,3}]` (twice the speed of Date's string parser; two per listed row); any other
 * form (years before 100, BC, infinity) goes through the parser.
 */
function utcTimestamp(text: string): Date {
  const length = text.length;
  const year = length >= 19 && length <= 23 && text.charCodeAt(4) === 45 ? digits(text, 0, 4) : 0;
  if (year < 100) return new Date(`${text.replace(' ', 'T')}Z`);
  const ms = length > 20 ? digits(text, 20, length - 20) * 10 ** (23 - length) : 0;
  return new Date(Date.UTC(year, digits(text, 5, 2) - 1, digits(text, 8, 2), digits(text, 11, 2), digits(text, 14, 2), digits(text, 17, 2), ms));
}
/** Dates are sent as UTC text for the same reason (pg would send local time with an offset, which `timestamp` drops). */
const driverValues = (values: unknown[]): unknown[] => values.map((value) => (value instanceof Date ? value.toISOString() : value));

const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === TIMESTAMP_OID ? utcTimestamp : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

function createClient(adapter: SqlMigrationAwareDriverAdapterFactory, onQuery?: (sql: string) => void): PrismaClient {
  if (!onQuery) return new PrismaClient({ adapter });
  const client = new PrismaClient({ adapter, log: [{ emit: 'event', level: 'query' }] });
  client.$on('query', (event) => onQuery(event.query));
  return client;
}

function pgliteSession(db: PGlite): SqlSession {
  return {
    exec: async (script) => {
      await db.exec(script);
    },
    query: async <Row,>(sql: string, params: unknown[] = []) => (await db.query<Row>(sql, params)).rows,
  };
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle connection the server closed (restart, failover, admin termination) is dropped by the pool and
    // replaced on the next checkout; without a listener its 'error' event would crash the process.
    pool.on('error', () => {});
    const prisma = createClient(new PrismaPg(pool), options.onQuery);
    return {
      prisma,
      sql: async <Row,>(query: PrismaNamespace.Sql) => {
        options.onQuery?.(query.text);
        return (await pool.query({ text: query.text, values: driverValues(query.values), types: pgTypes })).rows as Row[];
      },
      kind: 'postgres',
      withSession: async (fn) => {
        const client = await pool.connect();
        try {
          return await fn({
            exec: async (script) => {
              await client.query(script);
            },
            query: async <Row,>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as Row[],
          });
        } finally {
          client.release();
        }
      },
      close: async () => {
        await prisma.$disconnect();
        await pool.end();
      },
    };
  }

  let unlock = (): void => {};
  let pglite = options.pglite;
  if (!pglite) {
    unlock = lockDataDir(options.dataDir);
    try {
      const dir = pgliteDir(options.dataDir);
      if (!existsSync(dir)) mkdirSync(dir, { recursive: true });
      // Loaded only for the embedded database: a PostgreSQL deployment never pays for the WASM build.
      const { PGlite } = await import('@electric-sql/pglite');
      pglite = await PGlite.create(dir);
    } catch (error) {
      unlock();
      throw error;
    }
  }
  const db = pglite;
  const { PrismaPGlite } = await import('pglite-prisma-adapter');
  const prisma = createClient(new PrismaPGlite(db), options.onQuery);
  const session = pgliteSession(db);
  return {
    prisma,
    // PGlite's query waits for an open transaction (Prisma's adapter holds it), so this never runs inside one.
    sql: async <Row,>(query: PrismaNamespace.Sql) => {
      options.onQuery?.(query.text);
      return (await db.query<Row>(query.text, driverValues(query.values), { parsers: { [TIMESTAMP_OID]: utcTimestamp } })).rows;
    },
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
