import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
  type Compilable,
  type CompiledQuery,
  type Insertable,
  type InsertQueryBuilder,
  type InsertResult,
  type RawBuilder,
} from 'kysely';
import type { DB } from '../generated/kysely/types.js';

/**
 * Typed SQL for the hot paths: Kysely as a query COMPILER only. A query built here is typed against the tables
 * (src/generated/kysely/types.ts, generated from prisma/schema.prisma by prisma-kysely at `prisma generate`), and
 * compiled to text + parameters that the existing driver layer (db-driver.ts: `db.sql`, `tx.sql`) sends: the
 * same one statement per query, the same named prepared statements, the same row conversions. Kysely never
 * opens a connection (its driver is a dummy), so nothing here can execute a query by itself.
 *
 * Rules for queries built here, so that every query text comes from a fixed set (db-driver.ts names each text
 * as a prepared statement): never `where(col, 'in', array)` (one placeholder per element): use
 * `sql\`${col} = ANY(${ids}::int[])\``; LIMIT and OFFSET are parameters.
 */
export const sqlBuilder = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

export { sql };
export type { RawBuilder };
export type { DB };

/** A whole statement written as Kysely's `sql` template (what the builder cannot say), typed by its rows. */
export const rawStatement = <Row>(statement: RawBuilder<Row>): Compilable<Row> => ({ compile: () => statement.compile(sqlBuilder) });


/**
 * An INSERT of any number of rows as one statement with ONE parameter: the rows as a JSON array, which PostgreSQL
 * turns into the table's row type (json_populate_recordset: jsonb, enums, timestamps as ISO text). Its text is the
 * same whatever the row count (db-driver.ts names statements by text), and no driver converts values one by one.
 */
export function insertJsonRows<T extends keyof DB & string, C extends keyof Insertable<DB[T]> & string>(
  table: T,
  columns: readonly C[],
  rows: readonly Pick<Insertable<DB[T]>, C>[],
): InsertQueryBuilder<DB, T, InsertResult> {
  const names = sql.join(columns.map((column) => sql.ref(column)));
  return sqlBuilder
    .insertInto(table)
    .columns(columns as never)
    .expression(sql`SELECT ${names} FROM json_populate_recordset(NULL::${sql.table(table)}, ${JSON.stringify(rows)}::json)`);
}

/** Stands for a value while a prepared query is built and compiled (see `preparedQuery`). */
class StandIn {
  constructor(readonly key: string) {}
}

/**
 * A hot statement built and compiled ONCE per shape instead of on every request (building and compiling a Kysely
 * query costs tens of microseconds; binding values to the compiled text is an array map). `build` gets stand-ins
 * for `values`, which it may only pass to Kysely as values (never test or compute with them); whatever changes the
 * statement's text (which filters apply, which columns are read) goes in `shape`, one compiled text per shape.
 */
export function preparedQuery<Shape, Values extends Record<string, unknown>, Row>(
  build: (shape: Shape, values: Values) => Compilable<Row>,
): (shape: Shape, values: Values) => Compilable<Row> {
  const compiled = new Map<string, CompiledQuery<Row>>();
  return (shape, values) => ({
    compile: () => {
      const key = JSON.stringify(shape);
      let template = compiled.get(key);
      if (!template) {
        const standIns = Object.fromEntries(Object.keys(values).map((name) => [name, new StandIn(name)])) as unknown as Values;
        template = build(shape, standIns).compile();
        compiled.set(key, template);
      }
      return { ...template, parameters: template.parameters.map((value) => (value instanceof StandIn ? values[value.key] : value)) };
    },
  });
}
