import { useGraphQlJit } from '@envelop/graphql-jit';
import { Kind, type DocumentNode } from 'graphql';
import { COMPILER_OPTIONS } from '../execution/operations.js';

/**
 * Queries are compiled once per document (graphql-jit), as the REST facade's pinned operations are, with the same
 * options (COMPILER_OPTIONS).
 *
 * graphql-jit's compiled variable coercion reads `input[name]` and writes `coerced[name]` on plain objects: a
 * variable named like an Object.prototype member (`$toString`, `$constructor`) reads the prototype's function when
 * omitted, and `$__proto__` replaces the coerced object's prototype, so that omitted variables read whatever the
 * client put there, past their types. A document declaring such a name runs on graphql-js, which checks own
 * properties. The REST facade's operations declare fixed, ordinary names.
 */
export function useJit() {
  return useGraphQlJit(COMPILER_OPTIONS, { enableIf: ({ document }) => isJitSafe(document) });
}

const jitSafe = new WeakMap<DocumentNode, boolean>();

/** Whether graphql-jit may run this document (no variable named like an Object.prototype member). */
export function isJitSafe(document: DocumentNode): boolean {
  let safe = jitSafe.get(document);
  if (safe === undefined) {
    safe = !document.definitions.some(
      (definition) => definition.kind === Kind.OPERATION_DEFINITION && definition.variableDefinitions?.some(({ variable }) => variable.name.value in Object.prototype),
    );
    jitSafe.set(document, safe);
  }
  return safe;
}
