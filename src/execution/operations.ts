import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kind, parse, validate, visit, type DefinitionNode, type DocumentNode, type FragmentDefinitionNode, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery, type CompilerOptions } from 'graphql-jit';
import type { RequestContext } from '../context.js';
import { AppError } from '../errors.js';
import type { Operations } from '../generated/graphql/operations.js';

/** A pinned operation's file name (src/execution/operations/<name>.graphql); codegen pairs it with its types. */
export type OperationName = keyof Operations;
export type OperationData<N extends OperationName> = Operations[N]['result'];
export type OperationVariables<N extends OperationName> = Operations[N]['variables'];

const OPERATIONS_DIR = fileURLToPath(new URL('./operations', import.meta.url));

/**
 * How every query is compiled, by /v1, /graphql (src/graphql/use-jit.ts) and the event presenters alike. Leaves of
 * the built-in scalars (Int, String, Boolean, Float) and of enums are answered as the resolvers give them: each is
 * already its schema type (Pothos types every field by its row's column; no enum maps a value to another name),
 * while graphql-jit's serializer call built a locations array and a path array per leaf per row, for an error that
 * cannot happen (a forms list: 380 → 345 KB allocated per request). Custom scalars (DateTime, JSON) still serialize.
 */
export const COMPILER_OPTIONS: Partial<CompilerOptions> = { disableLeafSerialization: true };

export interface PinnedOperation {
  /** The operation with every fragment it spreads, directly or through other fragments. */
  document: DocumentNode;
  compiled: CompiledQuery;
}

/**
 * The pinned operations, parsed, validated and compiled (graphql-jit) once at start: a request only runs the
 * compiled function, with the same schema, resolvers and context as POST /graphql.
 */
export type OperationStore = Map<string, PinnedOperation>;

interface OperationFiles {
  operations: Map<string, DefinitionNode>;
  fragments: Map<string, FragmentDefinitionNode>;
}

const filesCache = new Map<string, OperationFiles>();

function readFiles(dir: string): OperationFiles {
  const cached = filesCache.get(dir);
  if (cached) return cached;
  const files: OperationFiles = { operations: new Map(), fragments: new Map() };
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.graphql'))) {
    for (const definition of parse(readFileSync(join(dir, file), 'utf8')).definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) files.fragments.set(definition.name.value, definition);
      else files.operations.set(file.replace(/\.graphql$/, ''), definition);
    }
  }
  filesCache.set(dir, files);
  return files;
}

/** A definition with the fragments it needs, closed over spreads inside fragments. */
function closeOver(root: DefinitionNode, fragments: Map<string, FragmentDefinitionNode>): DocumentNode {
  const definitions: DefinitionNode[] = [root];
  const used = new Set<string>();
  for (let i = 0; i < definitions.length; i++) {
    visit(definitions[i]!, {
      FragmentSpread(node) {
        const fragment = fragments.get(node.name.value);
        if (!fragment) throw new Error(`Unknown fragment ${node.name.value}`);
        if (!used.has(node.name.value)) {
          used.add(node.name.value);
          definitions.push(fragment);
        }
      },
    });
  }
  return { kind: Kind.DOCUMENT, definitions };
}

/** A shared fragment of the operations (`fragment X on T`) as its own document, e.g. to present an event's data. */
export function fragmentDocument(name: string, dir = OPERATIONS_DIR): { document: DocumentNode; fragment: FragmentDefinitionNode } {
  const { fragments } = readFiles(dir);
  const fragment = fragments.get(name);
  if (!fragment) throw new Error(`Unknown fragment ${name}`);
  return { document: closeOver(fragment, fragments), fragment };
}

export function loadOperations(schema: GraphQLSchema, dir = OPERATIONS_DIR): OperationStore {
  const { operations, fragments } = readFiles(dir);
  const store: OperationStore = new Map();
  for (const [name, operation] of operations) {
    const document = closeOver(operation, fragments);
    const errors = validate(schema, document);
    if (errors.length) throw new Error(`Operation ${name} does not match the schema: ${errors.map((e) => e.message).join('; ')}`);
    const compiled = compileQuery(schema, document, undefined, COMPILER_OPTIONS);
    if (!isCompiledQuery(compiled)) throw new Error(`Operation ${name} does not compile: ${compiled.errors?.map((e) => e.message).join('; ')}`);
    store.set(name, { document, compiled });
  }
  return store;
}

/**
 * Runs a pinned operation in-process with the same schema, resolvers and context as POST /graphql. Not through
 * Yoga's envelop pipeline (yoga.getEnveloped): what that pipeline adds for /graphql is the gate (already passed:
 * src/gate/gate.ts, the same code), parsing/validation (done once at start here) and result masking (REST maps
 * AppErrors itself), so per request it adds only its plugin round-trip. Measured (2026-11-24, a patch routing
 * this function through `yoga.getEnveloped({ requestContext }).execute` with the same document, two gateways
 * side by side, 4 interleaved 5 s slices at 32 connections, identical bodies checked first): the envelop path
 * served the forms list at 0.90x and an order at 0.76x the req/s of this direct call, with p99 1.34x and 1.37x.
 * Expected failures surface as the AppError a resolver threw; anything else is a bug and becomes a 500.
 */
export async function runOperation(store: OperationStore, name: OperationName, context: RequestContext, variables: Record<string, unknown>): Promise<Record<string, unknown>> {
  const operation = store.get(name);
  if (!operation) throw new Error(`Unknown operation ${name}`);
  const result = await operation.compiled.query(undefined, context, variables);
  const error = result.errors?.[0];
  if (error) {
    if (error.originalError instanceof AppError) throw error.originalError;
    throw error.originalError ?? error;
  }
  if (!result.data) throw new Error(`Operation ${name} returned no data`);
  return result.data;
}
