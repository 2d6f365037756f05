import { parseArgs, type ParseArgsConfig } from 'node:util';
import { AppError } from '../errors.js';
import { usageError } from './cli-error.js';
import { parseIdText } from '../domain/validation.js';
import type { Action } from './command.js';

type Options = NonNullable<ParseArgsConfig['options']>;

export interface Parsed {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** node:util parseArgs, strict, with its complaints turned into usage errors. */
export function parse(args: string[], options: Options, positionals: string[], usage: string): Parsed {
  let parsed: Parsed;
  try {
    const result = parseArgs({ args, options, allowPositionals: true, strict: true });
    parsed = { values: result.values as Parsed['values'], positionals: result.positionals };
  } catch (error) {
    throw usageError(`${(error as Error).message}. Usage: ${usage}`);
  }
  if (parsed.positionals.length !== positionals.length) {
    throw usageError(`Expected ${positionals.join(' ') || 'no arguments'}. Usage: ${usage}`);
  }
  return parsed;
}

export function requireString(parsed: Parsed, name: string, usage: string): string {
  const value = parsed.values[name];
  if (typeof value !== 'string' || value === '') throw usageError(`--${name} is required. Usage: ${usage}`);
  return value;
}

export function optionalString(parsed: Parsed, name: string): string | undefined {
  const value = parsed.values[name];
  return typeof value === 'string' ? value : undefined;
}

/** Ids are canonical decimal integers 1 … 2147483647 (contract §5): the one id rule of src/domain/validation.ts. */
export function parseId(raw: string | undefined, label: string): number {
  const id = parseIdText(raw);
  if (id === null) throw usageError(`${label} must be a positive integer, got "${raw ?? ''}"`);
  return id;
}

export function invalid(field: string, message: string): AppError {
  return new AppError('validation_failed', { fields: [{ field, message }] }, { message: `Invalid ${field}: ${message}` });
}

export function oneOf<T extends string>(value: string, allowed: readonly T[], field: string): T {
  if (!(allowed as readonly string[]).includes(value)) throw invalid(field, `must be one of ${allowed.join(', ')}`);
  return value as T;
}

/**
 * A command of subcommands (`keys create …`, `keys list …`): each parses the arguments after its name; an unknown
 * or missing one is a usage error naming them all.
 */
export function subcommands(command: string, usage: string[], parsers: Record<string, (rest: string[]) => Action>): (args: string[]) => Action {
  return ([sub, ...rest]) => {
    const parser = sub !== undefined && Object.hasOwn(parsers, sub) ? parsers[sub] : undefined;
    if (!parser) throw usageError(`Unknown ${command} command "${sub ?? ''}". Usage: ${usage.join(' | ')}`);
    return parser(rest);
  };
}
