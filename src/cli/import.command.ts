import { readFile } from 'node:fs/promises';
import { importFixture, parseFixture } from '../fixtures/fixture-import.js';
import { parse } from './args.js';
import { CliError } from './cli-error.js';
import type { Action } from './command.js';

const IMPORT = 'import FILE';
export const IMPORT_USAGE = [IMPORT];

/** Reads and validates the fixture before the database is opened, so a bad file costs no lock or migration. */
export async function importCommand(args: string[]): Promise<Action> {
  const file = parse(args, {}, ['FILE'], IMPORT).positionals[0] ?? '';
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new CliError('not_found', `Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? 'read error'}`);
  }
  let fixture: unknown;
  try {
    fixture = JSON.parse(text);
  } catch {
    // The parser's message quotes the text around the error, which may be a hidden value: keep it out.
    throw new CliError('invalid_json', `${file} is not valid JSON`);
  }
  parseFixture(fixture);
  return ({ prisma, hasher, phi }) => importFixture(prisma, hasher, fixture, { sealFormData: (formData) => phi.encrypt(formData) });
}
