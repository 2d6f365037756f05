import {
  getNamedType,
  getNullableType,
  isListType,
  isObjectType,
  isAbstractType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../domain/pagination.js';

/**
 * The price of a /graphql operation (decisions §7.1), as pure functions. One pass over the operation builds its
 * plan (cached per document and operation name, beside the parsed and validated document); `requestedObjects` and
 * `actualObjects` then walk only the plan: the first with the variables (each list at its `limit`), the second over
 * the data the operation returned. N objects cost `max(1, ceil(N / 1000))` points; scalars and `__typename` are free.
 */

/** How many elements a list is expected to hold: its `limit` argument (a literal or a variable) or its default. */
type ListSize =
  | { fixed: number }
  /**
   * A variable's value; `omitted`: the variable's own default, else the field's (a variable left out). A variable sent
   * as null is an explicit null argument, which no default replaces: the field's own fallback then (`fallback`).
   */
  | { variable: string; omitted: number; fallback: number };

/** An object-typed field of the selection, by response key (aliases are separate keys, each counted). */
export interface CostNode {
  key: string;
  /** Set when the field (or the page it is the `data` of) is a list. */
  list: ListSize | null;
  children: CostNode[];
}

export type CostPlan =
  /** Only `rateLimit` (and `__typename`): free, and needs no scope. */
  | { kind: 'free' }
  /** 1 point per root mutation field, whatever their selections return. */
  | { kind: 'mutation'; rootFields: number }
  /** A query: its object fields; introspection alone costs the minimum, 1. */
  | { kind: 'query'; nodes: CostNode[] };

/** The root field that reads the budget itself (§7.1 `rateLimit`). */
export const RATE_LIMIT_FIELD = 'rateLimit';

/** Points for N objects (§7.1). */
export const pointsFor = (objects: number): number => Math.max(1, Math.ceil(objects / 1000));

const FREE_ROOT_FIELDS = new Set([RATE_LIMIT_FIELD, '__typename']);
const INTROSPECTION_FIELDS = new Set(['__schema', '__type']);

const clampLimit = (value: unknown, fallback: number): number => {
  const n = typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : fallback;
  return Math.min(n, MAX_LIMIT);
};

/** Variables' own defaults (`$limit: Int = 50`), which the raw variables a request sends leave out. */
type VariableDefaults = Map<string, number>;

function literalLimit(value: ValueNode, fallback: number, defaults: VariableDefaults): ListSize {
  if (value.kind === Kind.VARIABLE) return { variable: value.name.value, omitted: clampLimit(defaults.get(value.name.value), fallback), fallback: clampLimit(undefined, fallback) };
  if (value.kind === Kind.INT) return { fixed: clampLimit(Number(value.value), fallback) };
  return { fixed: clampLimit(undefined, fallback) };
}

/** `@skip(if: true)` / `@include(if: false)` as literals leave a selection out; a variable condition counts it in. */
function excluded(node: { directives?: readonly { name: { value: string }; arguments?: readonly { name: { value: string }; value: ValueNode }[] }[] }): boolean {
  for (const directive of node.directives ?? []) {
    const condition = directive.arguments?.find((argument) => argument.name.value === 'if')?.value;
    if (condition?.kind !== Kind.BOOLEAN) continue;
    if (directive.name.value === 'skip' && condition.value) return true;
    if (directive.name.value === 'include' && !condition.value) return true;
  }
  return false;
}

/** graphql-js's field collection: fields by response key, fragments and inline fragments flattened (any type condition). */
function collectFields(selectionSets: readonly SelectionSetNode[], fragments: Map<string, FragmentDefinitionNode>, into = new Map<string, FieldNode[]>(), seen = new Set<string>()): Map<string, FieldNode[]> {
  for (const set of selectionSets) {
    for (const selection of set.selections) {
      if (excluded(selection)) continue;
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        const list = into.get(key);
        if (list) list.push(selection);
        else into.set(key, [selection]);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        collectFields([selection.selectionSet], fragments, into, seen);
      } else {
        const name = selection.name.value;
        const fragment = fragments.get(name);
        if (!fragment || seen.has(name)) continue;
        seen.add(name);
        collectFields([fragment.selectionSet], fragments, into, seen);
        seen.delete(name);
      }
    }
  }
  return into;
}

/** The field definition on a type; for an interface or union, the first possible type that has it. */
function fieldOf(schema: GraphQLSchema, type: GraphQLNamedType, name: string): GraphQLField<unknown, unknown> | undefined {
  if (isObjectType(type)) return type.getFields()[name];
  if (isAbstractType(type)) {
    for (const possible of schema.getPossibleTypes(type)) {
      const field = possible.getFields()[name];
      if (field) return field;
    }
  }
  return undefined;
}

const isObjectOutput = (type: GraphQLOutputType): boolean => {
  const named = getNamedType(type);
  return isObjectType(named) || isAbstractType(named);
};

interface PlanScope {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  defaults: VariableDefaults;
}

function planFields(scope: PlanScope, parent: GraphQLNamedType, fields: Map<string, FieldNode[]>, pageSize: ListSize | null): CostNode[] {
  const { schema, fragments, defaults } = scope;
  const nodes: CostNode[] = [];
  for (const [key, fieldNodes] of fields) {
    const first = fieldNodes[0];
    if (!first || first.name.value.startsWith('__')) continue;
    const field = fieldOf(schema, parent, first.name.value);
    if (!field || !isObjectOutput(field.type)) continue;
    const limitArgument = field.args.find((argument) => argument.name === 'limit');
    const fallback = typeof limitArgument?.defaultValue === 'number' ? limitArgument.defaultValue : DEFAULT_LIMIT;
    const given = first.arguments?.find((argument) => argument.name.value === 'limit')?.value;
    const ownSize: ListSize | null = limitArgument ? (given ? literalLimit(given, fallback, defaults) : { fixed: clampLimit(undefined, fallback) }) : null;
    const isList = isListType(getNullableType(field.type));
    // A page's `data` holds as many elements as the page field's `limit`; any other list without one, the default.
    const list = isList ? (ownSize ?? pageSize ?? { fixed: DEFAULT_LIMIT }) : null;
    const childSets = fieldNodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
    const children = planFields(scope, getNamedType(field.type), collectFields(childSets, fragments), isList ? null : ownSize);
    nodes.push({ key, list, children });
  }
  return nodes;
}

function operationOf(document: DocumentNode, operationName: string | null | undefined): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION);
  return operationName ? operations.find((operation) => operation.name?.value === operationName) : operations.length === 1 ? operations[0] : undefined;
}

/** One pass over the operation (the document must be valid against `schema`). Undefined when there is no such operation. */
export function planCost(schema: GraphQLSchema, document: DocumentNode, operationName?: string | null): CostPlan | undefined {
  const operation = operationOf(document, operationName);
  if (!operation) return undefined;
  const fragments = new Map(document.definitions.filter((definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION).map((fragment) => [fragment.name.value, fragment]));
  const roots = collectFields([operation.selectionSet], fragments);
  const names = [...roots.values()].map((nodes) => nodes[0]?.name.value ?? '');
  if (operation.operation === 'mutation') return { kind: 'mutation', rootFields: names.filter((name) => name !== '__typename').length };
  if (operation.operation === 'query' && names.every((name) => FREE_ROOT_FIELDS.has(name))) return { kind: 'free' };
  const root = operation.operation === 'query' ? schema.getQueryType() : operation.operation === 'subscription' ? schema.getSubscriptionType() : null;
  if (!root) return { kind: 'query', nodes: [] };
  // rateLimit and introspection weigh nothing beside data fields; an operation of introspection alone costs 1.
  const counted = new Map([...roots].filter(([, nodes]) => !FREE_ROOT_FIELDS.has(nodes[0]?.name.value ?? '') && !INTROSPECTION_FIELDS.has(nodes[0]?.name.value ?? '')));
  const defaults: VariableDefaults = new Map();
  for (const definition of operation.variableDefinitions ?? []) {
    if (definition.defaultValue?.kind === Kind.INT) defaults.set(definition.variable.name.value, Number(definition.defaultValue.value));
  }
  return { kind: 'query', nodes: planFields({ schema, fragments, defaults }, root, counted, null) };
}

const sizeOf = (list: ListSize, variables: Record<string, unknown> | null | undefined): number => {
  if ('fixed' in list) return list.fixed;
  return variables && Object.hasOwn(variables, list.variable) ? clampLimit(variables[list.variable], list.fallback) : list.omitted;
};

function requestedObjects(nodes: readonly CostNode[], variables: Record<string, unknown> | null | undefined): number {
  let total = 0;
  for (const node of nodes) total += (node.list ? sizeOf(node.list, variables) : 1) * (1 + requestedObjects(node.children, variables));
  return total;
}

function valueObjects(value: unknown, children: readonly CostNode[]): number {
  if (value === null || value === undefined) return 0;
  if (Array.isArray(value)) {
    let total = 0;
    for (const element of value) total += valueObjects(element, children);
    return total;
  }
  return 1 + actualObjects(children, value as Record<string, unknown>);
}

function actualObjects(nodes: readonly CostNode[], data: Record<string, unknown>): number {
  let total = 0;
  for (const node of nodes) total += valueObjects(data[node.key], node.children);
  return total;
}

/** A query's N before running: each list at its limit, nullable objects counted as present. */
export const requestedObjectCount = (plan: CostPlan & { kind: 'query' }, variables?: Record<string, unknown> | null): number => requestedObjects(plan.nodes, variables);

/** Points asked for before running (§7.1 `requested`). */
export function requestedPoints(plan: CostPlan, variables?: Record<string, unknown> | null): number {
  if (plan.kind === 'free') return 0;
  if (plan.kind === 'mutation') return plan.rootFields;
  return pointsFor(requestedObjectCount(plan, variables));
}

/** Points charged after running (§7.1 `actual`): the objects really returned. */
export function actualPoints(plan: CostPlan, data: Record<string, unknown> | null | undefined): number {
  if (plan.kind === 'free') return 0;
  if (plan.kind === 'mutation') return plan.rootFields;
  return pointsFor(data ? actualObjects(plan.nodes, data) : 0);
}

/** The plan of a document, computed once per document and operation name (documents are cached by the server). */
export function createCostPlanCache(schema: GraphQLSchema): (document: DocumentNode, operationName?: string | null) => CostPlan | undefined {
  const plans = new WeakMap<DocumentNode, Map<string, CostPlan | undefined>>();
  return (document, operationName) => {
    let byName = plans.get(document);
    if (!byName) plans.set(document, (byName = new Map()));
    const name = operationName ?? '';
    if (!byName.has(name)) byName.set(name, planCost(schema, document, operationName));
    return byName.get(name);
  };
}
