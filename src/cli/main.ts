import { loadConfig, ConfigError } from '../config.js';
import { DataDirLockedError, openDatabase, type Database } from '../infra/db.js';
import { AppError, type FieldProblem } from '../errors.js';
import { migrate } from '../infra/migrations.js';
import { createKeyHasher, createPhiCipher } from '../infra/keyring.js';
import { ACCOUNTS_USAGE, accountsCommand } from './accounts.command.js';
import { CliError, usageError } from './cli-error.js';
import type { Action, CommandParser } from './command.js';
import { IMPORT_USAGE, importCommand } from './import.command.js';
import { KEYS_USAGE, keysCommand } from './keys.command.js';
import { SECRETS_USAGE, secretsCommand } from './secrets.command.js';
import { SITES_USAGE, sitesCommand } from './sites.command.js';

/** The admin CLI of contract §2: one JSON document on stdout and exit 0, or `{ error, code }` on stderr. */

const COMMANDS: Record<string, CommandParser> = {
  import: importCommand,
  accounts: accountsCommand,
  keys: keysCommand,
  sites: sitesCommand,
  secrets: secretsCommand,
  migrate: (args) => {
    if (args.length) throw usageError('migrate takes no arguments');
    return async ({ applied }) => ({ applied });
  },
};

const USAGE = [...IMPORT_USAGE, ...ACCOUNTS_USAGE, ...KEYS_USAGE, ...SITES_USAGE, ...SECRETS_USAGE, 'migrate'];

function write(stream: NodeJS.WriteStream, value: unknown): Promise<void> {
  return new Promise((resolve) => stream.write(`${JSON.stringify(value, null, 2)}\n`, () => resolve()));
}

function describeError(error: unknown): CliError {
  if (error instanceof CliError) return error;
  if (error instanceof DataDirLockedError) {
    return new CliError(
      'database_locked',
      `The server is running on this data directory (${error.dataDir}, process ${error.pid ?? 'starting'}); the embedded database serves one process at a time. ` +
        'Stop the server first, or use DATABASE_URL with PostgreSQL.',
      2,
    );
  }
  if (error instanceof ConfigError) return new CliError('config_error', error.message, 2);
  if (error instanceof AppError) {
    const fields = error.code === 'validation_failed' ? ((error.context.fields ?? []) as FieldProblem[]) : [];
    const detail = fields.map((problem) => `${problem.field}: ${problem.message}`).join('; ');
    return new CliError(error.code, detail ? `Invalid input: ${detail}` : error.message);
  }
  // Prisma's own messages can quote the query's arguments (hashes, tokens): name the failure only.
  const name = error instanceof Error ? error.name : 'Error';
  const code = (error as { code?: unknown } | null)?.code;
  if (name.startsWith('PrismaClient')) {
    // The SQLSTATE says what went wrong without quoting any value.
    const meta = (error as { meta?: { driverAdapterError?: { cause?: { originalCode?: unknown; kind?: unknown } } } }).meta;
    const cause = meta?.driverAdapterError?.cause;
    const detail = [code, cause?.kind, cause?.originalCode].filter((part) => typeof part === 'string').join(' ');
    return new CliError('internal_error', `Database error (${name}${detail ? ` ${detail}` : ''})`);
  }
  return new CliError('internal_error', error instanceof Error ? error.message : String(error));
}

async function run(argv: string[]): Promise<unknown> {
  const [command, ...args] = argv;
  if (command === 'help' || command === '--help' || command === '-h') return { usage: USAGE };
  const parser = command === undefined ? undefined : COMMANDS[command];
  if (!parser) throw usageError(`${command === undefined ? 'No command given' : `Unknown command "${command}"`}. Commands: ${USAGE.join(' | ')}`);
  const action: Action = await parser(args);

  const config = loadConfig();
  const db: Database = await openDatabase(config);
  try {
    // Same schema as the server would see: pending migrations first, whatever the command.
    const applied = await migrate(db);
    return await action({ db, prisma: db.prisma, hasher: createKeyHasher(config), phi: createPhiCipher(config), applied });
  } finally {
    await db.close();
  }
}

async function main(): Promise<void> {
  let exitCode = 0;
  try {
    await write(process.stdout, await run(process.argv.slice(2)));
  } catch (error) {
    const failure = describeError(error);
    exitCode = failure.exitCode;
    await write(process.stderr, { error: failure.message, code: failure.code });
  }
  process.exit(exitCode);
}

await main();
