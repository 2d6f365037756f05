import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * The dependencies a resilience test starts for itself, each on a free port of its own: Debian's PgBouncer 1.18
 * in front of the test's PostgreSQL, and a Redis server the test may stop and start again (never the machine's
 * shared one).
 */

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function waitForPort(port: number, child: ChildProcess, log: () => string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited (${child.exitCode}) before listening:\n${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`not listening on ${port} after ${timeoutMs} ms:\n${log()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

export interface PgBouncer {
  /** DATABASE_URL through the pooler, for `databaseUrl`'s database. */
  url: string;
  /** Server connections the pooler opens per database and user (its `default_pool_size`). */
  poolSize: number;
  /** PgBouncer's SHOW POOLS rows (admin console). */
  pools(): Promise<Record<string, string | number>[]>;
  stop(): Promise<void>;
}

/**
 * PgBouncer in transaction mode on a free port, with its own ini and userlist in a temp dir. It refuses to run as
 * root, so under root (CI) it runs as `postgres`, which owns the dir; otherwise as the current user.
 */
export async function startPgBouncer(databaseUrl: string, options: { poolSize: number }): Promise<PgBouncer> {
  const target = new URL(databaseUrl);
  const user = decodeURIComponent(target.username || 'postgres');
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'wg-pgbouncer-'));
  const server = [`host=${target.hostname}`, `port=${target.port || '5432'}`, ...(target.password ? [`password=${decodeURIComponent(target.password)}`] : [])].join(' ');
  writeFileSync(join(dir, 'userlist.txt'), `"${user}" ""\n`);
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = ${server}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      `admin_users = ${user}`,
      'pool_mode = transaction',
      `default_pool_size = ${options.poolSize}`,
      'max_client_conn = 500',
      'ignore_startup_parameters = extra_float_digits',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      `pidfile = ${join(dir, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
  );
  const asRoot = process.getuid?.() === 0;
  let ids: { uid: number; gid: number } | undefined;
  if (asRoot) {
    ids = { uid: Number(execFileSync('id', ['-u', 'postgres']).toString()), gid: Number(execFileSync('id', ['-g', 'postgres']).toString()) };
    for (const file of ['', 'userlist.txt', 'pgbouncer.ini']) chownSync(join(dir, file), ids.uid, ids.gid);
  }
  const child = spawn('/usr/sbin/pgbouncer', [join(dir, 'pgbouncer.ini')], { stdio: 'ignore', ...(ids ?? {}) });
  const log = (): string => {
    try {
      return readFileSync(join(dir, 'pgbouncer.log'), 'utf8').slice(-3000);
    } catch {
      return '(no log)';
    }
  };
  await waitForPort(port, child, log);
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  url.password = '';
  return {
    url: url.toString(),
    poolSize: options.poolSize,
    async pools() {
      const admin = new pg.Client({ host: '127.0.0.1', port, user, database: 'pgbouncer' });
      await admin.connect();
      try {
        return (await admin.query('SHOW POOLS')).rows as Record<string, string | number>[];
      } finally {
        await admin.end();
      }
    },
    stop: () => stopChild(child, 'SIGINT'),
  };
}

export interface RedisServer {
  url: string;
  /** SIGKILL: the server is gone at once, as in a crash (it keeps nothing: no persistence). */
  kill(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  let output = '';
  const start = async (): Promise<void> => {
    output = '';
    const started = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
    started.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    started.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child = started;
    await waitForPort(port, started, () => output);
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    kill: async () => {
      if (child) await stopChild(child, 'SIGKILL');
    },
    start,
    stop: async () => {
      if (child) await stopChild(child, 'SIGKILL');
    },
  };
}
