import type { AutocannonRequest } from 'autocannon';
import type { BenchDataset } from '../dataset.js';
import type { Child } from '../driver.js';
import type { Target } from '../report.js';

/**
 * A stage is one measured question beyond the main request scenarios (webhook deliveries, export,
 * cold start, …). Each lives in its own file under bench/stages/, is listed in ./index.ts, and
 * returns its figures and its targets; run.ts puts them in results.json (`details.stages.<name>`),
 * results.md (one section per stage) and the targets table.
 */
export interface StageContext {
  /** The PostgreSQL server (postgres database): a stage that needs a database of its own creates it from here. */
  serverUrl: string;
  /** The main bench database (wg_bench), holding the dataset at --submissions. */
  url: string;
  dataset: BenchDataset;
  /** SECRET_KEY of the dataset (base64). */
  secretKey: string;
  /** A scratch folder removed at the end of the run. */
  scratch: string;
  settings: { submissions: number; durationS: number; warmupS: number; connections: number };
  log(message: string): void;
  /** The compiled gateway (dist/main.js, NODE_ENV=production) on `databaseUrl`; env overrides the bench defaults. */
  startGateway(databaseUrl: string, dataDir: string, env?: Record<string, string>, nodeFlags?: string[]): Promise<Child>;
  /** A hand-written reference of the main stage (bench/reference-server.ts) on the main bench database. */
  startReference(mode: 'handwritten' | 'handwritten-counters'): Promise<Child>;
  /** The main stage's requests of a scenario (the forms list, ingest, …) with the dataset's key. */
  requestsFor(scenario: 'forms-list' | 'ingest'): AutocannonRequest[];
  /** Slices per interleaved comparison (--rounds). */
  rounds: number;
}

export interface StageResult {
  /** Shown in results.md as a key/value table and kept in results.json. Tables: arrays of flat objects. */
  figures: Record<string, unknown>;
  targets: Target[];
  notes?: string[];
}

export interface Stage {
  name: string;
  /** One line for results.md. */
  title: string;
  run(context: StageContext): Promise<StageResult>;
}

/** A target's yes/no (null: not measured), for the stages to come. @public */
export const holds = (value: number | null, ok: (v: number) => boolean): boolean | null => (value === null ? null : ok(value));
