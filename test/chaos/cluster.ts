import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { PgBoss } from 'pg-boss';
import type { TestHttpsServer } from '../support/https-server.js';
import { Balancer, type Replica } from './balancer.js';
import { SUBSCRIPTION_PATHS } from './receiver.js';
import { killAll, killHard, runCli, startProcess, type Role, type ServiceProcess } from './processes.js';

/**
 * The multi-replica topology of the README, as real processes: gateways (`src/main.ts`, WORKERS_IN_PROCESS=false,
 * MIGRATE_ON_START=false) and workers (`src/worker/main.ts`), all on one PostgreSQL database and one Redis, with
 * outbound fetches widened to the local HTTPS receiver only (OUTBOUND_TEST_RESOLVE / OUTBOUND_TEST_CA).
 */

export interface ClusterOptions {
  /** This run's own database (already created; migrated by the seeding CLI run when it is not). */
  databaseUrl: string;
  /** Without it, every gateway counts budgets in-process (enough where budgets are not the point). */
  redisUrl?: string;
  receiver: TestHttpsServer;
  gateways?: number;
  workers?: number;
  /** Extra environment for every process (e.g. SHUTDOWN_DELAY_MS). */
  env?: Record<string, string>;
  /** Budget of the load key; the budget key gets `budgetPerHour`. */
  budgetPerHour?: number;
  /**
   * Test-only: jobs expire after this many seconds and a supervisor process-side pass runs every second, so that
   * the jobs a killed worker held come back within the test's bound (production: 60 s expiry, 30 s passes).
   */
  fastRecoverySeconds?: number;
  /** Subscribe the receiver at start (default true); otherwise call `subscribe()` when deliveries should begin. */
  subscribeAtStart?: boolean;
}

export interface Seeded {
  accountId: number;
  formId: number;
  loadKey: string;
  budgetKey: string;
  budgetKeyId: number;
  budgetPerHour: number;
  /** Subscription path on the receiver → its signing secret. */
  subscriptions: Map<string, { id: number; secret: string }>;
}

interface ImportedMap {
  accounts: Record<string, { id: number; apiKeys: Record<string, { id: number; key: string }>; forms: Record<string, { id: number }> }>;
}

export class Cluster {
  readonly gateways: ServiceProcess[] = [];
  readonly workers: ServiceProcess[] = [];
  readonly replicas: Replica[] = [];
  readonly balancer: Balancer;
  readonly secretKey = randomBytes(32).toString('base64');
  readonly dataDir = mkdtempSync(join(tmpdir(), 'wg-chaos-'));
  private readonly everyProcess = new Set<ServiceProcess>();
  private supervisor: PgBoss | null = null;
  seeded: Seeded | null = null;

  constructor(
    readonly options: ClusterOptions,
    balancerOptions: ConstructorParameters<typeof Balancer>[1] = {},
  ) {
    for (let i = 0; i < (options.gateways ?? 2); i++) this.replicas.push({ name: `gateway-${i + 1}`, baseUrl: '', ready: false });
    this.balancer = new Balancer(this.replicas, balancerOptions);
  }

  get env(): Record<string, string> {
    const { receiver } = this.options;
    return {
      DATABASE_URL: this.options.databaseUrl,
      REDIS_URL: this.options.redisUrl ?? '',
      SECRET_KEY: this.secretKey,
      DATA_DIR: this.dataDir,
      NODE_ENV: 'test',
      MIGRATE_ON_START: 'false',
      WORKERS_IN_PROCESS: 'false',
      LOG_REQUESTS: 'false',
      OUTBOUND_TEST_RESOLVE: receiver.resolveFor('receiver.test'),
      OUTBOUND_TEST_CA: receiver.caFile,
      ...this.options.env,
    };
  }

  /** Migrates and seeds through the admin CLI (one process), then starts every process, then subscribes. */
  async start(): Promise<void> {
    if (!(await offsetKeyIds(this.options.databaseUrl))) {
      await runCli(['migrate'], { DATABASE_URL: this.options.databaseUrl, SECRET_KEY: this.secretKey, DATA_DIR: this.dataDir });
      await offsetKeyIds(this.options.databaseUrl);
    }
    this.seeded = await this.seed();
    const gateways = this.replicas.map((_, i) => this.startGateway(i));
    const workers = Array.from({ length: this.options.workers ?? 2 }, (_, i) => this.startWorker(i));
    await Promise.all([...gateways, ...workers]);
    if (this.options.fastRecoverySeconds) await this.startSupervisor(this.options.fastRecoverySeconds);
    this.balancer.startProbing();
    await this.waitReady();
    if (this.options.subscribeAtStart ?? true) await this.subscribe();
  }

  private async seed(): Promise<Seeded> {
    const budgetPerHour = this.options.budgetPerHour ?? 30;
    const fixture = {
      accounts: [
        {
          ref: 'chaos',
          name: 'Chaos',
          kind: 'organization',
          plan: 'pro',
          ownerEmail: null,
          apiKeys: [
            { ref: 'load', scopes: ['read:forms', 'write:forms', 'read:submissions', 'write:submissions'], rateLimitPerHour: 1_000_000 },
            { ref: 'budget', scopes: ['read:forms'], rateLimitPerHour: budgetPerHour },
          ],
          sites: [
            {
              ref: 'main',
              domain: 'chaos.example',
              environment: 'production',
              verified: true,
              method: 'dns_txt',
              forms: [{ ref: 'orders', name: 'Orders', type: 'standard', fields: [{ id: 'key', type: 'text', label: 'key' }] }],
            },
          ],
        },
      ],
    };
    const file = join(this.dataDir, 'fixture.json');
    writeFileSync(file, JSON.stringify(fixture));
    const map = await runCli<ImportedMap>(['import', file], { DATABASE_URL: this.options.databaseUrl, SECRET_KEY: this.secretKey, DATA_DIR: this.dataDir });
    const account = map.accounts.chaos;
    const load = account?.apiKeys.load;
    const budget = account?.apiKeys.budget;
    const form = account?.forms.orders;
    if (!account || !load || !budget || !form) throw new Error(`unexpected import output: ${JSON.stringify(map)}`);
    return { accountId: account.id, formId: form.id, loadKey: load.key, budgetKey: budget.key, budgetKeyId: budget.id, budgetPerHour, subscriptions: new Map() };
  }

  /** POST /v1/webhooks for each receiver path; events recorded from now on are delivered there. */
  async subscribe(): Promise<void> {
    const seeded = this.requireSeeded();
    for (const path of SUBSCRIPTION_PATHS) {
      const body = { url: `https://receiver.test${path}`, event: 'submission.created', ...(path === '/hooks/form' ? { formId: seeded.formId } : {}) };
      const response = await this.balancer.request('/v1/webhooks', {
        method: 'POST',
        headers: { authorization: `Bearer ${seeded.loadKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const created = response.body as { id?: number; secret?: string };
      if (response.status !== 201 || typeof created.secret !== 'string' || typeof created.id !== 'number') {
        throw new Error(`POST /v1/webhooks answered ${response.status}: ${JSON.stringify(response.body)}`);
      }
      seeded.subscriptions.set(path, { id: created.id, secret: created.secret });
    }
  }

  requireSeeded(): Seeded {
    if (!this.seeded) throw new Error('the cluster is not seeded yet');
    return this.seeded;
  }

  async startGateway(index: number): Promise<ServiceProcess> {
    const replica = this.replicas[index];
    if (!replica) throw new Error(`no gateway ${index}`);
    const gateway = await this.track('gateway', replica.name);
    this.gateways[index] = gateway;
    replica.baseUrl = gateway.baseUrl;
    return gateway;
  }

  async startWorker(index: number): Promise<ServiceProcess> {
    const worker = await this.track('worker', `worker-${index + 1}`);
    this.workers[index] = worker;
    return worker;
  }

  private async track(role: Role, name: string): Promise<ServiceProcess> {
    const started = await startProcess(role, name, this.env);
    this.everyProcess.add(started);
    // Every process resets the queues' settings to production's when it starts: put the test's back.
    if (this.supervisor && this.options.fastRecoverySeconds) await this.shortenExpiry(this.supervisor, this.options.fastRecoverySeconds);
    return started;
  }

  /** kill -9 of a gateway: its replica is forgotten until restarted (the balancer would find out anyway). */
  async killGateway(index: number): Promise<void> {
    const gateway = this.gateways[index];
    const replica = this.replicas[index];
    if (!gateway || !replica) return;
    await killHard(gateway);
    replica.ready = false;
  }

  async killWorker(index: number): Promise<void> {
    const worker = this.workers[index];
    if (worker) await killHard(worker);
  }

  /** Resolves once every gateway answers /readyz 200 (bounded). */
  async waitReady(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.replicas.every((replica) => replica.ready)) {
      if (Date.now() > deadline) throw new Error(`replicas not ready: ${JSON.stringify(this.replicas)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  private async startSupervisor(seconds: number): Promise<void> {
    // Runs pg-boss's expiry pass every second over the shared queues; it takes no jobs itself.
    const supervisor = new PgBoss({
      connectionString: this.options.databaseUrl,
      schedule: false,
      superviseIntervalSeconds: 1,
      monitorIntervalSeconds: 1,
      monitorVacuum: false,
      reindex: false,
      max: 2,
    });
    supervisor.on('error', () => undefined);
    await supervisor.start();
    this.supervisor = supervisor;
    await this.shortenExpiry(supervisor, seconds);
  }

  private async shortenExpiry(supervisor: PgBoss, seconds: number): Promise<void> {
    for (const name of ['event.fanout', 'webhook.deliver', 'email.send']) {
      await supervisor.updateQueue(name, { expireInSeconds: seconds, retryDelay: 1 });
    }
  }

  /** The last output lines of every process started, for failure messages. */
  tails(lines = 15): Record<string, string> {
    return Object.fromEntries([...this.everyProcess].map((p, i) => [`${p.name}#${i}${p.running ? '' : ' (ended)'}`, p.output().split('\n').slice(-lines).join('\n')]));
  }

  async stop(): Promise<void> {
    this.balancer.stop();
    await killAll(this.everyProcess);
    await this.supervisor?.stop({ graceful: false, close: true }).catch(() => undefined);
  }
}

/**
 * Redis buckets are named after key ids (`rl:key:<id>`), and every test database numbers its keys from 1: other
 * files sharing the Redis database would share this file's budget. Keys here start at a random high id instead.
 */
async function offsetKeyIds(databaseUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`SELECT setval(pg_get_serial_sequence('"ApiKey"', 'id'), $1::bigint, false)`, [randomInt(1_000_000, 2_000_000_000)]);
    return true;
  } catch (error) {
    // A database not migrated yet has no table: false, the caller migrates first.
    if (error instanceof Error && /does not exist/.test(error.message)) return false;
    throw error;
  } finally {
    await client.end();
  }
}
