import type { Database } from '../infra/db.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { PhiCipher } from '../infra/phi-crypto.js';
import type { KeyHasher } from '../infra/secrets.js';

export interface CliContext {
  db: Database;
  prisma: PrismaClient;
  hasher: KeyHasher;
  /** Seals imported submissions of PHI forms, with the server's own key. */
  phi: PhiCipher;
  /** Migrations this run applied before acting. */
  applied: string[];
}

/** What a parsed command line does once the database is open; its result is the stdout document. */
export type Action = (ctx: CliContext) => Promise<unknown>;

/** Parses a command's arguments before any database is opened, so a usage error costs nothing. */
export type CommandParser = (args: string[]) => Action | Promise<Action>;
