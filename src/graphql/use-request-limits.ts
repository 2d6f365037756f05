import { GraphQLError, Lexer, parse, Source, TokenKind, type ValidationRule } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { assertJsonInput } from '../domain/validation.js';
import { AppError } from '../errors.js';
import { assertDeclaredLength, readBodyText } from '../request-body.js';

/** Far above any real query (GraphiQL's whole introspection query is 183 tokens, 10 brackets deep). */
export const MAX_DOCUMENT_TOKENS = 2000;
export const MAX_DOCUMENT_DEPTH = 32;

const OPENING = new Set<string>([TokenKind.BRACE_L, TokenKind.BRACKET_L, TokenKind.PAREN_L]);
const CLOSING = new Set<string>([TokenKind.BRACE_R, TokenKind.BRACKET_R, TokenKind.PAREN_R]);

const tooComplex = (limit: string): AppError =>
  new AppError('query_too_complex', {}, { message: `The document exceeds the ${limit} limit (${MAX_DOCUMENT_TOKENS} tokens, ${MAX_DOCUMENT_DEPTH} levels of nesting)`, requestLevel: true });

/**
 * graphql-js parses (and later validates and executes) recursively: a 9 KB `{a{a{a…}}}` overflows the stack
 * before any rule sees it. The lexer is iterative, so the document is lexed once to count its tokens and its
 * bracket nesting; only a document within both limits reaches the recursive parser. A syntax error is left for
 * the parser to report.
 */
export function assertDocumentWithinLimits(source: string): void {
  const lexer = new Lexer(new Source(source));
  let tokens = 0;
  let depth = 0;
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      if (++tokens > MAX_DOCUMENT_TOKENS) throw tooComplex('token');
      // PostgreSQL stores no NUL: a string literal carrying one would fail at the write (a 500).
      if ((token.kind === TokenKind.STRING || token.kind === TokenKind.BLOCK_STRING) && token.value.includes('\u0000')) {
        throw new AppError('validation_failed', { fields: [{ field: '(document)', message: 'strings must not contain NUL characters' }] }, { requestLevel: true });
      }
      if (OPENING.has(token.kind) && ++depth > MAX_DOCUMENT_DEPTH) throw tooComplex('nesting');
      if (CLOSING.has(token.kind)) depth--;
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
  }
}

/**
 * graphql-js 16 validates a `subscription { … }` against a schema without subscriptions as valid (v17 adds this
 * rule); graphql-jit then throws a plain Error, a 500. Refused here like any invalid document.
 */
export const knownOperationTypes: ValidationRule = (context) => ({
  OperationDefinition(node) {
    const schema = context.getSchema();
    const root = { query: schema.getQueryType(), mutation: schema.getMutationType(), subscription: schema.getSubscriptionType() }[node.operation];
    if (!root) context.reportError(new GraphQLError(`The schema has no ${node.operation} operations`, { nodes: node }));
  },
});

/**
 * Execution keeps variables by name on plain objects (graphql-js's coerced values, graphql-jit's input and output),
 * where `__proto__` sets the prototype instead of a key: its value would be dropped, or (graphql-jit) read by other
 * variables. Refused with a clear message rather than run with a value that silently went missing.
 */
export const noProtoVariable: ValidationRule = (context) => ({
  VariableDefinition(node) {
    if (node.variable.name.value === '__proto__') context.reportError(new GraphQLError('The variable name $__proto__ is not supported; choose another name', { nodes: node.variable }));
  },
});

const isJson = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/**
 * What Yoga's parsers throw for JSON they cannot parse, as this API answers it. A JSON body: Yoga's BAD_REQUEST quotes
 * the body in `originalError`; v1's `invalid_json` instead (both transports answer the same codes). `variables` or
 * `extensions` in a query string or form body: Yoga lets JSON.parse's SyntaxError through, a 500; a 400 naming the
 * parameter instead. `source` is the body text, or the URL's query string.
 */
function asJsonInputError(error: unknown, source: string): AppError | null {
  if (error instanceof GraphQLError && (error.extensions.originalError as { name?: unknown } | undefined)?.name === 'SyntaxError') {
    return new AppError('invalid_json', {}, { requestLevel: true });
  }
  // JSON, but not an object (`"x"`, `1`, `null`): Yoga's BAD_REQUEST otherwise. Parsed again on this error path only.
  if (error instanceof GraphQLError && isJson(source)) {
    return new AppError('validation_failed', { fields: [{ field: '(body)', message: 'must be a JSON object: { query, variables?, operationName?, extensions? }' }] }, { requestLevel: true });
  }
  if (!(error instanceof SyntaxError)) return null;
  const params = new URLSearchParams(source);
  const fields = ['variables', 'extensions']
    .filter((name) => !isJson(params.get(name) || 'null'))
    .map((field) => ({ field, message: 'must be a JSON object' }));
  return fields.length ? new AppError('validation_failed', { fields }, { requestLevel: true }) : null;
}

/**
 * Limits on /graphql input, checked once the key is admitted (useGate) and before anything is parsed: the body's size
 * (MAX_BODY_BYTES, as v1's), the document's size and nesting, and the nesting of variables (the JSON scalar hands them
 * on as they came, e.g. to formData's size check).
 */
export function useRequestLimits(): Plugin {
  return {
    // The body is read as v1 reads it (readBodyText: the cap, UTF-8 only), then handed to Yoga's parser as text. (Yoga's
    // own limit, maxRequestBodySize, off in app.ts, piped every body through a web TransformStream as well.)
    onRequestParse({ request, requestParser, setRequestParser, fetchAPI }) {
      assertDeclaredLength(request.headers);
      // No parser for its Content-Type: Yoga's answer was a bare 415 with no body.
      if (!requestParser) throw new AppError('unsupported_media_type', {}, { requestLevel: true });
      setRequestParser(async (original) => {
        const text = original.body ? await readBodyText(original) : null;
        try {
          return await requestParser(text === null ? original : new fetchAPI.Request(original.url, { method: original.method, headers: original.headers, body: text }));
        } catch (error) {
          throw asJsonInputError(error, text ?? new URL(original.url).search) ?? error;
        }
      });
    },
    // Here rather than in the parse step: Yoga marks whatever parse throws as a GraphQL-over-HTTP "spec" error,
    // which it answers with 200 to application/json clients; these are 400 for every client.
    onParams({ params }) {
      if (typeof params.query === 'string') assertDocumentWithinLimits(params.query);
      assertJsonInput(params.variables, { requestLevel: true });
      assertJsonInput(params.extensions, { requestLevel: true });
    },
    onParse({ setParseFn }) {
      // A second line of defence, should a document ever reach the parser another way.
      setParseFn((source, options) => parse(source, { ...options, maxTokens: MAX_DOCUMENT_TOKENS }));
    },
    onValidate({ addValidationRule }) {
      addValidationRule(knownOperationTypes);
      addValidationRule(noProtoVariable);
    },
  };
}
