import pg from 'pg';

/**
 * Where a delivery's time went, hop by hop, from what the run left in the database (WEBHOOKS_HOPS=1): the outbox row
 * (relayed: the relay's transaction, which also writes the delivery), the delivery job (fetched), the attempt (sent),
 * and the receiver's clock (received). Database times are the statements' `now()` (a transaction's start), so a hop
 * ending in "fetched" includes the previous transaction's work, its commit and the wake-up. Every clock is this
 * machine's, compared as epoch milliseconds.
 */

const HOPS = ['ack→relayed', 'relayed→delivery fetched', 'delivery fetched→sent', 'sent→received'] as const;

export interface HopFigures {
  /** Per hop: p50 and p99 over all submissions (ms). */
  hops: Record<string, { p50: number; p99: number }>;
  /** Per hop: mean over the slowest 1 % of submissions (ms): where the tail's time went. */
  tail: Record<string, number>;
  /** When the slowest 1 % were acknowledged, in s from the first acknowledgement (spread out, or one stall?). */
  tailAtS: number[];
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
const r1 = (value: number): number => Math.round(value * 10) / 10;

/**
 * `acknowledged` and `received`: submission id → epoch ms (the 201 at the client, the first valid delivery at the
 * receiver).
 */
export async function hopFigures(url: string, acknowledged: Map<number, number>, received: Map<number, number>): Promise<HopFigures | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // Materialized first: the jobs are found by a value in their data, which no index covers.
    const { rows } = await client.query<{ sid: number; relayed: number; fetched: number; sent: number }>(`
      WITH dj AS MATERIALIZED (SELECT (data->>'deliveryId')::int AS "deliveryId", started_on FROM pgboss.job WHERE name = 'webhook.deliver' AND data->'attempt' IS NULL)
      SELECT (o."payload"->'data'->>'id')::int AS sid,
             extract(epoch FROM o."relayedAt") * 1000 AS relayed,
             extract(epoch FROM dj.started_on) * 1000 AS fetched,
             extract(epoch FROM d."lastAttemptAt") * 1000 AS sent
      FROM "OutboxEvent" o
      JOIN "WebhookDelivery" d ON d."eventId" = o."eventId" AND d."subscriptionId" IS NULL
      JOIN dj ON dj."deliveryId" = d."id"
      WHERE o."type" = 'submission.created'`);
    const series: number[][] = HOPS.map(() => []);
    const totals: { total: number; parts: number[]; ack: number }[] = [];
    for (const row of rows) {
      const ack = acknowledged.get(Number(row.sid));
      const got = received.get(Number(row.sid));
      if (ack === undefined || got === undefined) continue;
      const points = [ack, row.relayed, row.fetched, row.sent, got].map(Number);
      const parts = HOPS.map((_, i) => points[i + 1]! - points[i]!);
      parts.forEach((value, i) => series[i]!.push(value));
      totals.push({ total: got - ack, parts, ack });
    }
    if (totals.length === 0) return null;
    totals.sort((a, b) => b.total - a.total);
    const slowest = totals.slice(0, Math.max(1, Math.floor(totals.length / 100)));
    const hops: HopFigures['hops'] = {};
    const tail: HopFigures['tail'] = {};
    HOPS.forEach((name, i) => {
      const sorted = series[i]!.sort((a, b) => a - b);
      hops[name] = { p50: r1(percentile(sorted, 50)), p99: r1(percentile(sorted, 99)) };
      tail[name] = r1(slowest.reduce((sum, { parts }) => sum + parts[i]!, 0) / slowest.length);
    });
    const first = Math.min(...acknowledged.values());
    const at = slowest.map(({ ack }) => r1((ack - first) / 1000)).sort((a, b) => a - b);
    return { hops, tail, tailAtS: [at[0]!, at[Math.floor(at.length / 2)]!, at.at(-1)!] };
  } finally {
    await client.end();
  }
}
