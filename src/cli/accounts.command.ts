import { ACCOUNT_KINDS, createAccount, getAccountOrThrow, PLANS, setPlan } from '../domain/accounts/accounts.service.js';
import { invalid, oneOf, optionalString, parse, parseId, requireString, subcommands } from './args.js';

const CREATE = 'accounts create --name N --kind personal|organization --plan free|starter|pro|business [--owner-email E]';
const SET_PLAN = 'accounts set-plan ACCOUNT_ID PLAN';
const SHOW = 'accounts show ACCOUNT_ID';
export const ACCOUNTS_USAGE = [CREATE, SET_PLAN, SHOW];

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const accountsCommand = subcommands('accounts', ACCOUNTS_USAGE, {
  create: (rest) => {
    const parsed = parse(rest, { name: { type: 'string' }, kind: { type: 'string' }, plan: { type: 'string' }, 'owner-email': { type: 'string' } }, [], CREATE);
    const name = requireString(parsed, 'name', CREATE).trim();
    const kind = oneOf(requireString(parsed, 'kind', CREATE), ACCOUNT_KINDS, '--kind');
    const plan = oneOf(requireString(parsed, 'plan', CREATE), PLANS, '--plan');
    const ownerEmail = optionalString(parsed, 'owner-email');
    if (!name) throw invalid('--name', 'must not be empty');
    if (ownerEmail !== undefined && !EMAIL_RE.test(ownerEmail)) throw invalid('--owner-email', 'must be an email address');
    return ({ prisma }) => createAccount(prisma, { name, kind, plan, ownerEmail: ownerEmail ?? null });
  },
  'set-plan': (rest) => {
    const parsed = parse(rest, {}, ['ACCOUNT_ID', 'PLAN'], SET_PLAN);
    const id = parseId(parsed.positionals[0], 'ACCOUNT_ID');
    const plan = oneOf(parsed.positionals[1] ?? '', PLANS, 'PLAN');
    return ({ prisma }) => setPlan(prisma, id, plan);
  },
  show: (rest) => {
    const parsed = parse(rest, {}, ['ACCOUNT_ID'], SHOW);
    const id = parseId(parsed.positionals[0], 'ACCOUNT_ID');
    return ({ prisma }) => getAccountOrThrow(prisma, id);
  },
});
