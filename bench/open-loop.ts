import http from 'node:http';

/**
 * An open-loop load: requests sent at a steady `rate` whatever the answers do (autocannon's overallRate is a
 * per-second quota per connection, spent in a burst at the start of each second: a burst that a shedding server
 * refuses in a few ms, after which nothing arrives until the next second). Each answer's latency counts from when
 * its request was due, so a generator that falls behind does not hide it (coordinated omission).
 */
export interface OpenLoopResult {
  sent: number;
  durationS: number;
  statuses: Record<string, number>;
  /** Latencies (ms, sorted) by status. */
  latencies: Map<number, Float64Array>;
  /** Answers carrying `Retry-After`, by status. */
  retryAfter: Record<string, number>;
}

export async function openLoop(options: { url: string; path: string; headers: Record<string, string>; rate: number; durationS: number }): Promise<OpenLoopResult> {
  const target = new URL(options.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 2048 });
  const intervalMs = 1000 / options.rate;
  const total = Math.round(options.rate * options.durationS);
  const statuses: Record<string, number> = {};
  const retryAfter: Record<string, number> = {};
  const byStatus = new Map<number, number[]>();
  const answers: Promise<void>[] = [];
  const fire = (dueAt: number): Promise<void> =>
    new Promise<void>((resolve) => {
      const request = http.request({ agent, host: target.hostname, port: target.port, path: options.path, headers: options.headers }, (response) => {
        response.resume();
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          statuses[status] = (statuses[status] ?? 0) + 1;
          if (response.headers['retry-after'] !== undefined) retryAfter[status] = (retryAfter[status] ?? 0) + 1;
          let list = byStatus.get(status);
          if (!list) byStatus.set(status, (list = []));
          list.push(performance.now() - dueAt);
          resolve();
        });
      });
      request.on('error', () => {
        statuses.error = (statuses.error ?? 0) + 1;
        resolve();
      });
      request.end();
    });
  const started = performance.now();
  let sent = 0;
  await new Promise<void>((resolve) => {
    const tick = (): void => {
      const due = Math.min(total, Math.floor((performance.now() - started) / intervalMs) + 1);
      while (sent < due) answers.push(fire(started + sent++ * intervalMs));
      if (sent >= total) resolve();
      else setTimeout(tick, 1);
    };
    tick();
  });
  await Promise.all(answers);
  agent.destroy();
  const latencies = new Map([...byStatus].map(([status, list]) => [status, Float64Array.from(list).sort()]));
  return { sent, durationS: options.durationS, statuses, latencies, retryAfter };
}
