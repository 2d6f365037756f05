import type { AccountKind, Plan } from '../../generated/prisma/enums.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { AppError } from '../../errors.js';
import { generateWebhookSecret } from '../../infra/secrets.js';

type Db = Prisma.TransactionClient;

export const ACCOUNT_KINDS: AccountKind[] = ['personal', 'organization'];
export const PLANS: Plan[] = ['free', 'starter', 'pro', 'business'];

export interface CreateAccountInput {
  name: string;
  kind: AccountKind;
  plan: Plan;
  ownerEmail?: string | null;
}

/** `accounts show` (contract §2). */
export interface AccountView {
  id: number;
  name: string;
  kind: AccountKind;
  plan: Plan;
  ownerEmail: string | null;
  webhookSigningSecret: string;
}

export const accountNotFound = (id: number): AppError =>
  new AppError('not_found', { resource: 'account' }, { message: `Account ${id} not found` });

export async function createAccount(prisma: Db, input: CreateAccountInput): Promise<{ id: number }> {
  return prisma.account.create({
    data: {
      name: input.name,
      kind: input.kind,
      plan: input.plan,
      ownerEmail: input.ownerEmail ?? null,
      webhookSigningSecret: generateWebhookSecret(),
    },
    select: { id: true },
  });
}

/** Throws not_found for an unknown account. */
export async function getAccountOrThrow(prisma: Db, id: number): Promise<AccountView> {
  const account = await prisma.account.findUnique({
    where: { id },
    select: { id: true, name: true, kind: true, plan: true, ownerEmail: true, webhookSigningSecret: true },
  });
  if (!account) throw accountNotFound(id);
  return account;
}

export async function setPlan(prisma: Db, id: number, plan: Plan): Promise<{ id: number; plan: Plan }> {
  const { count } = await prisma.account.updateMany({ where: { id }, data: { plan } });
  if (count === 0) throw accountNotFound(id);
  return { id, plan };
}
