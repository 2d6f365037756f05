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
 *
 * Subscriptions run on graphql-js too: graphql-jit (0.8) hands a subscription field's `subscribe` the operation's
 * variables as its arguments, so `events(type: "form.created")` reached it with no `type` (a variable named `$type`
 * only worked by coincidence). A subscription is compiled for a stream that lasts; graphql-js costs nothing there.
 */
export function useJit() {
  return useGraphQlJit(COMPILER_OPTIONS, { enableIf: ({ document }) => isJitSafe(document) && !isSubscription(document) });
}

const isSubscription = (document: DocumentNode): boolean =>
  document.definitions.some((definition) => definition.kind === Kind.OPERATION_DEFINITION && definition.operation === 'subscription');

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
