import { isScope, SCOPES, type Scope } from '../scopes.js';
import { issueApiKey, listApiKeys, revokeApiKey } from '../domain/accounts/api-keys.service.js';
import { invalid, optionalString, parse, parseId, requireString, subcommands } from './args.js';
import { parseIdText } from '../domain/validation.js';

const CREATE = 'keys create --account ID [--scopes s1,s2] [--expires-at ISO] [--rate-limit N] [--name TEXT]';
const REVOKE = 'keys revoke KEY_ID';
const LIST = 'keys list --account ID';
export const KEYS_USAGE = [CREATE, REVOKE, LIST];

const ISO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function parseScopes(raw: string | undefined): Scope[] | undefined {
  if (raw === undefined) return undefined;
  const scopes = raw.split(',').map((scope) => scope.trim()).filter(Boolean);
  const unknown = scopes.filter((scope) => !isScope(scope));
  if (unknown.length) throw invalid('--scopes', `unknown scope ${unknown.join(', ')}; known: ${SCOPES.join(', ')}`);
  if (!scopes.length) throw invalid('--scopes', 'name at least one scope, or leave it out for a read-only key');
  return scopes as Scope[];
}

function parseExpiresAt(raw: string | undefined): Date | null {
  if (raw === undefined) return null;
  const date = new Date(raw);
  if (!ISO_RE.test(raw) || Number.isNaN(date.getTime())) throw invalid('--expires-at', 'must be an ISO 8601 date-time with a time zone');
  return date;
}

function parseRateLimit(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  // A budget has an id's range (a positive int4): the same canonical rule.
  const limit = parseIdText(raw);
  if (limit === null) throw invalid('--rate-limit', 'must be a positive integer');
  return limit;
}

export const keysCommand = subcommands('keys', KEYS_USAGE, {
  create: (rest) => {
    const parsed = parse(
      rest,
      { account: { type: 'string' }, scopes: { type: 'string' }, 'expires-at': { type: 'string' }, 'rate-limit': { type: 'string' }, name: { type: 'string' } },
      [],
      CREATE,
    );
    const accountId = parseId(requireString(parsed, 'account', CREATE), '--account');
    const scopes = parseScopes(optionalString(parsed, 'scopes'));
    const expiresAt = parseExpiresAt(optionalString(parsed, 'expires-at'));
    const rateLimitPerHour = parseRateLimit(optionalString(parsed, 'rate-limit'));
    const name = optionalString(parsed, 'name') ?? null;
    return ({ prisma, hasher }) => issueApiKey(prisma, hasher, { accountId, scopes, expiresAt, rateLimitPerHour, name });
  },
  revoke: (rest) => {
    const parsed = parse(rest, {}, ['KEY_ID'], REVOKE);
    const id = parseId(parsed.positionals[0], 'KEY_ID');
    return ({ prisma }) => revokeApiKey(prisma, id);
  },
  list: (rest) => {
    const parsed = parse(rest, { account: { type: 'string' } }, [], LIST);
    const accountId = parseId(requireString(parsed, 'account', LIST), '--account');
    return ({ prisma }) => listApiKeys(prisma, accountId);
  },
});
