/**
 * One of the two server processes of the cross-process rate-limit test (rate-limit-store.test.ts): it connects
 * to Redis, says `ready`, waits for `go` on stdin so that both processes fire at the same moment, sends `hits`
 * concurrent hits at one shared bucket, and prints `{"allowed":N}`.
 *
 * Usage: node --import tsx hit-shared-bucket.script.ts <redisUrl> <keyPrefix> <bucket> <limit> <hits>
 */
import { createInterface } from 'node:readline';
import { RedisRateLimitStore } from '../../src/infra/rate-limit.js';

const [redisUrl, keyPrefix, bucket, limitArg, hitsArg] = process.argv.slice(2);
if (!redisUrl || !keyPrefix || !bucket || !limitArg || !hitsArg) throw new Error('usage: <redisUrl> <keyPrefix> <bucket> <limit> <hits>');
const limit = Number(limitArg);
const hits = Number(hitsArg);

const store = await RedisRateLimitStore.connect(redisUrl, { keyPrefix });
// Connected, and the script loaded before `go`, so the first hits do not race on a NOSCRIPT retry.
await store.hit(`${bucket}:warm-up`, 1, 60_000);
process.stdout.write('ready\n');

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line.trim() === 'go') break;
}
lines.close();

const results = await Promise.all(Array.from({ length: hits }, () => store.hit(bucket, limit, 60_000)));
const allowed = results.filter((result) => result.allowed).length;
process.stdout.write(`${JSON.stringify({ allowed, minRemaining: Math.min(...results.map((r) => r.remaining)) })}\n`);
await store.close();
