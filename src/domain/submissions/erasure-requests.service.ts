import type { Config } from '../../config.js';
import type { DriverSql, SqlExecutor } from '../../infra/db-driver.js';
import { notFound, validationFailed } from '../../errors.js';
import type { ErasureStatus } from '../../generated/prisma/client.js';
import { sqlBuilder } from '../../infra/sql.js';
import { createEmailHasher } from '../../infra/secrets.js';
import { QUEUE, type JobQueue } from '../../infra/jobs.js';
import { isEmailAddress } from '../webhooks/events.service.js';
import type { Eraser } from './erasure.service.js';

/**
 * Erasure by email (contract §6.3): `POST /erasure-requests` stores the request (a keyed hash of the address,
 * never the address) and its `erasure.run` job in ONE transaction; the job (src/worker/jobs/erasure.job.ts)
 * erases the account's matching submissions; `GET /erasure-requests/{id}` follows it.
 */

/*
 * One way of writing an erasure request: ErasureRequest rows are written through src/infra/sql.ts only (here and
 * by the job's batches, each in the transaction of its erasures), never through Prisma.
 */

export interface ErasureRequestView {
  id: number;
  status: ErasureStatus;
  submissionsErased: number;
  createdAt: Date;
  completedAt: Date | null;
}

export interface ErasureJob {
  requestId: number;
}

const MAX_EMAIL_LENGTH = 254;

/** The address as the request gives it: a string that, trimmed, is an address (the job compares case-insensitively). */
export function parseErasureEmail(value: unknown): string {
  if (typeof value !== 'string' || value.length > MAX_EMAIL_LENGTH || !isEmailAddress(value.trim())) {
    throw validationFailed([{ field: 'email', message: 'must be an email address' }]);
  }
  return value;
}

const VIEW = ['id', 'status', 'submissionsErased', 'createdAt', 'completedAt'] as const;

export async function createErasureRequest(deps: { db: DriverSql; queue: JobQueue; config: Pick<Config, 'secretKey'> }, eraser: Eraser, email: unknown): Promise<ErasureRequestView> {
  const emailHash = createEmailHasher(deps.config.secretKey)(parseErasureEmail(email));
  return deps.db.transaction(async (tx) => {
    const [request] = await tx.sql(
      sqlBuilder.insertInto('ErasureRequest').values({ accountId: eraser.accountId, apiKeyId: eraser.apiKeyId, emailHash }).returning(VIEW),
    );
    if (!request) throw new Error('the erasure request insert returned no row');
    // The job commits with the request: a request is never left without its run, nor a run without its request.
    await deps.queue.enqueueInTransaction<ErasureJob>(tx, QUEUE.erasureRun, [{ data: { requestId: request.id } }]);
    return request;
  });
}

export async function getErasureRequestOrThrow(deps: { db: SqlExecutor }, accountId: number, id: number): Promise<ErasureRequestView> {
  const [request] = await deps.db.sql(sqlBuilder.selectFrom('ErasureRequest').select(VIEW).where('id', '=', id).where('accountId', '=', accountId));
  if (!request) throw notFound('erasure_request');
  return request;
}
