import { spawn } from 'node:child_process';
import { createWriteStream, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';
import { rawStatement, sql } from '../../src/infra/sql.js';
import { openDatabase } from '../../src/infra/db.js';
import { BENCH_DB, databaseUrl, dropDatabase, recreateDatabase } from '../dataset.js';
import { readRss } from '../driver.js';
import { holds, type Stage, type StageContext } from './stage.js';

/**
 * `npm run admin -- import` at scale (issue #20 item 7): a fixture of 100 forms (10 of them PHI, whose
 * submissions are sealed) with 100,000 and 1,000,000 submissions, generated into the scratch folder and
 * imported by the real CLI as a child process, on a PostgreSQL database of its own and on the embedded one.
 * Peak RSS is the high-water mark (VmHWM in /proc) of the node process that runs src/cli/main.ts, under npm and tsx.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FORMS = 100;
const PHI_FORMS = 10;
const SIZES = [100_000, 1_000_000];
const TARGET_SECONDS = 60;
const TARGET_RSS_MB = 400;

/** Writes the fixture as a stream (it is ~150 MB at a million), in the shape of contract §3. */
export async function writeImportFixture(file: string, submissions: number): Promise<number> {
  const out = createWriteStream(file);
  const write = async (text: string): Promise<void> => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write('{"accounts":[{"ref":"bench","name":"Bench","kind":"organization","plan":"business","apiKeys":[{"ref":"read"}],');
  await write('"sites":[{"ref":"main","domain":"bench.example","verified":true,"method":"dns_txt","forms":[');
  const start = Date.UTC(2025, 0, 1);
  let n = 0;
  for (let f = 0; f < FORMS; f++) {
    const count = Math.floor(submissions / FORMS) + (f < submissions % FORMS ? 1 : 0);
    const fields = '[{"id":"name","type":"text","label":"Name"},{"id":"email","type":"email","label":"Email"},{"id":"message","type":"textarea","label":"Message"}]';
    await write(`${f ? ',' : ''}{"ref":"form-${f}","name":"Form ${f}","phi":${f < PHI_FORMS},"fields":${fields},"submissions":[`);
    let chunk = '';
    for (let i = 0; i < count; i++, n++) {
      const createdAt = new Date(start + n * 1000).toISOString();
      chunk += `${i ? ',' : ''}{"formData":{"name":"Person ${n}","email":"person${n}@example.com","message":"Hello, this is message number ${n}."},"sourceDomain":"bench.example","createdAt":"${createdAt}"}`;
      if (chunk.length > 1 << 20) {
        await write(chunk);
        chunk = '';
      }
    }
    await write(`${chunk}]}`);
  }
  await write(']}]}]}\n');
  out.end();
  await once(out, 'finish');
  return statSync(file).size;
}

/** The processes under `pid`, depth first (npm → sh → tsx → node). */
function descendants(pid: number): number[] {
  const out: number[] = [];
  let children: string[] = [];
  try {
    children = readdirSync(`/proc/${pid}/task`).flatMap((task) => readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean));
  } catch {
    return out;
  }
  for (const child of children.map(Number)) out.push(child, ...descendants(child));
  return out;
}

const commandLine = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
};

interface ImportRun {
  seconds: number;
  peakRssMb: number | null;
  exitCode: number | null;
  stderr: string;
  stdoutBytes: number;
  submissionIds: number;
}

/** Runs `npm run -s admin -- import FILE` and samples the RSS high-water mark of the CLI's own node process. */
async function runImport(file: string, env: Record<string, string>): Promise<ImportRun> {
  const started = performance.now();
  const child = spawn('npm', ['run', '-s', 'admin', '--', 'import', file], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const peaks = new Map<number, number>();
  // The CLI is the node process whose command line runs src/cli/main.ts and that has no node child (tsx's
  // launcher runs it in a child of its own).
  const sample = (): void => {
    for (const pid of descendants(child.pid!)) {
      const line = commandLine(pid);
      if (!line.includes('src/cli/main.ts') || line.includes('tsx/dist/cli')) continue;
      const hwm = readRss(pid)?.hwmMb;
      if (hwm !== undefined && Number.isFinite(hwm)) peaks.set(pid, Math.max(peaks.get(pid) ?? 0, hwm));
    }
  };
  const timer = setInterval(sample, 50);
  const [exitCode] = (await once(child, 'close')) as [number | null];
  clearInterval(timer);
  const seconds = (performance.now() - started) / 1000;
  let submissionIds = 0;
  if (exitCode === 0) {
    const map = JSON.parse(stdout) as { accounts: Record<string, { forms: Record<string, { submissionIds: number[] }> }> };
    for (const account of Object.values(map.accounts)) for (const form of Object.values(account.forms)) submissionIds += form.submissionIds.length;
  }
  return { seconds, peakRssMb: peaks.size ? Math.max(...peaks.values()) : null, exitCode, stderr: stderr.slice(-2000), stdoutBytes: stdout.length, submissionIds };
}

/** Rows and counters as the import left them (the counters must equal the rows). */
async function check(target: { databaseUrl: string | null; dataDir: string }): Promise<{ rows: number; countersExact: boolean; phiPlain: number }> {
  const db = await openDatabase({ ...target });
  try {
    const [row] = await db.sql(rawStatement(sql<{ rows: number; counted: number; bad: number; phiPlain: number }>`SELECT (SELECT count(*)::int FROM "Submission") AS rows,
                    (SELECT coalesce(sum("submissionCount"), 0)::int FROM "Form") AS counted,
                    (SELECT count(*)::int FROM "Form" f WHERE f."submissionCount" <> (SELECT count(*) FROM "Submission" s WHERE s."formId" = f.id)) AS bad,
                    (SELECT count(*)::int FROM "Submission" s JOIN "Form" f ON f.id = s."formId" WHERE f.phi AND (s."formData" IS NOT NULL OR s."formDataCiphertext" IS NULL)) AS "phiPlain"`));
    return { rows: row!.rows, countersExact: row!.bad === 0 && row!.counted === row!.rows, phiPlain: row!.phiPlain };
  } finally {
    await db.close();
  }
}

const round = (value: number | null, digits = 1): number | null => (value === null ? null : Number(value.toFixed(digits)));

export const importStage: Stage = {
  name: 'import',
  title: 'admin import of a fixture file: 100 forms, 100k and 1M submissions, on PostgreSQL and embedded (real CLI, child process)',
  async run(context: StageContext) {
    const rows: Record<string, unknown>[] = [];
    const notes: string[] = [];
    let pg1m: { seconds: number; rss: number | null } | null = null;
    for (const submissions of SIZES) {
      const file = join(context.scratch, `import-${submissions}.json`);
      const bytes = await writeImportFixture(file, submissions);
      context.log(`import: ${file} (${(bytes / 1e6).toFixed(0)} MB)`);
      for (const database of ['postgres', 'embedded'] as const) {
        const name = `${BENCH_DB}_import`;
        const target =
          database === 'postgres'
            ? { databaseUrl: await recreateDatabase(context.serverUrl, name), dataDir: '' }
            : { databaseUrl: null, dataDir: join(context.scratch, `import-embedded-${submissions}`) };
        const env: Record<string, string> = { SECRET_KEY: context.secretKey, NODE_ENV: 'production' };
        if (target.databaseUrl) env.DATABASE_URL = target.databaseUrl;
        else env.DATA_DIR = target.dataDir;
        const run = await runImport(file, env);
        context.log(`import: ${database} ${submissions}: exit ${run.exitCode}, ${run.seconds.toFixed(1)} s, peak RSS ${run.peakRssMb?.toFixed(0)} MB`);
        if (run.exitCode !== 0) notes.push(`${database} ${submissions}: exit ${run.exitCode}: ${run.stderr}`);
        const stored = run.exitCode === 0 ? await check(target) : null;
        if (database === 'postgres') await dropDatabase(context.serverUrl, name);
        const ok = run.exitCode === 0 && stored?.rows === submissions && run.submissionIds === submissions && stored.countersExact && stored.phiPlain === 0;
        rows.push({
          database,
          submissions,
          fileMb: round(bytes / 1e6),
          seconds: round(run.seconds),
          submissionsPerSecond: Math.round(submissions / run.seconds),
          peakRssMb: round(run.peakRssMb),
          rowsStored: stored?.rows ?? null,
          countersExact: stored?.countersExact ?? null,
          phiSealed: stored ? stored.phiPlain === 0 : null,
          ok,
        });
        if (database === 'postgres' && submissions === 1_000_000 && ok) pg1m = { seconds: run.seconds, rss: run.peakRssMb };
      }
    }
    notes.push(`Seconds are wall time of \`npm run -s admin -- import FILE\` (npm, tsx, migrations check, validation pass, write pass, printing the map). ${PHI_FORMS} of the ${FORMS} forms are PHI. Database ${databaseUrl(context.serverUrl, `${BENCH_DB}_import`).replace(/\/\/.*@/, '//')} is dropped after each run.`);
    return {
      figures: { runs: rows },
      targets: [
        { name: 'import 1M submissions, PostgreSQL: seconds', target: `<= ${TARGET_SECONDS}`, value: round(pg1m?.seconds ?? null), holds: holds(pg1m?.seconds ?? null, (v) => v <= TARGET_SECONDS) },
        { name: 'import 1M submissions, PostgreSQL: peak RSS MB', target: `<= ${TARGET_RSS_MB}`, value: round(pg1m?.rss ?? null), holds: holds(pg1m?.rss ?? null, (v) => v <= TARGET_RSS_MB) },
      ],
      notes,
    };
  },
};
