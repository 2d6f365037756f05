/** A failure the CLI reports as `{ error, code }` on stderr with its own exit status (contract §2). */
export class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode: number = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** Wrong command line: exit 2, like most Unix tools. */
export const usageError = (message: string): CliError => new CliError('usage', message, 2);
