import { getOperationAST, GraphQLError, type ExecutionResult } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import { isPlainObject } from '../domain/validation.js';
import { AppError, type FieldProblem } from '../errors.js';

/** The parameters of GraphQL over HTTP; Yoga refuses any other. */
const PARAMETERS = new Set(['query', 'variables', 'operationName', 'extensions']);

/** A client's own parameter name, echoed back at a readable length. */
const named = (name: string): string => (name.length <= 64 ? name : `${name.slice(0, 64)}…`);

const refused = (fields: FieldProblem[]): AppError => new AppError('validation_failed', { fields }, { requestLevel: true });

/** What is wrong with a request's parameters, in v1's terms; empty when Yoga may run it. */
export function paramsProblems(params: Record<string, unknown>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const unexpected = Object.keys(params).find((name) => params[name] != null && !PARAMETERS.has(name));
  if (unexpected !== undefined) problems.push({ field: named(unexpected), message: 'is not a GraphQL parameter (query, variables, operationName, extensions)' });
  if (params.query == null) problems.push({ field: 'query', message: 'is required: the GraphQL document' });
  else if (typeof params.query !== 'string') problems.push({ field: 'query', message: 'must be a string: the GraphQL document' });
  if (params.operationName != null && typeof params.operationName !== 'string') problems.push({ field: 'operationName', message: 'must be a string' });
  for (const name of ['variables', 'extensions']) if (params[name] != null && !isPlainObject(params[name])) problems.push({ field: name, message: 'must be a JSON object' });
  return problems;
}

/**
 * The shape of a /graphql request, answered with v1's codes (the contract: GraphQL errors carry the v1 code) before
 * Yoga's own checks, which answer the same cases with a `BAD_REQUEST` code of their own (and a missing `query` with
 * status 200): a method other than GET and POST, a batch, parameters that are missing, of the wrong type or unknown,
 * an `operationName` that selects no operation, a mutation sent with GET, and variables that do not fit their types
 * (no code at all before). A body that is JSON but not an object is refused where the body is parsed
 * (use-request-limits.ts). Yoga's plugins run after the app's, so these run first.
 */
export function useRequestShape(): Plugin {
  return {
    onRequestParse({ request }) {
      if (request.method !== 'GET' && request.method !== 'POST') {
        throw new AppError('method_not_allowed', {}, { message: '/graphql answers GET and POST', headers: { Allow: 'GET, POST' }, requestLevel: true });
      }
      return {
        onRequestParseDone({ requestParserResult }) {
          if (Array.isArray(requestParserResult)) throw refused([{ field: '(body)', message: 'must be one request object: batches are not supported' }]);
        },
      };
    },
    onParams({ params }) {
      const problems = paramsProblems(params as Record<string, unknown>);
      if (problems.length) throw refused(problems);
    },
    onParse() {
      return ({ result, context }) => {
        const { request, params } = context as { request?: Request; params?: { operationName?: string | null } };
        if (result instanceof GraphQLError) documentRefused(result);
        if (!request || result instanceof Error) return;
        const operation = getOperationAST(result, params?.operationName);
        if (!operation) {
          const message = params?.operationName ? 'names no operation of the document' : 'is required: the document has several operations, or none';
          throw refused([{ field: 'operationName', message }]);
        }
        if (request.method === 'GET' && operation.operation === 'mutation') {
          throw new AppError('method_not_allowed', {}, { message: 'A mutation must be sent with POST', headers: { Allow: 'POST' }, requestLevel: true });
        }
      };
    },
    onValidate() {
      return ({ valid, result }) => {
        if (!valid) for (const error of result) documentRefused(error);
      };
    },
    // No result processor for the Accept header (a subscription asked for JSON only): Yoga's answer was a bare 406.
    // A request refused before it ran (a HEAD from a browser: 405) keeps its own status and headers, in JSON.
    onResultProcess({ result, resultProcessor, setResultProcessor }) {
      if (resultProcessor) return;
      const refusal = requestRefusal(result);
      const body = JSON.stringify({ errors: refusal ? refusal.errors : [new AppError('not_acceptable').toJSON()] });
      const headers = { 'content-type': 'application/json; charset=utf-8', ...refusal?.headers };
      setResultProcessor((_result, fetchAPI) => new fetchAPI.Response(body, { status: refusal?.status ?? 406, headers }), 'application/json');
    },
    onExecute() {
      return {
        onExecuteDone({ result, setResult }) {
          if (isAsyncIterable(result)) return;
          const refusal = variablesRefusal(result);
          // The answer (its status from the error's), not a throw: the plugins after this one still see it, so that
          // the key pays for it and extensions.cost says so (use-cost.ts), as for any operation that ran.
          if (refusal) setResult({ errors: [refusal] });
        },
      };
    },
  };
}

/**
 * A result whose error refused the whole request (`extensions.http`): its status, headers and errors as a body
 * carries them (without `http`, as Yoga writes them), or null.
 */
function requestRefusal(result: unknown): { status: number; headers?: Record<string, string>; errors: unknown[] } | null {
  const errors = (result as { errors?: readonly GraphQLError[] } | null)?.errors;
  const http = (errors?.[0]?.extensions as { http?: { status?: number; headers?: Record<string, string> } } | undefined)?.http;
  if (!errors || typeof http?.status !== 'number') return null;
  const bodies = errors.map((error) => {
    const { http: _http, ...extensions } = error.extensions as Record<string, unknown>;
    return { ...error.toJSON(), extensions };
  });
  return { status: http.status, ...(http.headers && { headers: http.headers }), errors: bodies };
}

/**
 * A document that does not parse or validate is input that does not fit: v1's `validation_failed`, naming the `query`
 * parameter with GraphQL's own message (its `locations` stay), where Yoga would say GRAPHQL_PARSE_FAILED or
 * GRAPHQL_VALIDATION_FAILED (decisions §5: a GraphQL error's code is the v1 code). A code a rule set itself
 * (`query_too_complex`) stays. Yoga adds the status after (GraphQL over HTTP: 200 to an application/json client,
 * 400 to application/graphql-response+json).
 */
function documentRefused(error: GraphQLError): void {
  const extensions = error.extensions as Record<string, unknown>;
  if (extensions.code !== undefined) return;
  extensions.code = 'validation_failed';
  extensions.fields = [{ field: 'query', message: error.message } satisfies FieldProblem];
}

/**
 * Variables that do not fit their types stop the request before any field runs: graphql-js and graphql-jit answer
 * `Variable "$name" got invalid value …` with no code. v1's answer to input that does not fit, or null.
 */
export function variablesRefusal(result: ExecutionResult): AppError | null {
  if (result.data !== undefined || !result.errors?.length) return null;
  const fields = result.errors.flatMap((error) => {
    const name = /^Variable "\$([^"]+)"/.exec(error.message)?.[1];
    return name !== undefined && error.extensions?.code === undefined ? [{ field: name, message: error.message }] : [];
  });
  return fields.length === result.errors.length ? refused(fields) : null;
}
