import { z } from 'zod';
import { validationFailed } from '../errors.js';
import { targetUrlProblem } from '../infra/outbound-fetch.js';

/**
 * Validates with a zod schema; failures become 400 `validation_failed` with `fields: [{ field, message }]`.
 * `root` names a problem with the value itself (not one of its members).
 */
export function parseInput<Schema extends z.ZodType>(schema: Schema, value: unknown, root = '(body)'): z.output<Schema> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw validationFailed(
    result.error.issues.map((issue) => ({
      field: issue.path.length ? issue.path.join('.') : (issue.code === 'unrecognized_keys' ? issue.keys.join(',') : root),
      message: issue.message,
    })),
  );
}

/** Canonical ids (decisions §5): 1 … 2147483647, PostgreSQL's int4. The one rule for every id, whatever carries it. */
export const MAX_ID = 2_147_483_647;

/** An id given as a JSON number, every failure reading `message` (zod's own wording otherwise). */
export const idNumberWith = (message?: string) => {
  const error = message === undefined ? undefined : { error: message };
  return z.number(error).int(error).min(1, error).max(MAX_ID, error);
};
export const idNumber = idNumberWith();

/** An id given as text (path, query string, CLI argument): canonical decimal only, so `01`, `+1`, `1e3`, `1.0` are not ids. */
export const idTextWith = (message?: string) => {
  const error = message === undefined ? undefined : { error: message };
  return z.string(error).regex(/^[1-9][0-9]{0,9}$/, error).transform(Number).pipe(idNumberWith(message));
};
export const idText = idTextWith();

export function parseIdText(raw: string | undefined): number | null {
  const result = idText.safeParse(raw);
  return result.success ? result.data : null;
}

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
