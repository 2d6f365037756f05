import { FixtureJsonError, importFixtureFile, readFixtureFile } from '../fixtures/fixture-import.js';
import { parse } from './args.js';
import { CliError } from './cli-error.js';
import type { Action } from './command.js';

const IMPORT = 'import FILE';
export const IMPORT_USAGE = [IMPORT];

/**
 * Reads and validates the whole fixture before the database is opened, so a bad file costs no lock or migration;
 * the file is streamed (read twice: to validate, then to write), so its size does not bound memory.
 */
export async function importCommand(args: string[]): Promise<Action> {
  const file = parse(args, {}, ['FILE'], IMPORT).positionals[0] ?? '';
  let fixture;
  try {
    fixture = await readFixtureFile(file);
  } catch (error) {
    if (error instanceof FixtureJsonError) throw new CliError('invalid_json', error.message);
    const { syscall, code } = error as NodeJS.ErrnoException;
    if (syscall !== undefined) throw new CliError('not_found', `Cannot read ${file}: ${code ?? 'read error'}`);
    throw error;
  }
  return ({ prisma, hasher, phi }) => importFixtureFile(prisma, hasher, fixture, { sealFormData: (formData) => phi.encrypt(formData) });
}
