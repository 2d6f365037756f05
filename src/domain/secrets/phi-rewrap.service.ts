import type { Database } from '../../infra/db.js';
import type { PhiCipher } from '../../infra/phi-crypto.js';
import { PhiDecryptError } from '../../infra/phi-crypto.js';
import { sql, sqlBuilder } from '../../infra/sql.js';

/** Rows per transaction: bounded, so a large table never holds one long transaction and its locks. */
export const REWRAP_BATCH = 500;

export class UnknownPhiKeyError extends Error {
  constructor(readonly keyIds: string[]) {
    super(`PHI rows are wrapped by key ids no configured key opens (${keyIds.join(', ')}): add the SECRET_KEY that wrote them to SECRET_KEY_PREVIOUS`);
    this.name = 'UnknownPhiKeyError';
  }
}

export class PhiRowUnreadableError extends Error {
  constructor(readonly submissionId: number) {
    super(`Submission ${submissionId} names a configured key but does not decrypt (damaged or tampered ciphertext); it was left as it is`);
    this.name = 'PhiRowUnreadableError';
  }
}

/** The sealed rows under another key than `keyId`. */
const sealedUnder = (keyId: string) => sqlBuilder.selectFrom('Submission').where('formDataKeyId', 'is not', null).where('formDataKeyId', '<>', keyId);

/**
 * Moves every PHI row (Submission.formDataCiphertext, the only table holding PHI ciphertext) to the current master
 * key: only the data key is re-wrapped, batch by batch, each batch in one transaction. Idempotent: rows already
 * under the current key are never selected. Refuses before writing anything when some row's key is not configured.
 */
export async function rewrapPhi(db: Database, phi: PhiCipher, batchSize = REWRAP_BATCH): Promise<{ rewrapped: number; remaining: number }> {
  const keyIds = await db.sql(sealedUnder(phi.keyId).select('formDataKeyId as keyId').distinct().$narrowType<{ keyId: string }>());
  const unknown = keyIds.map((row) => row.keyId).filter((keyId) => !phi.canOpen(keyId));
  if (unknown.length) throw new UnknownPhiKeyError(unknown.sort());

  let rewrapped = 0;
  for (;;) {
    const moved = await db.transaction(async (tx) => {
      // FOR UPDATE: a concurrent run waits for this batch instead of re-wrapping the same rows twice.
      const rows = await tx.sql(
        sealedUnder(phi.keyId)
          .where('formDataCiphertext', 'is not', null)
          .select(['id', 'formDataCiphertext as ciphertext', 'formDataKeyId as keyId'])
          .$narrowType<{ ciphertext: Uint8Array; keyId: string }>()
          .orderBy('id')
          .limit(batchSize)
          .forUpdate(),
      );
      for (const row of rows) {
        let sealed: { ciphertext: Uint8Array<ArrayBuffer>; keyId: string };
        try {
          sealed = phi.rewrap(new Uint8Array(row.ciphertext), row.keyId);
        } catch (error) {
          if (error instanceof PhiDecryptError) throw new PhiRowUnreadableError(row.id);
          throw error;
        }
        await tx.sql(
          sqlBuilder
            .updateTable('Submission')
            .set({ formDataCiphertext: Buffer.from(sealed.ciphertext), formDataKeyId: sealed.keyId })
            .where('id', '=', row.id)
            .where('formDataKeyId', '=', row.keyId),
        );
      }
      return rows.length;
    });
    rewrapped += moved;
    if (moved < batchSize) break;
  }
  const [left] = await db.sql(sealedUnder(phi.keyId).select(sql<number>`count(*)::int`.as('count')));
  return { rewrapped, remaining: left?.count ?? 0 };
}
