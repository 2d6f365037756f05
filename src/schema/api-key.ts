import { requireApiKeyViewer } from '../context.js';
import type { ApiKeyListItem } from '../domain/accounts/api-keys.service.js';
import {
  createAccountApiKey,
  getAccountApiKeyOrThrow,
  listAccountApiKeys,
  MAX_ROLL_OVERLAP_SECONDS,
  revokeAccountApiKey,
  rollAccountApiKey,
  type CreatedApiKeyView,
} from '../domain/accounts/api-key-management.service.js';
import { builder } from './builder.js';
import { pageField, pageRef } from './pagination.js';

/**
 * API keys through the API (decisions §7.4), behind `manage:api_keys`: the fields behind GET/POST /api-keys,
 * GET/DELETE /api-keys/{id} and POST /api-keys/{id}/roll. Never a hash; the key itself only in create's and roll's answer.
 */

const MANAGE = { scope: 'manage:api_keys' } as const;

export const ApiKeyRef = builder.objectRef<ApiKeyListItem>('ApiKey').implement({
  fields: (t) => ({
    id: t.exposeInt('id'),
    name: t.exposeString('name', { nullable: true }),
    scopes: t.exposeStringList('scopes'),
    lastFour: t.exposeString('lastFour', { description: 'The last four characters of the key' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true, description: 'Written at most once a minute' }),
  }),
});

const ApiKeyPage = pageRef('ApiKeyPage', ApiKeyRef);

const CreatedApiKeyRef = builder.objectRef<CreatedApiKeyView>('CreatedApiKey').implement({
  fields: (t) => ({
    id: t.exposeInt('id'),
    name: t.exposeString('name', { nullable: true }),
    key: t.exposeString('key', { description: 'The key (svc_live_…), shown only in this answer: it is stored as a keyed hash' }),
    scopes: t.exposeStringList('scopes'),
    lastFour: t.exposeString('lastFour'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true }),
  }),
});

const CreateApiKeyInput = builder.inputType('CreateApiKeyInput', {
  fields: (t) => ({
    name: t.string(),
    scopes: t.stringList({ description: 'Defaults to every read: scope; only scopes the calling key holds' }),
    expiresAt: t.field({ type: 'DateTime', description: 'In the future; none by default' }),
  }),
});

builder.queryFields((t) => ({
  apiKeys: pageField(t, {
    type: ApiKeyPage,
    description: "The account's API keys, newest first, revoked ones included (never a key or its hash)",
    authScopes: MANAGE,
    args: {},
    resolve: (_args, page, context) => listAccountApiKeys(context.deps.db.prisma, requireApiKeyViewer(context).accountId, page),
  }),
  apiKey: t.field({
    type: ApiKeyRef,
    authScopes: MANAGE,
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, args, context) => getAccountApiKeyOrThrow(context.deps.db.prisma, requireApiKeyViewer(context).accountId, args.id),
  }),
}));

builder.mutationFields((t) => ({
  createApiKey: t.field({
    type: CreatedApiKeyRef,
    description: 'Issues a key, shown once; it may hold only scopes the calling key holds',
    authScopes: MANAGE,
    args: { input: t.arg({ type: CreateApiKeyInput, required: true }) },
    resolve: (_root, args, context) => createAccountApiKey(context.deps.db.prisma, context.deps.hasher, requireApiKeyViewer(context), args.input),
  }),
  rollApiKey: t.field({
    type: CreatedApiKeyRef,
    description: `A new key of the same name and scopes, shown once; the rolled key keeps working expiresInSeconds (0, the default: revoked at once; at most ${MAX_ROLL_OVERLAP_SECONDS})`,
    authScopes: MANAGE,
    args: { id: t.arg.int({ required: true }), expiresInSeconds: t.arg.int() },
    resolve: (_root, args, context) =>
      rollAccountApiKey(context.deps.db.prisma, context.deps.hasher, requireApiKeyViewer(context), args.id, args.expiresInSeconds ?? 0),
  }),
  revokeApiKey: t.boolean({
    description: 'Revokes a key at once (a key may revoke itself)',
    authScopes: MANAGE,
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_root, args, context) => {
      await revokeAccountApiKey(context.deps.db.prisma, requireApiKeyViewer(context), args.id);
      return true;
    },
  }),
}));
