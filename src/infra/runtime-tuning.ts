import v8 from 'node:v8';

/**
 * WebAssembly on the baseline compiler only. On the command line `--liftoff-only` alone does it: V8 derives
 * `--no-wasm-tier-up` and `--no-wasm-dynamic-tiering` from it when it starts. Set later, as here, nothing derives
 * them, and V8 14 (Node 26) reads those two when it decides to tier up: with `--liftoff-only` alone, a hot function
 * was still recompiled by TurboFan (`--trace-wasm-compilation-times`; test/runtime-tuning.test.ts), and a gateway
 * under the bench's load still had ~15 MB of TurboFan register-allocation zones at its malloc peak (heaptrack: peak
 * malloc 34 → 26 MB with the flag on the command line). V8 12 (Node 20) honoured `--liftoff-only` alone.
 */
const LIFTOFF_ONLY = ['--liftoff-only', '--no-wasm-tier-up', '--no-wasm-dynamic-tiering'] as const;

/**
 * V8 settings for a server on PostgreSQL, applied by the entry point itself (production starts it as plain
 * `node dist/main.js`, with no node flags) before the first Prisma query and before any load. Both flags are
 * read by V8 when they apply (compiling a WebAssembly module; sizing the heap after a full GC), so setting them
 * at startup is equivalent to passing them on the command line. Measured with bench/run.ts's scenarios at 32
 * connections (`npm run bench` reports the gateway's peak RSS).
 *
 * - Liftoff only (`LIFTOFF_ONLY` below): Prisma's query compiler is a 3.4 MB WebAssembly module. By default V8
 *   recompiles its hot functions with TurboFan on background threads, and that compilation memory stays in glibc's
 *   per-thread malloc arenas: ~45 MB of RSS (measured: 150 → 105 MB for a process that runs 200 Prisma queries), for
 *   code that runs only when a query shape is first planned. Baseline (Liftoff) code is fast enough for that.
 * - `--heap-growing-percent`: with 32 concurrent requests, every in-flight request's rows and result objects
 *   survive two scavenges and are promoted, so the old generation fills with dead data at up to ~30 MB/s. V8 then
 *   lets it grow to 4× the live heap (60-75 MB live → 200-300 MB) before a full GC. Capping growth at 30 % above
 *   the live heap keeps the peak near the live size; 10 % doubled CPU per request (full GCs back to back), 30 %
 *   showed no CPU difference beyond noise. It is a trade against tail latency, though: on a faster 2-CPU machine
 *   (2026-11-26, `npm run bench -- --stages main --rounds 1 --duration 5 --scaling none`, one run each) the forms
 *   list's p99 was 1.36-1.62 × the hand-written handler's at 30 %, 0.86-0.90 × at 60 % (peak RSS 282 MB, the
 *   dashboard ~10 % faster, the export's 1M-100k growth 13 MB), 1.07 × at 100 % (296 MB) and 0.81-1.07 × with V8's
 *   default (404-425 MB). A flag the operator passes wins (`flagsToApply`).
 */
/*
 * Two more settings matter on Node 26 and V8 reads them only when the process starts, so `npm run start:prod` passes
 * them on its command line: `--max-semi-space-size=16` (Node 26 sizes the young generation from the machine's memory,
 * 2 × 32 MB on 24 GB; set here it changes nothing, measured) and `--no-concurrent-recompilation` (TurboFan's compile
 * memory stayed in the worker threads' malloc arenas; set here it saved less: lab peaks 188-196 MB against 183 MB on
 * the command line). With both, the bench's main load peaks at 177-180 MB
 * instead of 241-248; docs/operator-guide.md ("Memory of a gateway on PostgreSQL") has the figures and the costs.
 */
export const POSTGRES_V8_FLAGS = [...LIFTOFF_ONLY, '--heap-growing-percent=30'] as const;

export function applyPostgresRuntimeTuning(): void {
  applyUnlessGiven(POSTGRES_V8_FLAGS);
}

/**
 * V8 settings for a server on the embedded database (PGlite), applied the same way before PGlite's 8.7 MB
 * WebAssembly module is compiled. Liftoff only here covers PostgreSQL itself, which runs in WebAssembly: PGlite
 * alone opens at ~175 MB RSS instead of ~205 MB, with less CPU at start (no TurboFan recompilation on background
 * threads, ~0.1 s). The bench's light load (embedded-memory stage: lists, ingest, GraphQL on the demo data; Node 26,
 * 3 runs each, two starts per run) measured steady RSS 302-330 MB with TurboFan (when `--liftoff-only` alone did not
 * stop it) and 256-282 MB on Liftoff, peak 317-345 → 273-295 MB, and the same CPU per request (6.9 and 7.0 ms, mean
 * of 6 starts; 5-8.4 ms each): the embedded database is for development and small sites, where memory matters more
 * than the last bit of query speed. `npm start` also passes
 * `--max-semi-space-size=8` on its command line (package.json): V8 sizes the young generation once, at start-up, to up
 * to 64 MB on a machine with plenty of memory, all of it touched after a few scavenges; 16 MB is ~45 MB less RSS.
 */
export const EMBEDDED_V8_FLAGS = [...LIFTOFF_ONLY] as const;

export function applyEmbeddedRuntimeTuning(): void {
  applyUnlessGiven(EMBEDDED_V8_FLAGS);
}

/** `--no-foo_bar=1` → `foo-bar`: V8 reads `_` and `-` alike, and `--no-` negates the same flag. */
const flagName = (arg: string): string => arg.replace(/^--?/, '').replace(/^no-/, '').split('=')[0]!.replaceAll('_', '-');

/**
 * The flags of `defaults` the operator did not set: a V8 flag of the same name on the command line or in NODE_OPTIONS
 * is the operator's choice, and these settings are set after V8 read it, so they would silently override it. Where
 * tail latency matters more than memory, say, `--heap-growing-percent=60` (the README's Configuration has the
 * figures).
 */
export function flagsToApply(defaults: readonly string[], execArgv: readonly string[], nodeOptions: string): string[] {
  const given = new Set([...execArgv, ...nodeOptions.split(/\s+/)].filter((arg) => arg.startsWith('-')).map(flagName));
  return defaults.filter((flag) => !given.has(flagName(flag)));
}

function applyUnlessGiven(defaults: readonly string[]): void {
  for (const flag of flagsToApply(defaults, process.execArgv, process.env.NODE_OPTIONS ?? '')) v8.setFlagsFromString(flag);
}
