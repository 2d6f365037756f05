import { PhiRowUnreadableError, rewrapPhi, UnknownPhiKeyError } from '../domain/secrets/phi-rewrap.service.js';
import { parse, subcommands } from './args.js';
import { CliError } from './cli-error.js';

const REWRAP = 'secrets rewrap';
export const SECRETS_USAGE = [REWRAP];

export const secretsCommand = subcommands('secrets', SECRETS_USAGE, {
  rewrap: (rest) => {
    parse(rest, {}, [], REWRAP);
    return async ({ db, phi }) => {
      try {
        return await rewrapPhi(db, phi);
      } catch (error) {
        // A missing key is the operator's configuration, like any other config error: exit 2.
        if (error instanceof UnknownPhiKeyError) throw new CliError('unknown_key_id', error.message, 2);
        if (error instanceof PhiRowUnreadableError) throw new CliError('phi_decrypt_failed', error.message);
        throw error;
      }
    };
  },
});
