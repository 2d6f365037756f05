import { z } from 'zod';
import { validationFailed } from '../errors.js';
import { targetUrlProblem } from '../infra/outbound-fetch.js';

/** Validates with a zod schema; failures become 400 `validation_failed` with `fields: [{ field, message }]`. */
export function parseInput<Schema extends z.ZodType>(schema: Schema, value: unknown): z.output<Schema> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw validationFailed(
    result.error.issues.map((issue) => ({
      field: issue.path.length ? issue.path.join('.') : (issue.code === 'unrecognized_keys' ? issue.keys.join(',') : '(body)'),
      message: issue.message,
    })),
  );
}

/** Canonical ids: 1 … 2147483647 (PostgreSQL int4). */
export const MAX_ID = 2_147_483_647;
export const idNumber = z.number().int().min(1).max(MAX_ID);

/**
 * A URL the service will POST to (a form's `webhookUrl`): the outbound-fetch rules that need no DNS, checked
 * at the door (https, port 443, no credentials, no refused IP literal).
 */
export const httpsUrl = z
  .string()
  .max(2048)
  .superRefine((value, context) => {
    const problem = targetUrlProblem(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
