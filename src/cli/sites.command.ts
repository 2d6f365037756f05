import type { SiteEnvironment } from '../generated/prisma/enums.js';
import { archiveSite, createSite, normalizeHostname, regenerateSiteKey, setVerified } from '../domain/verification/sites.service.js';
import { toVerificationStatus, VERIFICATION_METHODS } from '../domain/verification/verification-status.js';
import { invalid, oneOf, optionalString, parse, parseId, requireString, subcommands } from './args.js';
import { usageError } from './cli-error.js';

const CREATE = 'sites create --account ID --domain HOST [--environment production|staging] [--verified --method dns_txt|meta_tag|wp_plugin]';
const REGENERATE = 'sites regenerate-key SITE_ID';
const ARCHIVE = 'sites archive SITE_ID';
const SET_VERIFIED = 'sites set-verified SITE_ID true|false [--method M]';
export const SITES_USAGE = [CREATE, REGENERATE, ARCHIVE, SET_VERIFIED];

const ENVIRONMENTS: SiteEnvironment[] = ['production', 'staging'];

const method = (raw: string | undefined) => (raw === undefined ? undefined : oneOf(raw, VERIFICATION_METHODS, '--method'));

export const sitesCommand = subcommands('sites', SITES_USAGE, {
  create: (rest) => {
    const parsed = parse(
      rest,
      { account: { type: 'string' }, domain: { type: 'string' }, environment: { type: 'string' }, verified: { type: 'boolean' }, method: { type: 'string' } },
      [],
      CREATE,
    );
    const accountId = parseId(requireString(parsed, 'account', CREATE), '--account');
    const hostname = normalizeHostname(requireString(parsed, 'domain', CREATE));
    if (!hostname) throw invalid('domain', 'must be a hostname such as example.com');
    const rawEnvironment = optionalString(parsed, 'environment');
    const environment = rawEnvironment === undefined ? undefined : oneOf(rawEnvironment, ENVIRONMENTS, '--environment');
    const verified = parsed.values.verified === true;
    const chosen = method(optionalString(parsed, 'method'));
    // A verified site records how it was proven.
    if (verified && !chosen) throw usageError(`--verified needs --method. Usage: ${CREATE}`);
    return ({ prisma, hasher }) => createSite(prisma, hasher, { accountId, hostname, environment, verified, method: chosen ?? null });
  },
  'regenerate-key': (rest) => {
    const parsed = parse(rest, {}, ['SITE_ID'], REGENERATE);
    const id = parseId(parsed.positionals[0], 'SITE_ID');
    return ({ prisma, hasher }) => regenerateSiteKey(prisma, hasher, id);
  },
  archive: (rest) => {
    const parsed = parse(rest, {}, ['SITE_ID'], ARCHIVE);
    const id = parseId(parsed.positionals[0], 'SITE_ID');
    return ({ prisma }) => archiveSite(prisma, id);
  },
  'set-verified': (rest) => {
    const parsed = parse(rest, { method: { type: 'string' } }, ['SITE_ID', 'true|false'], SET_VERIFIED);
    const id = parseId(parsed.positionals[0], 'SITE_ID');
    const flag = parsed.positionals[1];
    if (flag !== 'true' && flag !== 'false') throw usageError(`Expected true or false, got "${flag ?? ''}". Usage: ${SET_VERIFIED}`);
    const chosen = method(optionalString(parsed, 'method'));
    return async ({ prisma }) => toVerificationStatus(await setVerified(prisma, id, flag === 'true', chosen));
  },
});
