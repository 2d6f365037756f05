/**
 * The worker's statements sorted by what they are for (the pipeline-cost run, pipeline-cost.ts, and the test that
 * counts a worker's statements per ingest, test/worker/statements-per-ingest.test.ts).
 */

/**
 * What a statement is for, from its text (pg-boss's fetch names its queue in the SQL, as its insert does; a completion
 * does not, and carries the deliveries' successes: 'delivery: read, record' is then the reads, and the successes of an
 * endpoint ending its failing period).
 */
export function kindOf(text: string): string {
  if (/^(BEGIN|COMMIT|ROLLBACK)\b/i.test(text)) return 'transaction control';
  if (/"OutboxEvent"/.test(text)) return 'relay: take events';
  if (/WITH ev AS|INSERT INTO "WebhookDelivery"/i.test(text)) return 'fan-out: targets, deliveries';
  // The completions of every queue, with the deliveries' successes written alongside (src/infra/job-completions.ts).
  if (/pgboss/i.test(text) && /state = 'completed'/.test(text)) return 'queue: complete jobs';
  if (/"WebhookDelivery"/.test(text)) return 'delivery: read, record';
  if (/"Submission"/.test(text)) return 'email: read';
  if (/pgboss/i.test(text)) {
    if (/INSERT INTO pgboss/i.test(text)) return 'queue: insert jobs';
    for (const queue of ['webhook.deliver', 'email.send']) if (text.includes(`'${queue}'`)) return `queue ${queue}: fetch`;
    if (/state = 'completed'/.test(text)) return 'queue: complete jobs';
    return 'queue: other (polls of other queues, maintenance)';
  }
  return 'other';
}
