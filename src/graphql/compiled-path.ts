import { Response } from '@whatwg-node/server';
import { getOperationAST, GraphQLError, parse, specifiedRules, validate, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { processRegularResult } from 'graphql-yoga';
import type { RequestContext } from '../context.js';
import { assertJsonInput, isPlainObject } from '../domain/validation.js';
import { AppError } from '../errors.js';
import { admit, GRAPHQL_POLICY } from '../gate/gate.js';
import { graphqlOperations } from '../infra/metrics.js';
import { assertDeclaredLength, readBodyText } from '../request-body.js';
import { isJitSafe } from './use-jit.js';
import { assertDocumentWithinLimits, knownOperationTypes, MAX_DOCUMENT_TOKENS, noProtoVariable } from './use-request-limits.js';
import { paramsProblems, variablesRefusal } from './use-request-shape.js';

/**
 * POST /graphql on the compiled path, as /v1 runs its pinned operations (src/execution/operations.ts): a document is
 * parsed, validated and compiled (graphql-jit) once, kept in a bounded cache by its text, and a request runs the
 * compiled function and serialises its result with one JSON.stringify.
 *
 * Yoga stays in front of every other request, and of any request this path does not take whole: GET (GraphiQL for a
 * browser, queries in the URL), subscriptions over SSE (`Accept: text/event-stream`, which the live-events work
 * needs), a browser's cross-origin request (an `Origin` header: CORS), an `Accept` or `Content-Type` other than the
 * plain JSON ones, and any request whose body, parameters or document is refused (the refusal, its code and status
 * are Yoga's and its plugins', tested in test/hardening/graphql-limits.test.ts). A request leaves for Yoga only
 * before the gate: nothing has been charged or run twice. What Yoga cost per request on this path before (the
 * dashboard, 100 forms: 0.57 x the hand-written handler, `npm run bench -- --stages dashboard`): its request
 * parsing through whatwg-node's Request and envelop's plugin chain (~10 % of gateway CPU), its result stringify with
 * a replacer (4.4 %), and a promise per step.
 *
 * Errors: a failure is masked as Yoga masks it (unexpected errors → "Unexpected error.", logged once with the request
 * id) and answered by Yoga's own result processor, so status, content type and body are Yoga's for every error.
 * graphql-jit's compiled stringify (fast-json-stringify) does not fit: it has no JSON schema for custom scalars
 * (DateTime, JSON) and throws on them.
 *
 * The order a request goes through, and where later steps go:
 *   body and parameters → document (cached: limits, parse, validate, compile) → GATE (admit: key → plan gate →
 *   budget) → COST STEP (#33: price the document's requested cost before execution; charge the actual after) →
 *   execute → serialise.
 */

/** At most this many documents kept compiled (the LRU's oldest leave first): far above the operations clients send. */
const MAX_DOCUMENTS = 500;

const JSON_TYPES = new Set(['application/json', 'application/json; charset=utf-8', 'application/json;charset=utf-8']);

/** The `Accept` values this path answers, and the media type Yoga answers each with (its result processor's choice). */
const ACCEPTED: Record<string, string> = {
  '': 'application/json',
  '*/*': 'application/json',
  'application/json': 'application/json',
  'application/graphql-response+json': 'application/graphql-response+json',
};

const VALIDATION_RULES = [...specifiedRules, knownOperationTypes, noProtoVariable];

/** A document this path runs, or `null`: one it leaves to Yoga (invalid, a subscription, unsafe for graphql-jit). */
type Compiled = { query: CompiledQuery; type: 'query' | 'mutation' } | null;

export interface MaskErrors {
  /** Each error as Yoga would send it (unexpected ones masked), logging the masked ones with this request's id. */
  (errors: readonly GraphQLError[], context: RequestContext): GraphQLError[];
}

export interface CompiledPath {
  /** The answer, or null when Yoga must take the request (`request` is then unread, or rebuilt from its text). */
  handle(request: Request, context: RequestContext): Promise<Response | { yoga: Request }>;
}

export function createCompiledPath(schema: GraphQLSchema, mask: MaskErrors): CompiledPath {
  const documents = new Map<string, Compiled>();

  function compile(query: string, operationName: string | undefined): Compiled {
    try {
      assertDocumentWithinLimits(query);
      const document = parse(query, { maxTokens: MAX_DOCUMENT_TOKENS });
      if (validate(schema, document, VALIDATION_RULES).length) return null;
      const operation = getOperationAST(document, operationName);
      if (!operation || operation.operation === 'subscription' || !isJitSafe(document)) return null;
      const compiled = compileQuery(schema, document, operationName);
      return isCompiledQuery(compiled) ? { query: compiled, type: operation.operation } : null;
    } catch {
      return null; // Yoga answers it, with its own message and code.
    }
  }

  function compiledFor(query: string, operationName: string | undefined): Compiled {
    const key = operationName === undefined ? query : `${operationName}\n${query}`;
    let compiled = documents.get(key);
    if (compiled !== undefined) {
      // Most recently used last: the Map's first key is the one to drop.
      documents.delete(key);
      documents.set(key, compiled);
      return compiled;
    }
    compiled = compile(query, operationName);
    documents.set(key, compiled);
    if (documents.size > MAX_DOCUMENTS) documents.delete(documents.keys().next().value as string);
    return compiled;
  }

  function errorAnswer(result: ExecutionResult, accepted: string, context: RequestContext): Response {
    const response = processRegularResult({ ...result, errors: mask(result.errors ?? [], context) }, { Response } as never, accepted) as Response;
    for (const [name, value] of Object.entries(context.responseHeaders)) response.headers.set(name, value);
    return response;
  }

  return {
    async handle(request, context) {
      const accepted = ACCEPTED[request.headers.get('accept')?.trim().toLowerCase() ?? ''];
      const type = request.headers.get('content-type')?.toLowerCase();
      if (request.method !== 'POST' || !accepted || !type || !JSON_TYPES.has(type) || request.headers.has('origin')) return { yoga: request };
      try {
        assertDeclaredLength(request.headers);
      } catch {
        return { yoga: request };
      }
      let text: string;
      try {
        text = await readBodyText(request);
      } catch (error) {
        if (error instanceof AppError) return errorAnswer({ errors: [error] }, accepted, context);
        throw error;
      }
      const again = (): { yoga: Request } => ({ yoga: new Request(request.url, { method: request.method, headers: request.headers, body: text }) });

      let params: unknown;
      try {
        params = JSON.parse(text);
      } catch {
        return again();
      }
      if (!isPlainObject(params) || paramsProblems(params).length || params.extensions != null) return again();
      const { query, operationName, variables } = params as { query: string; operationName?: string | null; variables?: Record<string, unknown> | null };
      try {
        assertJsonInputWithin(variables);
      } catch {
        return again();
      }
      const compiled = compiledFor(query, operationName ?? undefined);
      if (!compiled) return again();

      // ── the gate: key → plan gate → budget (scopes are checked per field, by scope-auth) ──
      try {
        await admit(GRAPHQL_POLICY, request.headers, context);
      } catch (error) {
        return errorAnswer({ errors: [error instanceof GraphQLError ? error : new GraphQLError('gate failed', { originalError: error as Error })] }, accepted, context);
      }
      // ── the cost step (#33) goes here: the document's requested cost priced and admitted before execution ──

      const result = (await compiled.query.query(undefined, context, variables ?? {})) as ExecutionResult;

      // ── and here the actual cost, charged after execution ──
      if (result.errors?.length) {
        const refusal = variablesRefusal(result);
        if (!refusal) graphqlOperations.inc({ type: compiled.type, outcome: 'error' });
        return errorAnswer(refusal ? { errors: [refusal] } : result, accepted, context);
      }
      graphqlOperations.inc({ type: compiled.type, outcome: 'ok' });
      return new Response(JSON.stringify(result), { status: 200, headers: { 'content-type': `${accepted}; charset=utf-8`, ...context.responseHeaders } });
    },
  };
}

/** Variables nest within the same depth as every JSON input (src/domain/validation.ts); deeper ones go to Yoga's refusal. */
function assertJsonInputWithin(variables: unknown): void {
  if (variables != null && !isPlainObject(variables)) throw new Error('variables must be an object');
  assertJsonInput(variables);
}
