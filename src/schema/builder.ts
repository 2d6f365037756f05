import SchemaBuilder from '@pothos/core';
import ComplexityPlugin from '@pothos/plugin-complexity';
import PrismaPlugin from '@pothos/plugin-prisma';
import ScopeAuthPlugin, { AuthScopeFailureType, type AuthFailure } from '@pothos/plugin-scope-auth';
import type { RequestContext } from '../context.js';
import { AppError } from '../errors.js';
import type PrismaTypes from '../generated/pothos-types.js';
import { getDatamodel } from '../generated/pothos-types.js';
import type { Scope } from '../scopes.js';

/** The first scope a failed check asked for, so the 403 can name it like the REST body does. */
function requiredScope(failure: AuthFailure): string | undefined {
  if (failure.kind === AuthScopeFailureType.AuthScope && failure.scope === 'scope') return String(failure.parameter);
  if (failure.kind === AuthScopeFailureType.AnyAuthScopes || failure.kind === AuthScopeFailureType.AllAuthScopes) {
    for (const inner of failure.failures) {
      const scope = requiredScope(inner);
      if (scope) return scope;
    }
  }
  return undefined;
}

export const builder = new SchemaBuilder<{
  Context: RequestContext;
  PrismaTypes: PrismaTypes;
  AuthScopes: { scope: Scope; apiKey: boolean; siteKey: boolean };
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    JSON: { Input: unknown; Output: unknown };
  };
  DefaultFieldNullability: false;
}>({
  plugins: [ScopeAuthPlugin, PrismaPlugin, ComplexityPlugin],
  defaultFieldNullability: false,
  prisma: {
    client: (context) => context.deps.db.prisma,
    dmmf: getDatamodel(),
    exposeDescriptions: false,
  },
  scopeAuth: {
    authScopes: (context) => ({
      apiKey: context.viewer?.kind === 'apiKey',
      siteKey: context.viewer?.kind === 'site',
      scope: (scope: Scope) => context.viewer?.kind === 'apiKey' && context.viewer.scopes.has(scope),
    }),
    // Expected failures are GraphQLErrors with the v1 code, so Yoga's masking leaves them readable.
    unauthorizedError: (_parent, context, _info, result) => {
      if (!context.viewer) return new AppError('invalid_api_key');
      const required = requiredScope(result.failure);
      if (required) return new AppError('insufficient_scope', { required });
      // A site key's field (siteVerification, siteCatalog): /v1 serves them to X-Service-Site-Key; /graphql takes API keys.
      return new AppError('insufficient_scope', {}, { message: 'This field answers a site key (X-Service-Site-Key) on its /v1 route; /graphql takes API keys only' });
    },
  },
  complexity: {
    defaultComplexity: 1,
    defaultListMultiplier: 10,
    limit: { depth: 8, breadth: 200, complexity: 10_000 },
    // A refusal of the whole document, before any field runs: the same 400 as the token and nesting limits
    // (src/graphql/use-request-limits.ts), not a field error in a 200.
    complexityError: (kind) =>
      new AppError('query_too_complex', {}, { message: `The query exceeds the ${kind.toLowerCase()} limit (depth 8, breadth 200, complexity 10000)`, requestLevel: true }),
  },
});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});
