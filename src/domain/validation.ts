import { z } from 'zod';
import { AppError, validationFailed } from '../errors.js';
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

/** Canonical ids (contract §5): 1 … 2147483647, PostgreSQL's int4. The one rule for every id, whatever carries it. */
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

/**
 * How deep a JSON input may nest (objects and arrays, the outermost value counting as 1). Parsing is iterative,
 * but JSON.stringify, zod and graphql-js walk values recursively: a 51 KB body can nest 25,000 levels and
 * overflow the stack (a 500). Nothing legitimate comes close; contract §4 field elements nest 3 levels.
 */
export const MAX_JSON_DEPTH = 32;

/** PostgreSQL stores no NUL character in text or jsonb: refused as input instead of failing at the write. */
const NUL = '\u0000';

/**
 * Why a JSON string (a value or a key) cannot be stored as sent, or null. An unpaired surrogate (`"\ud800"`) is
 * valid JSON text but no Unicode: jsonb refuses it (a 500 at the write) and a text column would store U+FFFD.
 */
function stringProblem(text: string): string | null {
  if (text.includes(NUL)) return 'must not contain NUL characters';
  if (!text.isWellFormed()) return 'must not contain unpaired surrogates (\\uD800-\\uDFFF without their pair)';
  return null;
}

/** `1e400` parses as Infinity, which JSON.stringify writes as null: the value would be stored changed. */
export const NON_FINITE_NUMBER = 'must not contain numbers beyond the double range (±1.8e308)';

/**
 * The first problem of a JSON input as [top-level key ('' for the value itself), message], or null: nesting
 * deeper than `cap`, a string or key that cannot be stored as sent, or a number beyond a double. Iterative, so
 * the check itself cannot overflow.
 */
export function findJsonProblem(value: unknown, cap = MAX_JSON_DEPTH): [string, string] | null {
  const stack: { value: unknown; depth: number; field: string }[] = [{ value, depth: 1, field: '' }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    if (typeof item.value === 'string') {
      const problem = stringProblem(item.value);
      if (problem) return [item.field, problem];
      continue;
    }
    if (typeof item.value === 'number') {
      if (!Number.isFinite(item.value)) return [item.field, NON_FINITE_NUMBER];
      continue;
    }
    if (typeof item.value !== 'object' || item.value === null) continue;
    if (item.depth > cap) return [item.field, `must not nest more than ${MAX_JSON_DEPTH} levels deep`];
    for (const [key, child] of Object.entries(item.value)) {
      const field = item.depth === 1 && !Array.isArray(item.value) ? key : item.field;
      const problem = stringProblem(key);
      if (problem) return [field, problem];
      stack.push({ value: child, depth: item.depth + 1, field });
    }
  }
  return null;
}

/** 400 `validation_failed` naming the top-level field (a body key, a GraphQL variable) that breaks the JSON input rules. */
export function assertJsonInput(value: unknown, options: { requestLevel?: true } = {}): void {
  if (typeof value !== 'object' || value === null) return;
  const problem = findJsonProblem(value);
  if (problem === null) return;
  throw new AppError('validation_failed', { fields: [{ field: problem[0] || '(body)', message: problem[1] }] }, options);
}
