import { readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { Agent, request } from 'undici';
import { issueApiKey } from '../../src/domain/accounts/api-keys.service.js';
import { openDatabase } from '../../src/infra/db.js';
import { KeyHasher } from '../../src/infra/secrets.js';
import type { Scope } from '../../src/scopes.js';
import { measureInterleaved, readRss, type Child, type LoadResult } from '../driver.js';
import { mainThreadProfile, summarizeProfile } from '../profile.js';
import { ratio, round } from '../report.js';
import { holds, type Stage, type StageContext } from './stage.js';
import type { ConsumerAnswer, ConsumerRequest, ConsumerSpec } from './stream-consumers.js';

/**
 * Live event streams (decisions §7.2) across replicas: two gateways on the bench database, 50 open
 * `GET /v1/events/stream` connections spread over them (40 on keys with read:submissions, 10 on read:forms-only keys,
 * which may see none of these events).
 *
 * 1. The forms list (GET /v1/forms?limit=100) and ingest against their hand-written references (as the main stage:
 *    handwritten-counters and handwritten), interleaved, with no stream open.
 * 2. The streams are opened (gateway RSS before and after: per open stream), then submissions are ingested at a fixed
 *    rate through both gateways, open loop (request n leaves at start + n / rate, whatever the answers): every stream
 *    must get every event it may see exactly once; commit → stream latency per (stream, event) pair.
 * 3. The same ratios again with the 50 streams open (the ingest's events flowing to them): with / without.
 *
 * Commit → stream: the commit happens between the event's `createdAt` (taken by the gateway just before its insert)
 * and the 201 reaching this process, so latency is given from both: from createdAt (an upper bound, judged against
 * the goal) and from the 201 (a lower bound: it can be negative). Both clocks are this machine's.
 */

const STREAMS = 50;
const FORMS_ONLY_STREAMS = 10;
const RATE = Number(process.env.STREAMS_RATE ?? 300);
const SETTLE_MS = 10_000;
/**
 * STREAMS_PROFILE=1: both gateways run with --cpu-prof; their hot spots are added to the figures (gateway 0 takes
 * the ratios' load and its streams; gateway 1 only serves its streams).
 */
const PROFILE = process.env.STREAMS_PROFILE === '1';
const ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
/** 30 s in a recorded run (the issue's figure); a short run (--duration under 10) ingests for --duration. */
const ingestSeconds = (durationS: number): number => Number(process.env.STREAMS_SECONDS ?? 0) || (durationS >= 10 ? 30 : durationS);

/** The SSE clients' thread (stream-consumers.ts), asked one thing at a time. */
class Consumers {
  private readonly worker: Worker;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(specs: ConsumerSpec[]) {
    this.worker = new Worker(new URL('./stream-consumers.ts', import.meta.url), { workerData: specs });
  }

  ask<Op extends ConsumerRequest['op']>(op: Op): Promise<Extract<ConsumerAnswer, { op: Op }>> {
    const asked = this.queue.then(
      () =>
        new Promise<Extract<ConsumerAnswer, { op: Op }>>((resolve, reject) => {
          this.worker.once('message', (answer: ConsumerAnswer) => (answer.op === 'error' ? reject(new Error(answer.message)) : resolve(answer as Extract<ConsumerAnswer, { op: Op }>)));
          this.worker.postMessage({ op });
        }),
    );
    this.queue = asked.catch(() => undefined);
    return asked;
  }

  async close(): Promise<void> {
    await this.ask('close').catch(() => undefined);
    await this.worker.terminate();
  }
}

/** Wall-clock now with sub-millisecond precision, comparable with the gateways' `createdAt`. */
const wallNow = (): number => performance.timeOrigin + performance.now();

const percentile = (sorted: number[], p: number): number | null => (sorted.length ? (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? null) : null);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** CPU seconds a process has used so far (user + system, /proc/<pid>/stat in clock ticks of 10 ms). */
function cpuSeconds(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/**
 * A stream sends a row once every transaction with a lower id has ended (src/domain/webhooks/event-feed.service.ts):
 * one that holds a transaction id anywhere on the server (any database: ids are server-wide) holds every stream back.
 * Sampled every 50 ms: the age of the oldest such transaction, and whether it was in another database than ours.
 */
function sampleOldestTransactions(url: string): { stop(): Promise<{ p50Ms: number | null; p99Ms: number | null; maxMs: number | null; otherDatabaseShare: number | null }> } {
  const client = new pg.Client({ connectionString: url });
  const ages: number[] = [];
  let other = 0;
  let running = true;
  const loop = (async () => {
    await client.connect();
    while (running) {
      const { rows } = await client.query<{ ms: number; ours: boolean }>(
        `SELECT extract(epoch FROM clock_timestamp() - xact_start) * 1000 AS ms, datname = current_database() AS ours
           FROM pg_stat_activity WHERE backend_xid IS NOT NULL AND pid <> pg_backend_pid() ORDER BY xact_start LIMIT 1`,
      );
      const row = rows[0];
      ages.push(row ? Number(row.ms) : 0);
      if (row && !row.ours) other += 1;
      await sleep(50);
    }
  })().catch(() => undefined);
  return {
    async stop() {
      running = false;
      await loop;
      await client.end().catch(() => undefined);
      ages.sort((a, b) => a - b);
      return { p50Ms: round(percentile(ages, 50), 1), p99Ms: round(percentile(ages, 99), 1), maxMs: round(ages.at(-1), 1), otherDatabaseShare: ages.length ? round(other / ages.length, 3) : null };
    },
  };
}

interface Ratios {
  formsListVsHandwritten: number | null;
  formsListP99VsHandwritten: number | null;
  ingestVsHandwritten: number | null;
  gatewayFormsListReqPerSec: number | null;
  gatewayIngestReqPerSec: number | null;
  gatewayNon2xx: number;
  /** CPU ms per answered ingest of the gateway measured, of the other gateway, and of this process (load + SSE clients). */
  ingestCpuMsPerRequest: { measured: number | null; other: number | null; bench: number | null };
}

/** The main stage's two ratios on gateway `url`: forms list vs handwritten-counters, ingest vs handwritten, interleaved. */
async function measureRatios(context: StageContext, gateways: Child[], references: { counters: Child; handwritten: Child }): Promise<Ratios> {
  const url = `http://127.0.0.1:${gateways[0]!.port}`;
  const options = { durationS: context.settings.durationS, warmupS: context.settings.warmupS, connections: context.settings.connections, rounds: context.rounds };
  const at = (child: Child): string => `http://127.0.0.1:${child.port}`;
  const list = await measureInterleaved(
    [
      { label: 'gateway', url, requests: context.requestsFor('forms-list') },
      { label: 'reference', url: at(references.counters), requests: context.requestsFor('forms-list') },
    ],
    options,
  );
  // Over the interleaved run: the gateway measured is idle in its reference's slices, and so are the streams.
  const cpuBefore = gateways.map((gateway) => cpuSeconds(gateway.pid));
  const benchBefore = process.cpuUsage();
  const ingest = await measureInterleaved(
    [
      { label: 'gateway', url, requests: context.requestsFor('ingest') },
      { label: 'reference', url: at(references.handwritten), requests: context.requestsFor('ingest') },
    ],
    options,
  );
  const cpuAfter = gateways.map((gateway) => cpuSeconds(gateway.pid));
  const benchCpu = process.cpuUsage(benchBefore);
  const pick = (results: Map<string, LoadResult>, label: string): LoadResult | null => results.get(label) ?? null;
  const [gatewayList, referenceList, gatewayIngest, referenceIngest] = [pick(list, 'gateway'), pick(list, 'reference'), pick(ingest, 'gateway'), pick(ingest, 'reference')];
  return {
    formsListVsHandwritten: ratio(gatewayList?.reqPerSec ?? null, referenceList?.reqPerSec ?? null),
    formsListP99VsHandwritten: ratio(gatewayList?.p99Ms ?? null, referenceList?.p99Ms ?? null),
    ingestVsHandwritten: ratio(gatewayIngest?.reqPerSec ?? null, referenceIngest?.reqPerSec ?? null),
    gatewayFormsListReqPerSec: round(gatewayList?.reqPerSec, 1),
    gatewayIngestReqPerSec: round(gatewayIngest?.reqPerSec, 1),
    ingestCpuMsPerRequest: (() => {
      const answered = gatewayIngest?.ok ?? 0;
      const per = (seconds: number | null): number | null => (seconds === null || !answered ? null : round((seconds * 1000) / answered, 3));
      const spent = (g: number): number | null => (cpuBefore[g] == null || cpuAfter[g] == null ? null : cpuAfter[g]! - cpuBefore[g]!);
      return { measured: per(spent(0)), other: per(spent(1)), bench: per((benchCpu.user + benchCpu.system) / 1e6) };
    })(),
    gatewayNon2xx: (gatewayList?.non2xx ?? 0) + (gatewayIngest?.non2xx ?? 0) + (gatewayList?.errors ?? 0) + (gatewayIngest?.errors ?? 0),
  };
}

/** Until no stream has received anything for a second (bounded): what one phase sent is not counted in the next. */
async function settle(consumers: Consumers): Promise<void> {
  const deadline = performance.now() + 60_000;
  let last = -1;
  for (;;) {
    const { messages, bytes } = await consumers.ask('counts');
    if (performance.now() >= deadline || messages + bytes === last) return;
    last = messages + bytes;
    await sleep(1000);
  }
}

export const streamsStage: Stage = {
  name: 'streams',
  title: `Live event streams: ${STREAMS} open over 2 gateways while submissions are ingested at ${RATE}/s; list and ingest ratios without and with them`,
  async run(context) {
    const { dataset } = context;
    const hasher = new KeyHasher(Buffer.from(context.secretKey, 'base64'));
    const db = await openDatabase({ databaseUrl: context.url, dataDir: '' });
    const keys: { key: string; seesSubmissions: boolean }[] = [];
    try {
      for (let i = 0; i < STREAMS / 5; i++) {
        const seesSubmissions = i >= FORMS_ONLY_STREAMS / 5;
        const scopes: Scope[] = seesSubmissions ? ['read:forms', 'read:submissions'] : ['read:forms'];
        keys.push({ key: (await issueApiKey(db.prisma, hasher, { accountId: dataset.accountId, scopes, rateLimitPerHour: 1_000_000, name: `streams-${i}` })).key, seesSubmissions });
      }
    } finally {
      await db.close();
    }
    const profileDir = join(ROOT, 'bench', 'profiles', 'streams');
    const children: Child[] = [];
    const agent = new Agent({ connections: 256, pipelining: 0 });
    let consumers: Consumers | null = null;
    try {
      const gateways: Child[] = [];
      for (let g = 0; g < 2; g++) {
        const flags = PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${join(profileDir, `gateway${g}`)}`] : [];
        gateways.push(await context.startGateway(context.url, join(context.scratch, `gateway-streams-${g}`), {}, flags));
        children.push(gateways[g]!);
      }
      const references = { counters: await context.startReference('handwritten-counters'), handwritten: await context.startReference('handwritten') };
      children.push(references.counters, references.handwritten);
      const urls = gateways.map((gateway) => `http://127.0.0.1:${gateway.port}`);

      context.log('streams: forms list and ingest vs the hand-written references, no stream open');
      const without = await measureRatios(context, gateways, references);

      const idleRss = gateways.map((gateway) => readRss(gateway.pid)?.rssMb ?? NaN);
      consumers = new Consumers(Array.from({ length: STREAMS }, (_, s) => ({ url: urls[s % 2]!, ...keys[Math.floor(s / 5)]! })));
      await consumers.ask('open');
      await sleep(1000);
      const openRss = gateways.map((gateway) => readRss(gateway.pid)?.rssMb ?? NaN);
      const rssPerStreamKb = round(((openRss[0]! - idleRss[0]!) + (openRss[1]! - idleRss[1]!)) * 1024 / STREAMS, 1);

      // Open loop: request n leaves at start + n/rate, through gateway n % 2, whatever became of the earlier ones.
      const acknowledged = new Map<number, number>();
      const refused: Record<string, number> = {};
      const total = Math.round(RATE * ingestSeconds(context.settings.durationS));
      const loopDelay = monitorEventLoopDelay({ resolution: 10 });
      const cpuBefore = gateways.map((gateway) => cpuSeconds(gateway.pid));
      const loadBefore = os.loadavg()[0]!;
      loopDelay.enable();
      const oldest = sampleOldestTransactions(context.url);
      const started = performance.now();
      let lastSentAt = started;
      let lastAckAt = started;
      const lags: number[] = [];
      const pending: Promise<void>[] = [];
      for (let n = 0; n < total; n++) {
        const due = started + (n * 1000) / RATE;
        const wait = due - performance.now();
        if (wait > 1) await sleep(wait);
        lastSentAt = performance.now();
        lags.push(lastSentAt - due);
        pending.push(
          (async () => {
            try {
              const response = await request(`${urls[n % 2]}/v1/forms/${dataset.formIds[n % dataset.formIds.length]}/submissions`, {
                dispatcher: agent,
                method: 'POST',
                headers: { authorization: `Bearer ${dataset.apiKey}`, 'content-type': 'application/json' },
                body: JSON.stringify({ formData: { Name: `Stream ${n}`, Email: `stream${n}@bench.example`, Message: 'streams stage' } }),
              });
              const text = await response.body.text();
              if (response.statusCode !== 201) return void (refused[response.statusCode] = (refused[response.statusCode] ?? 0) + 1);
              lastAckAt = performance.now();
              acknowledged.set(Number((JSON.parse(text) as { id: unknown }).id), wallNow());
            } catch {
              refused.error = (refused.error ?? 0) + 1;
            }
          })(),
        );
      }
      await Promise.all(pending);
      const sendSeconds = (lastSentAt - started) / 1000;
      const deadline = performance.now() + SETTLE_MS;
      while (performance.now() < deadline && (await consumers.ask('counts')).submissionIds.some((n) => n < acknowledged.size)) await sleep(100);
      const { streams, createdAt } = await consumers.ask('report');
      const seeing = streams.filter((stream) => stream.seesSubmissions);
      loopDelay.disable();
      const oldestTransaction = await oldest.stop();
      const cpuAfter = gateways.map((gateway) => cpuSeconds(gateway.pid));
      const loadAfter = os.loadavg()[0]!;

      const fromCreated: number[] = [];
      const fromAck: number[] = [];
      let missing = 0;
      for (const stream of seeing) {
        for (const [id, ackAt] of acknowledged) {
          const at = stream.received.get(id);
          if (at === undefined) {
            missing += 1;
            continue;
          }
          fromAck.push(at - ackAt);
          const created = createdAt.get(id);
          if (created !== undefined) fromCreated.push(at - created);
        }
      }
      fromCreated.sort((a, b) => a - b);
      fromAck.sort((a, b) => a - b);
      const duplicates = streams.reduce((sum, stream) => sum + stream.duplicates, 0);
      const unexpected = streams.filter((stream) => !stream.seesSubmissions).reduce((sum, stream) => sum + stream.received.size, 0);
      const failed = Object.values(refused).reduce((sum, n) => sum + n, 0);
      const p50 = round(percentile(fromCreated, 50), 1);
      const p99 = round(percentile(fromCreated, 99), 1);
      const exact = missing === 0 && duplicates === 0 && unexpected === 0;
      lags.sort((a, b) => a - b);
      const gatewayCpu = cpuBefore.map((before, g) => (before === null || cpuAfter[g] === null ? null : round(cpuAfter[g]! - before, 2)));
      const deliveries = fromAck.length;
      const phaseSeconds = (performance.now() - started) / 1000;
      context.log(
        `streams: offered ${total} at ${RATE}/s, sent in ${sendSeconds.toFixed(1)} s (${(total / Math.max(sendSeconds, 1e-3)).toFixed(0)}/s), ${acknowledged.size} acknowledged, refused ${JSON.stringify(refused)}; ${deliveries} deliveries, missing ${missing}, duplicates ${duplicates}, unseen-kind ${unexpected}; commit → stream from createdAt p50 ${p50} ms p99 ${p99} ms, from the 201 p50 ${round(percentile(fromAck, 50), 1)} ms p99 ${round(percentile(fromAck, 99), 1)} ms; bench event loop delay p99 ${round(loopDelay.percentile(99) / 1e6, 1)} ms; gateway CPU ${JSON.stringify(gatewayCpu)} s; oldest transaction holding an id ${JSON.stringify(oldestTransaction)}; RSS ${rssPerStreamKb} KB per open stream`,
      );

      // The paced phase's events have all arrived (or never will): what the next phase sends is counted apart.
      await settle(consumers);
      await consumers.ask('drain');
      context.log('streams: forms list and ingest vs the hand-written references, with the 50 streams open (their clients reading bytes only)');
      const withStreams = await measureRatios(context, gateways, references);
      await settle(consumers);
      const change = (pick: (r: Ratios) => number | null): number | null => ratio(pick(withStreams), pick(without));
      const listChange = change((r) => r.formsListVsHandwritten);
      const ingestChange = change((r) => r.ingestVsHandwritten);
      context.log(`streams: forms list vs hand-written ${without.formsListVsHandwritten} → ${withStreams.formsListVsHandwritten} (×${listChange}); ingest vs hand-written ${without.ingestVsHandwritten} → ${withStreams.ingestVsHandwritten} (×${ingestChange}); CPU ms per gateway ingest (gateway measured, other gateway, bench) without ${JSON.stringify(without.ingestCpuMsPerRequest)}, with ${JSON.stringify(withStreams.ingestCpuMsPerRequest)}`);

      await consumers.close();
      consumers = null;
      const profiles: Record<string, unknown> = {};
      if (PROFILE) {
        for (const [g, gateway] of gateways.entries()) {
          await gateway.stop();
          const file = mainThreadProfile(join(profileDir, `gateway${g}`));
          if (file) profiles[`gateway${g}Profile`] = summarizeProfile(file, ROOT);
        }
      }
      return {
        figures: {
          streams: STREAMS,
          formsOnlyStreams: FORMS_ONLY_STREAMS,
          offeredRatePerSecond: RATE,
          offered: total,
          sentRatePerSecond: round(total / Math.max(sendSeconds, 1e-3), 1),
          sendLagP99Ms: round(percentile(lags, 99), 1),
          acknowledged: acknowledged.size,
          acknowledgedRatePerSecond: round(acknowledged.size / Math.max((lastAckAt - started) / 1000, 1e-3), 1),
          refused,
          deliveries,
          missing,
          duplicates,
          submissionEventsOnFormsOnlyStreams: unexpected,
          commitToStreamP50Ms: p50,
          commitToStreamP99Ms: p99,
          ackToStreamP50Ms: round(percentile(fromAck, 50), 1),
          ackToStreamP99Ms: round(percentile(fromAck, 99), 1),
          benchEventLoopDelayP99Ms: round(loopDelay.percentile(99) / 1e6, 1),
          gatewayCpuSeconds: gatewayCpu,
          gatewayCpuShareOfPhase: gatewayCpu.map((s) => (s === null ? null : round(s / phaseSeconds, 2))),
          loadAverage1m: [round(loadBefore, 2), round(loadAfter, 2)],
          oldestTransactionHoldingAnId: oldestTransaction,
          gatewayRssIdleMb: idleRss.map((mb) => round(mb, 1)),
          gatewayRssWithStreamsMb: openRss.map((mb) => round(mb, 1)),
          rssPerOpenStreamKb: rssPerStreamKb,
          ratiosWithoutStreams: without,
          ratiosWithStreams: withStreams,
          formsListRatioWithOverWithout: listChange,
          ingestRatioWithOverWithout: ingestChange,
          ...profiles,
        },
        targets: [
          { name: 'every stream gets every event it may see exactly once', target: '0 missing, 0 duplicate, 0 unseen kind', value: exact ? 1 : 0, holds: exact },
          { name: `ingest held at ${RATE}/s (acknowledged / offered)`, target: '>= 0.99', value: ratio(acknowledged.size, total), holds: holds(ratio(acknowledged.size, total), (v) => v >= 0.99) },
          { name: 'commit → stream p99 (ms, from createdAt)', target: '<= 1000', value: p99, holds: holds(p99, (v) => v <= 1000) },
          { name: 'commit → stream p50 (ms, from createdAt)', target: '<= 100', value: p50, holds: holds(p50, (v) => v <= 100) },
          { name: 'forms list ratio with 50 streams open / without', target: '>= 0.9', value: listChange, holds: holds(listChange, (v) => v >= 0.9) },
          { name: 'ingest ratio with 50 streams open / without', target: '>= 0.9', value: ingestChange, holds: holds(ingestChange, (v) => v >= 0.9) },
        ],
        notes: [
          `streams: commit → stream per (stream, event) pair, from the event's createdAt (set by the gateway just before its insert: an upper bound) and from its 201 reaching the bench (a lower bound). The ingest is open loop at ${RATE}/s (sentRatePerSecond: what the bench managed to send; refused: answers other than 201, 503 being the gateways' load shedding).`,
          `streams: RSS per open stream: the two gateways' VmRSS with ${STREAMS} idle streams open minus before, divided by ${STREAMS} (noisy: GC). Ratios: gateway 0 against the main stage's references (forms list: handwritten-counters; ingest: handwritten), interleaved, first with no stream open, then with the ${STREAMS} open (the ingest's events flowing to them); "with / without" is 1 when the streams cost the list and ingest nothing. With the streams open their clients (a thread of the bench) only read the bytes: parsing every message is the paced phase's check, and a client's CPU is not the gateway's machine's in production. ingestCpuMsPerRequest splits the CPU per ingest of gateway 0: its own, the other gateway's (serving its 25 streams), the bench's.`,
        ],
      };
    } finally {
      await consumers?.close();
      await agent.close().catch(() => undefined);
      for (const child of children) await child.stop();
    }
  },
};
