import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, validate, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { RequestContext } from '../context.js';
import { AppError } from '../errors.js';

const OPERATIONS_DIR = fileURLToPath(new URL('./operations', import.meta.url));

/**
 * The pinned operations, parsed, validated and compiled (graphql-jit) once at start: a request only runs the
 * compiled function, with the same schema, resolvers and context as POST /graphql.
 */
export type OperationStore = Map<string, CompiledQuery>;

export function loadOperations(schema: GraphQLSchema, dir = OPERATIONS_DIR): OperationStore {
  const files = readdirSync(dir).filter((file) => file.endsWith('.graphql'));
  const fragments = new Map(
    files
      .filter((file) => file.endsWith('.fragment.graphql'))
      .map((file) => {
        const text = readFileSync(join(dir, file), 'utf8');
        return [/fragment (\w+)/.exec(text)?.[1] ?? file, text] as const;
      }),
  );
  const store: OperationStore = new Map();
  for (const file of files.filter((f) => !f.endsWith('.fragment.graphql'))) {
    let text = readFileSync(join(dir, file), 'utf8');
    const used = new Set<string>();
    // Fragments may use fragments: add them until the document is closed over its spreads.
    for (let added = true; added; ) {
      added = false;
      for (const [, name] of text.matchAll(/\.\.\.(\w+)/g)) {
        const fragment = name ? fragments.get(name) : undefined;
        if (name && fragment && !used.has(name)) {
          used.add(name);
          text += `\n${fragment}`;
          added = true;
        }
      }
    }
    const document = parse(text);
    const errors = validate(schema, document);
    if (errors.length) throw new Error(`Operation ${file} does not match the schema: ${errors.map((e) => e.message).join('; ')}`);
    const compiled = compileQuery(schema, document);
    if (!isCompiledQuery(compiled)) throw new Error(`Operation ${file} does not compile: ${compiled.errors?.map((e) => e.message).join('; ')}`);
    store.set(file.replace(/\.graphql$/, ''), compiled);
  }
  return store;
}

/**
 * Runs a pinned operation in-process with the same schema, resolvers and context as POST /graphql. Expected
 * failures surface as the AppError a resolver threw; anything else is a bug and becomes a 500.
 */
export async function runOperation(
  store: OperationStore,
  name: string,
  context: RequestContext,
  variables: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const compiled = store.get(name);
  if (!compiled) throw new Error(`Unknown operation ${name}`);
  const result = await compiled.query(undefined, context, variables);
  const error = result.errors?.[0];
  if (error) {
    if (error.originalError instanceof AppError) throw error.originalError;
    throw error.originalError ?? error;
  }
  if (!result.data) throw new Error(`Operation ${name} returned no data`);
  return result.data as Record<string, unknown>;
}

