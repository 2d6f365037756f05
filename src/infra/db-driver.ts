import { createHash } from 'node:crypto';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { Compilable } from 'kysely';
import pg from 'pg';
import type { Prisma } from '../generated/prisma/client.js';
import { AppError } from '../errors.js';
import { logger } from './log.js';
import { withWireIso } from './wire-timestamp.js';

/**
 * SQL straight on the driver (pg or PGlite), for the hot paths: Prisma's raw-query path converts every value
 * twice (its engine protocol), which was a third of the forms list's CPU, and its interactive transactions cost
 * more than the ingest's statements themselves. Rows come back as Prisma's would: `timestamp(3)` as a UTC Date,
 * jsonb parsed, integer and text arrays as arrays (cast counts to int: int8 would not be a number).
 */
export interface SqlExecutor {
  /**
   * One statement; outside `transaction`, never inside another caller's transaction. Built with sql.ts (`sqlBuilder`,
   * or `rawStatement(sql\`…\`)` where Kysely's builder cannot say it), it comes back typed by its selection.
   */
  sql<Row>(query: Statement<Row>): Promise<Row[]>;
}

/** A typed query compiled by Kysely (src/infra/sql.ts). */
export type Statement<Row = unknown> = Compilable<Row>;

/** The text and parameters the driver sends. */
function textOf(query: Statement<unknown>): { text: string; values: readonly unknown[] } {
  const compiled = query.compile();
  return { text: compiled.sql, values: compiled.parameters };
}

/**
 * The same statements sent through a Prisma client or interactive transaction (Prisma's raw path), for the few
 * writers that are handed one instead of the driver: the fixture import, whose one transaction also writes the
 * tables Prisma owns, and events recorded inside a Prisma transaction. Rows come
 * back as Prisma's raw path converts them.
 */
export function prismaSql(client: Pick<Prisma.TransactionClient, '$queryRawUnsafe'>): SqlExecutor {
  return {
    sql: <Row>(query: Statement<Row>) => {
      const { text, values } = textOf(query);
      return client.$queryRawUnsafe<Row[]>(text, ...values);
    },
  };
}

/** A transaction on one connection. `executeSql` is also pg-boss's `db`: jobs inserted through it commit with it. */
export interface SqlTransaction extends SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

export interface DriverSql extends SqlExecutor {
  /** BEGIN … COMMIT around `fn` (ROLLBACK when it throws). */
  transaction<T>(fn: (tx: SqlTransaction) => Promise<T>): Promise<T>;
}

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
  const date = new Date(Date.UTC(year, digits(text, 5, 2) - 1, digits(text, 8, 2), digits(text, 11, 2), digits(text, 14, 2), digits(text, 17, 2), ms));
  return year < 1000 ? date : withWireIso(date, isoFromWire(text));
}

const code = (text: string, at: number): number => (at < text.length ? text.charCodeAt(at) : 48);

/**
 * `YYYY-MM-DD HH:MM:SS[.f{1,3}]` → `YYYY-MM-DDTHH:MM:SS.fffZ` (missing digits of the fraction are zeros) as ONE
 * string: slicing and joining the parts made five (a list's rows carry two timestamps each; 390 → 225 bytes
 * allocated per timestamp read, Date included).
 */
// prettier-ignore
const isoFromWire = (text: string): string => String.fromCharCode(
  code(text, 0), code(text, 1), code(text, 2), code(text, 3), 45, code(text, 5), code(text, 6), 45, code(text, 8), code(text, 9), 84,
  code(text, 11), code(text, 12), 58, code(text, 14), code(text, 15), 58, code(text, 17), code(text, 18), 46, code(text, 20), code(text, 21), code(text, 22), 90,
);

/** Dates are sent as UTC text for the same reason (pg would send local time with an offset, which `timestamp` drops). */
const driverValues = (values: readonly unknown[]): unknown[] => values.map((value) => (value instanceof Date ? value.toISOString() : value));

const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === TIMESTAMP_OID ? utcTimestamp : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

/**
 * Statements are prepared once per connection under a name derived from their text, so PostgreSQL parses and
 * plans the hot ones once instead of on every request. The texts come from a fixed set of templates; past `max`
 * distinct texts (a template with a variable number of placeholders would be a bug) they run unnamed, so that a
 * connection's prepared statements stay bounded. Each set of texts has its own names (the service's statements,
 * the job queue's): one cannot use up the other's.
 */
export class StatementNames {
  /** null: a text that runs unnamed from now on (`unname`). */
  private readonly names = new Map<string, string | null>();

  constructor(
    private readonly prefix: string,
    private readonly max: number,
  ) {}

  /** The name `text` is prepared under; undefined: run it unnamed. */
  of(text: string): string | undefined {
    let name = this.names.get(text);
    if (name === undefined && this.names.size < this.max) {
      name = `${this.prefix}_${createHash('sha256').update(text).digest('base64url').slice(0, 20)}`;
      this.names.set(text, name);
    }
    return name ?? undefined;
  }

  /** Runs `text` unnamed from now on. */
  unname(text: string): void {
    this.names.set(text, null);
  }
}

const statementNames = new StatementNames('wg', 500);

type PgQueryable = Pick<pg.PoolClient, 'query'> | Pick<pg.Pool, 'query'>;

/**
 * The driver's error beneath `error`: the error itself, or the one Prisma wraps (`meta.driverAdapterError.cause`, with
 * PostgreSQL's code as `originalCode`).
 */
function driverError(error: Error): { code: unknown; message: unknown } {
  const cause = (error as { meta?: { driverAdapterError?: { cause?: { originalCode?: unknown; originalMessage?: unknown } } } }).meta?.driverAdapterError?.cause;
  return cause ? { code: cause.originalCode, message: cause.originalMessage } : { code: (error as { code?: unknown }).code, message: error.message };
}

/**
 * Whether a statement failed because its connection to PostgreSQL went away (an operator's pg_terminate_backend, a
 * restart or failover, a network cut, a server that refuses connections): SQLSTATE classes 08 and 57P, or the node-pg
 * and socket errors of a connection that ended under it. Not a fault of the request, and not a bug of ours.
 */
function isConnectionLost({ code, message }: { code: unknown; message: unknown }): boolean {
  if (typeof code === 'string' && (code.startsWith('08') || code.startsWith('57P') || ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT'].includes(code))) return true;
  return typeof message === 'string' && /^Connection terminated|^timeout exceeded when trying to connect|^Client has encountered a connection error|^Client was closed/.test(message);
}

/**
 * A lost connection (under the SQL driver or Prisma) answers 503 `service_unavailable` with Retry-After: 1 on every
 * transport (never a 500, which says "our bug"); the retry runs on a live connection (a write: with its
 * Idempotency-Key where it has one, as after any network failure). One warn line per statement lost, with the
 * driver's code and first line, never the statement's values. Any other error is returned as it is.
 */
export function unavailable(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const lost = driverError(error);
  if (!isConnectionLost(lost)) return error;
  const message = typeof lost.message === 'string' ? lost.message.split('\n')[0]!.slice(0, 200) : undefined;
  logger.warn({ error: { name: error.name, ...(typeof lost.code === 'string' && { code: lost.code }), message } }, 'database connection lost: answered 503 service_unavailable');
  return new AppError('service_unavailable', { retryAfter: 1 }, { headers: { 'Retry-After': '1' } });
}

/** An error `unavailable` made: its connection is gone, so nothing more is sent on it (not even a ROLLBACK). */
const isUnavailable = (error: unknown): boolean => error instanceof AppError && error.code === 'service_unavailable';

async function pgRows<Row>(on: PgQueryable, text: string, values: readonly unknown[], named: boolean): Promise<Row[]> {
  const name = named ? statementNames.of(text) : undefined;
  try {
    const result = await on.query({ ...(name && { name }), text, values: driverValues(values), types: pgTypes });
    return result.rows as Row[];
  } catch (error) {
    throw unavailable(error);
  }
}

/**
 * Statements on one connection of the caller's (a listening connection on the direct URL, never a pooler: its
 * statements are prepared by name).
 */
export function pgClientSql(client: PgQueryable): SqlExecutor {
  return {
    sql: async <Row>(query: Statement<Row>) => {
      const { text, values } = textOf(query);
      return pgRows<Row>(client, text, values, true);
    },
  };
}

export interface PgDriverOptions {
  onQuery?: ((sql: string) => void) | undefined;
  /**
   * Prepare statements under a name (default). Off behind a pooler in transaction mode: a name prepared on one
   * server connection is unknown on the next one the pooler hands out (`26000`), or already there (`42P05`).
   */
  namedStatements?: boolean;
}

export function pgDriverSql(pool: pg.Pool, options: PgDriverOptions = {}): DriverSql {
  const { onQuery } = options;
  const named = options.namedStatements ?? true;
  return {
    sql: async <Row>(query: Statement<Row>) => {
      const { text, values } = textOf(query);
      onQuery?.(text);
      return pgRows<Row>(pool, text, values, named);
    },
    transaction: async <T>(fn: (tx: SqlTransaction) => Promise<T>) => {
      const client = await pool.connect().catch((error: unknown) => {
        throw unavailable(error);
      });
      const run = async (text: string, values: readonly unknown[] = []): Promise<unknown[]> => {
        onQuery?.(text);
        return pgRows(client, text, values, named);
      };
      let broken: Error | undefined;
      // A checked-out client is no longer pg-pool's to watch: its connection dropping between two statements emits
      // 'error' on the client, which with no listener ends the process (a worker's relay pass, seen with
      // pg_terminate_backend). The statement under way, or the next, fails by itself; the client is discarded.
      const dropped = (error: Error): void => {
        broken ??= error;
      };
      client.on('error', dropped);
      try {
        await run('BEGIN');
        const result = await fn({
          sql: async <Row>(query: Statement<Row>) => {
            const { text, values } = textOf(query);
            return (await run(text, values)) as Row[];
          },
          executeSql: async (text, values) => ({ rows: await run(text, values) }),
        });
        await run('COMMIT');
        return result;
      } catch (error) {
        if (isUnavailable(error)) broken ??= new Error('database connection lost');
        else
          await run('ROLLBACK').catch((rollbackError: Error) => {
            broken = rollbackError;
          });
        throw error;
      } finally {
        // A connection that could not even roll back is discarded, not returned to the pool mid-transaction.
        client.off('error', dropped);
        client.release(broken);
      }
    },
  };
}

export function pgliteDriverSql(db: PGlite, onQuery?: (sql: string) => void): DriverSql {
  const parsers = { [TIMESTAMP_OID]: utcTimestamp };
  const rows = async <Row>(on: PGlite | Transaction, text: string, values: readonly unknown[] = []): Promise<Row[]> => {
    onQuery?.(text);
    return (await on.query<Row>(text, driverValues(values), { parsers })).rows;
  };
  const statementRows = <Row>(on: PGlite | Transaction, query: Statement<Row>): Promise<Row[]> => {
    const { text, values } = textOf(query);
    return rows<Row>(on, text, values);
  };
  return {
    // PGlite's query waits for an open transaction (Prisma's adapter holds one the same way), so a statement
    // never runs inside another caller's transaction on the one connection.
    sql: <Row>(query: Statement<Row>) => statementRows<Row>(db, query),
    transaction: <T>(fn: (tx: SqlTransaction) => Promise<T>) =>
      db.transaction(async (tx) => {
        onQuery?.('BEGIN');
        try {
          const result = await fn({ sql: <Row>(query: Statement<Row>) => statementRows<Row>(tx, query), executeSql: async (text, values) => ({ rows: await rows(tx, text, values) }) });
          onQuery?.('COMMIT');
          return result;
        } catch (error) {
          onQuery?.('ROLLBACK');
          throw error;
        }
      }),
  };
}
