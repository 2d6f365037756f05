import { z } from 'zod';
import { MAX_ROLL_OVERLAP_SECONDS } from '../../domain/accounts/api-key-management.service.js';
import { SCOPES } from '../../scopes.js';
import type { Route } from '../route.js';
import { rowsOf } from '../rows.js';
import { isoDateTimeParam } from './params.js';

/** API keys through the API (decisions §7.4): every row needs `manage:api_keys`. */

const createApiKeyBodySchema = z.strictObject(
  {
    name: z.string().max(200, 'name is at most 200 characters').nullable().optional(),
    scopes: z.array(z.enum(SCOPES, { error: `unknown scope; known: ${SCOPES.join(', ')}` })).optional().describe('defaults to every read: scope; only scopes the calling key holds'),
    expiresAt: isoDateTimeParam.nullable().optional().describe('in the future; none by default'),
  },
  { error: 'must be a JSON object' },
);

const rollApiKeyBodySchema = z.strictObject(
  {
    expiresInSeconds: z
      .int(`expiresInSeconds must be an integer from 0 to ${MAX_ROLL_OVERLAP_SECONDS}`)
      .min(0, `expiresInSeconds must be an integer from 0 to ${MAX_ROLL_OVERLAP_SECONDS}`)
      .max(MAX_ROLL_OVERLAP_SECONDS, `expiresInSeconds must be an integer from 0 to ${MAX_ROLL_OVERLAP_SECONDS}`)
      .optional()
      .describe('how long the rolled key keeps working; 0 (the default) revokes it at once'),
  },
  { error: 'must be a JSON object' },
);

const apiKeys = rowsOf({ tag: 'API keys', auth: 'apiKey' });

export const apiKeyRoutes: Route[] = [
  apiKeys.list('/api-keys', {
    summary: 'List API keys',
    description:
      "The account's API keys, newest first, revoked ones included, with name, scopes, last four characters, expiry, revocation and last use; never a key or its hash. Needs manage:api_keys.",
    operation: 'list-api-keys',
  }),
  apiKeys.read('/api-keys/{id}', {
    operation: 'get-api-key',
    summary: 'Get an API key',
    description: "One of the account's API keys (never the key or its hash); another account's key is 404 like an unknown id. Needs manage:api_keys.",
  }),
  apiKeys.row('POST /api-keys', {
    summary: 'Create an API key',
    description:
      'Issues a key: 201 with the key itself, shown only in this answer (it is stored as a keyed hash). Scopes default to every read: scope; the new key may hold only scopes the calling key holds (403 insufficient_scope otherwise). Needs manage:api_keys.',
    body: createApiKeyBodySchema,
    errors: ['insufficient_scope'],
    operation: 'create-api-key',
    variables: ({ body }) => ({ input: { name: body.name ?? null, scopes: body.scopes ?? null, expiresAt: body.expiresAt ?? null } }),
    success: { status: 201, headers: ['Location'] },
    outcome: (data) => ({ headers: { Location: `/v1/api-keys/${data.createApiKey.id}` } }),
  }),
  apiKeys.row('POST /api-keys/{id}/roll', {
    summary: 'Roll an API key',
    description:
      'Rotates a key without downtime: 201 with a new key of the same name and scopes, shown once; the rolled key keeps working expiresInSeconds (0, the default: revoked at once; at most a week), then answers 401 invalid_api_key on every replica. Needs manage:api_keys.',
    body: rollApiKeyBodySchema,
    errors: ['insufficient_scope'],
    operation: 'roll-api-key',
    variables: ({ params, body }) => ({ id: params.id, expiresInSeconds: body.expiresInSeconds ?? 0 }),
    success: { status: 201, headers: ['Location'] },
    outcome: (data) => ({ headers: { Location: `/v1/api-keys/${data.rollApiKey.id}` } }),
  }),
  apiKeys.row('DELETE /api-keys/{id}', {
    summary: 'Revoke an API key',
    description: 'Revokes a key at once, on every replica (a key may revoke itself); 204. Needs manage:api_keys.',
    operation: 'revoke-api-key',
  }),
];
