import { readFileSync } from 'node:fs';
import pg from 'pg';

/**
 * PostgreSQL CPU spent for one database over a stretch of time: the user + system time of its backends, read from
 * /proc (PostgreSQL on this machine, Linux; null otherwise). Backends are looked up every `everyMs` (pools open and
 * close connections meanwhile); one that ends between two samples loses at most that interval's time.
 */

/** CPU time (user + system) a process has used so far, in ms, from /proc; null when it cannot be read. */
export function cpuMs(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime are fields 14 and 15 of the whole line, in clock ticks (100 per second on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

export interface BackendCpu {
  /** Stops sampling; the CPU ms the database's backends (this sampler's own excluded) used since the start, or null. */
  stop(): Promise<number | null>;
}

/** `clientPorts`: only the backends whose client connected from one of these local ports (a proxy's, sql-counter.ts). */
export async function measureBackendCpu(url: string, everyMs = 200, clientPorts?: () => ReadonlySet<number>): Promise<BackendCpu> {
  const database = new URL(url).pathname.slice(1);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  // pid → [CPU when first seen, CPU last seen]; backends already there count from now, new ones from 0.
  const seen = new Map<number, [number, number]>();
  // No backend's /proc entry read at all: PostgreSQL runs elsewhere (one that ended since the lookup is skipped).
  let readable = false;
  const sample = async (first: boolean): Promise<void> => {
    const { rows } = await client.query<{ pid: number; port: number | null }>(
      'SELECT pid, client_port AS port FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [database],
    );
    const ports = clientPorts?.();
    for (const { pid, port } of rows) {
      if (ports && (port === null || !ports.has(port))) continue;
      const now = cpuMs(pid);
      if (now === null) continue;
      readable = true;
      const known = seen.get(pid);
      if (known) known[1] = now;
      else seen.set(pid, [first ? now : 0, now]);
    }
  };
  await sample(true);
  let running = true;
  const loop = (async () => {
    while (running) {
      await new Promise((resolve) => setTimeout(resolve, everyMs));
      await sample(false).catch(() => undefined);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await sample(false).catch(() => undefined);
      await client.end();
      if (!readable) return null;
      let total = 0;
      for (const [from, to] of seen.values()) total += to - from;
      return total;
    },
  };
}
