import type { Database } from '../../infra/db.js';
import { sql, sqlBuilder } from '../../infra/sql.js';
import type { PhiCipher } from '../../infra/phi-crypto.js';
import type { EmailMatcher } from '../../infra/secrets.js';
import { readFormData } from '../../domain/submissions/submissions.service.js';
import { eraseSubmissions } from '../../domain/submissions/erasure.service.js';
import type { ErasureJob } from '../../domain/submissions/erasure-requests.service.js';
import { isPlainObject } from '../../domain/validation.js';

/**
 * The `erasure.run` handler (contract §6.3): walks the request's account's submissions by id, a batch per
 * transaction, and erases each whose formData has a value equal to the address (trimmed, case-insensitive:
 * compared by keyed hash, the only form the request keeps). A batch commits its erasures together with the
 * request's progress (`cursorId`, `submissionsErased`), so a worker killed mid-run loses only its open batch,
 * which the retried job does again from the committed cursor: nothing is erased twice or skipped.
 *
 * A submission stored after the walk passed its id is not examined: the request covers what the account held
 * when it ran. A PHI row that cannot be decrypted fails the batch (and the job retries) rather than be skipped.
 */

export interface ErasureJobDeps {
  db: Database;
  phi: PhiCipher;
  /** Under SECRET_KEY and the previous keys: the request may predate a rotation. */
  matchesEmail: EmailMatcher;
  batchSize: number;
}

function holdsAddress(formData: unknown, emailHash: string, matchesEmail: EmailMatcher): boolean {
  if (!isPlainObject(formData)) return false;
  return Object.values(formData).some((value) => typeof value === 'string' && value.includes('@') && matchesEmail(value, emailHash));
}

/** One batch; returns false when the request is done. */
async function eraseNextBatch(deps: ErasureJobDeps, requestId: number): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    // Locked: two copies of the job (a retry racing a slow worker) take batches in turn, never the same one.
    const [request] = await tx.sql(
      sqlBuilder.selectFrom('ErasureRequest').select(['accountId', 'apiKeyId', 'emailHash', 'status', 'cursorId']).where('id', '=', requestId).forUpdate(),
    );
    if (!request || request.status === 'done') return false;
    const rows = await tx.sql(
      sqlBuilder
        .selectFrom('Submission')
        .select(['id', 'formData', 'formDataCiphertext', 'formDataKeyId'])
        .where('accountId', '=', request.accountId)
        .where('id', '>', request.cursorId)
        .orderBy('id')
        .limit(deps.batchSize),
    );
    const last = rows.at(-1);
    if (!last) {
      await tx.sql(sqlBuilder.updateTable('ErasureRequest').set({ status: 'done', completedAt: sql<Date>`now()` }).where('id', '=', requestId));
      return false;
    }
    const matching = rows.filter((row) => holdsAddress(readFormData(deps.phi, row), request.emailHash, deps.matchesEmail)).map((row) => row.id);
    const erased = await eraseSubmissions(tx, { accountId: request.accountId, apiKeyId: request.apiKeyId }, matching);
    await tx.sql(
      sqlBuilder
        .updateTable('ErasureRequest')
        .set((eb) => ({ status: 'running', cursorId: last.id, submissionsErased: eb('submissionsErased', '+', erased.length) }))
        .where('id', '=', requestId),
    );
    return true;
  });
}

export async function runErasureRequest(deps: ErasureJobDeps, job: ErasureJob): Promise<void> {
  while (await eraseNextBatch(deps, job.requestId));
}

export function createErasureJobHandler(deps: ErasureJobDeps): (job: ErasureJob) => Promise<void> {
  return (job) => runErasureRequest(deps, job);
}
