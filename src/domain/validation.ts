import { z } from 'zod';
import { validationFailed } from '../errors.js';

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

export const httpsUrl = z
  .string()
  .max(2048)
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'https:' && Boolean(url.hostname);
    } catch {
      return false;
    }
  }, 'must be an absolute https URL');

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
