import type { RawBuilder } from 'kysely';
import type { SqlExecutor } from './db-driver.js';
import { rawStatement, sql } from './sql.js';
import { SerialDrain } from './serial-drain.js';

/**
 * Completions of the jobs a process's concurrent workers finish (deliveries and emails alike), written in ONE statement
 * for every queue, with what those jobs record on their success alongside (a delivery's attempt: `Alongside`). pg-boss
 * completes one queue per statement, and a delivery wrote its success in a statement of its own before its job was
 * completed: three statements where one does, for the jobs of one relay pass.
 *
 * The completion is pg-boss's own (plans.js completeJobs): only active jobs, fenced by the retry count they were
 * fetched at, so a job that expired and was fetched again elsewhere is left to that worker. A success written alongside
 * commits with its job's completion: a crash before the statement re-runs the job, as one between a job's end and its
 * completion always could (the delivery's attempt guard then finds it pending and sends it again, same webhook-id).
 */

/** pg-boss's schema (its default; the queue is started without another). */
const BOSS_SCHEMA = 'pgboss';

/** A job to complete: its queue, its id and the retry count it was fetched at. */
export interface Completion {
  name: string;
  id: string;
  retryCount: number;
}

/** What a job writes on success, with its completion: rows of one kind, written by one CTE (`registerAlongside`). */
export interface Alongside {
  kind: string;
  row: unknown;
}

/**
 * How rows of one kind are written alongside the completions: `write` is a data-modifying statement for all of them
 * with a RETURNING clause (a CTE of the completion statement), and `written` hears how many rows it wrote once they
 * are committed (a metric counts them then, not when the job ended: a write that fails is retried, and counted once).
 */
export interface AlongsideWrite {
  write: (rows: unknown[]) => RawBuilder<unknown>;
  written?: (count: number) => void;
}

/** An alongside write's rows as a CTE of the completion statement, under a name of its own. */
interface AlongsideCte {
  name: string;
  statement: RawBuilder<unknown>;
}

export const completeJobsSql = (table: string, jobs: readonly Completion[], alongside: readonly AlongsideCte[]) =>
  rawStatement(sql<Record<string, number>>`
  WITH ${sql.join([
    ...alongside.map(({ name, statement }) => sql`${sql.id(name)} AS (${statement})`),
    sql`completed AS (
      UPDATE ${sql.table(`${BOSS_SCHEMA}.${table}`)} SET completed_on = ${sql.raw(BOSS_SCHEMA)}.job_now(), state = 'completed'
      WHERE name = ANY(${[...new Set(jobs.map((job) => job.name))]}::text[]) AND id = ANY(${jobs.map((job) => job.id)}::uuid[])
        AND state = 'active' AND (id::text || ':' || retry_count::text) = ANY(${jobs.map((job) => `${job.id.toLowerCase()}:${job.retryCount}`)}::text[])
      RETURNING id)`,
  ])}
  SELECT ${sql.join([sql`(SELECT count(*)::int FROM completed) AS "completed"`, ...alongside.map(({ name }) => sql`(SELECT count(*)::int FROM ${sql.id(name)}) AS ${sql.id(name)}`)])}`);

/**
 * How long the first completion waits for the jobs ending after it (of every queue) before ONE statement writes them:
 * the jobs of one relay pass (its deliveries and emails) end a few ms apart, each receiver in its own time.
 */
export const SETTLE_GATHER_MS = 10;

export class JobCompletions {
  private readonly writes = new Map<string, AlongsideWrite>();
  private readonly pending = new SerialDrain<{ job: Completion; alongside: Alongside | null }>((batch) => this.writeBatch(batch));
  private gathering: NodeJS.Timeout | null = null;

  /** `tableOf`: the job table of each queue (pg-boss's `table_name`; job_common unless a queue is partitioned). */
  constructor(
    private readonly db: SqlExecutor,
    private readonly tableOf: (name: string) => string,
    private readonly onError: (message: string) => void,
  ) {}

  /** How rows of `kind` are written alongside the completions (once, at start-up). */
  registerAlongside(kind: string, write: AlongsideWrite): void {
    this.writes.set(kind, write);
  }

  /** Queues a completion, written within SETTLE_GATHER_MS with the others queued meanwhile. */
  add(job: Completion, alongside: Alongside | null): void {
    this.pending.push({ job, alongside });
    this.gathering ??= setTimeout(() => void this.flush(), SETTLE_GATHER_MS);
  }

  /**
   * Writes what is queued now, one write at a time (a write under way is followed by one for what came meanwhile).
   * A failure is logged: the jobs stay active and expire into retries (at least once, never lost).
   */
  flush(): Promise<void> {
    if (this.gathering) clearTimeout(this.gathering);
    this.gathering = null;
    return this.pending.drain();
  }

  private async writeBatch(batch: { job: Completion; alongside: Alongside | null }[]): Promise<void> {
    const byTable = new Map<string, typeof batch>();
    for (const entry of batch) {
      const table = this.tableOf(entry.job.name);
      byTable.set(table, [...(byTable.get(table) ?? []), entry]);
    }
    for (const [table, entries] of byTable) {
      try {
        const kinds = new Map<string, unknown[]>();
        for (const { alongside } of entries) if (alongside) kinds.set(alongside.kind, [...(kinds.get(alongside.kind) ?? []), alongside.row]);
        const writes = [...kinds].map(([kind, rows], i) => {
          const write = this.writes.get(kind);
          if (!write) throw new Error(`no write registered for ${kind}`);
          return { cte: { name: `alongside_${i}`, statement: write.write(rows) }, written: write.written };
        });
        const jobs = entries.map((entry) => entry.job);
        const [counts] = await this.db.sql(completeJobsSql(table, jobs, writes.map((write) => write.cte)));
        for (const { cte, written } of writes) written?.(counts?.[cte.name] ?? 0);
      } catch (error) {
        this.onError(`settling failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
}
