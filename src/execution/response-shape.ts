import {
  getNamedType,
  getNullableType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';

export type JsonSchema = Record<string, unknown>;

/**
 * v1 shows these members only when set, where GraphQL answers null for an unset nullable field: a field
 * element's optional properties (contract §4 "field element") and the verification instructions, which exist
 * only while unverified (v1 "Site verification status"). Keyed by GraphQL type, so every body and event that
 * shows the type follows the same rule.
 */
const SHOWN_ONLY_WHEN_SET: Record<string, ReadonlySet<string>> = {
  FormField: new Set(['required', 'options', 'placeholder']),
  SiteVerification: new Set(['instructions']),
};

/**
 * The JSON Schema of each scalar as v1 shows it. Every JSON-typed field of a v1 body is an object (formData,
 * customFields, settings, appearance, behavior, shippingAddress).
 */
const SCALARS: Record<string, JsonSchema> = {
  Int: { type: 'integer' },
  Float: { type: 'number' },
  String: { type: 'string' },
  ID: { type: 'string' },
  Boolean: { type: 'boolean' },
  DateTime: { type: 'string', format: 'date-time' },
  JSON: { type: 'object' },
};

interface Member {
  key: string;
  type: GraphQLOutputType;
  /** For object types (through lists): the members selected inside. */
  members: Member[] | null;
  shownOnlyWhenSet: boolean;
}

export interface ShapeOptions {
  /** A member of the root field whose fields become the body (ingest's `submission`, a created webhook's `webhook`). */
  spread?: string;
  /** Members of the root field kept beside the spread ones (a created webhook's `secret`); the rest steer the response. */
  keep?: string[];
  /**
   * A list walkable by cursor (decisions §7.6): the root field selects `data`, `pagination` (skipped in cursor mode)
   * and `cursor { limit next }`. Page mode answers `{ data, pagination }`, cursor mode `{ data, pagination: cursor }`;
   * `cursor.next` steers the `Link` header and is never in a page-mode body.
   */
  walk?: true;
}

export interface ResponseShape {
  /** The response key of the operation's one root field. */
  rootKey: string;
  /** The v1 body from the root field's value: picks what `spread`/`keep` say, drops unset show-when-set members. */
  toBody(root: unknown): unknown;
  /** JSON Schema of that body, from the selection and GraphQL nullability: what OpenAPI documents. */
  schema: JsonSchema | null;
  /** Walkable lists: the cursor of the following page, from the root field's value (null after the last row). */
  next?(root: unknown): string | null;
}

function membersOf(schema: GraphQLSchema, parent: GraphQLObjectType, selectionSet: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>): Member[] {
  const members: Member[] = [];
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FRAGMENT_SPREAD) {
      const fragment = fragments.get(selection.name.value);
      if (!fragment) throw new Error(`Unknown fragment ${selection.name.value}`);
      members.push(...membersOf(schema, parent, fragment.selectionSet, fragments));
      continue;
    }
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      members.push(...membersOf(schema, parent, selection.selectionSet, fragments));
      continue;
    }
    const field = parent.getFields()[selection.name.value];
    if (!field) throw new Error(`${parent.name} has no field ${selection.name.value}`);
    const named = getNamedType(field.type);
    members.push({
      key: selection.alias?.value ?? selection.name.value,
      type: field.type,
      members: selection.selectionSet && isObjectType(named) ? membersOf(schema, named, selection.selectionSet, fragments) : null,
      shownOnlyWhenSet: SHOWN_ONLY_WHEN_SET[parent.name]?.has(selection.name.value) ?? false,
    });
  }
  return members;
}

function typeSchema(type: GraphQLOutputType, members: Member[] | null): JsonSchema {
  const inner = getNullableType(type);
  let schema: JsonSchema;
  if (isListType(inner)) schema = { type: 'array', items: typeSchema(inner.ofType, members) };
  else if (members) schema = objectSchema(members);
  else if (isEnumType(inner)) schema = { type: 'string', enum: inner.getValues().map((value) => value.name) };
  else if (isScalarType(inner) && SCALARS[inner.name]) schema = { ...SCALARS[inner.name] };
  else throw new Error(`No JSON Schema for ${String(inner)}`);
  if (isNonNullType(type)) return schema;
  return typeof schema.type === 'string' && !schema.enum ? { ...schema, type: [schema.type, 'null'] } : { anyOf: [schema, { type: 'null' }] };
}

function objectSchema(members: Member[]): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(members.map((member) => [member.key, member.shownOnlyWhenSet ? typeSchema(getNullableType(member.type), member.members) : typeSchema(member.type, member.members)])),
    // Every documented field is present, null when absent (contract §5), except those shown only when set.
    required: members.filter((member) => !member.shownOnlyWhenSet).map((member) => member.key),
    additionalProperties: false,
  };
}

const needsRewrite = (members: Member[] | null): boolean => members?.some((member) => member.shownOnlyWhenSet || needsRewrite(member.members)) ?? false;

/**
 * Copies only where a show-when-set member lies below; elsewhere the GraphQL value is already the v1 value, its keys
 * in the selection's order (fragments merged where they are spread, as graphql-js and graphql-jit ≥ 0.8.9 collect them).
 */
function rewriter(members: Member[] | null): ((value: unknown) => unknown) | null {
  if (!members || !needsRewrite(members)) return null;
  const inner = members.map((member) => ({ ...member, rewrite: rewriter(member.members) }));
  const rewriteObject = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map(rewriteObject);
    const source = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const member of inner) {
      const child = source[member.key];
      if (member.shownOnlyWhenSet && (child === null || child === undefined)) continue;
      out[member.key] = member.rewrite ? member.rewrite(child) : child;
    }
    return out;
  };
  return rewriteObject;
}

/** The shape of a selection set on a type, outside any operation (events present a row through a fragment). */
export function selectionShape(schema: GraphQLSchema, type: GraphQLObjectType, document: DocumentNode, selectionSet: SelectionSetNode): (value: unknown) => unknown {
  const fragments = new Map(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
  return rewriter(membersOf(schema, type, selectionSet, fragments)) ?? ((value) => value);
}

/**
 * Walks a pinned operation's selection against the schema (as SOFA derives REST from operations): the v1 body
 * and its JSON Schema are both read from the one selection, so neither can drift from it.
 */
export function compileResponseShape(schema: GraphQLSchema, document: DocumentNode, options: ShapeOptions = {}): ResponseShape {
  const operation = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
  if (!operation) throw new Error('The document has no operation');
  const rootType = operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  if (!rootType) throw new Error(`The schema has no ${operation.operation} type`);
  const fragments = new Map(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
  const roots = membersOf(schema, rootType, operation.selectionSet, fragments);
  const root = roots[0];
  if (!root || roots.length !== 1) throw new Error('A pinned operation selects exactly one root field');

  if (options.walk) return walkShape(root);
  let members = root.members;
  let type = root.type;
  if (options.spread) {
    const spread = members?.find((member) => member.key === options.spread);
    if (!spread?.members) throw new Error(`The root field has no object member ${options.spread}`);
    const kept = (options.keep ?? []).map((key) => {
      const member = members?.find((candidate) => candidate.key === key);
      if (!member) throw new Error(`The root field has no member ${key}`);
      return member;
    });
    members = [...spread.members, ...kept];
    type = spread.type;
  }
  const bodyMembers = members;
  const rewrite = rewriter(bodyMembers);
  const pick = options.spread
    ? (value: unknown): unknown => {
        const source = value as Record<string, unknown>;
        const picked: Record<string, unknown> = { ...(source[options.spread ?? ''] as Record<string, unknown>) };
        for (const key of options.keep ?? []) picked[key] = source[key];
        return picked;
      }
    : null;
  const toBody = pick && rewrite ? (value: unknown) => rewrite(pick(value)) : (pick ?? rewrite ?? ((value: unknown) => value));
  // A root field of a scalar type (DELETE's Boolean) has no body.
  return { rootKey: root.key, toBody, schema: bodyMembers ? typeSchema(type, bodyMembers) : null };
}

/** The two bodies of a walkable list (ShapeOptions.walk), read from the one selection. */
function walkShape(root: Member): ResponseShape {
  const member = (key: string): Member => {
    const found = root.members?.find((candidate) => candidate.key === key);
    if (!found?.members) throw new Error(`A walkable list selects ${key} { … }`);
    return found;
  };
  const data = member('data');
  const pagination = member('pagination');
  const cursor = member('cursor');
  const pageMembers = [data, pagination];
  const cursorMembers = [data, { ...cursor, key: 'pagination' }];
  const rewritePage = rewriter(pageMembers) ?? ((value: unknown) => value);
  const rewriteData = rewriter(data.members) ?? ((value: unknown) => value);
  const toBody = (value: unknown): unknown => {
    const source = value as { data: unknown[]; pagination?: unknown; cursor: unknown };
    // `pagination` is skipped (@include) in cursor mode: its absence is what says which body this is.
    if (source.pagination === undefined) return { data: rewriteData(source.data), pagination: source.cursor };
    return rewritePage({ data: source.data, pagination: source.pagination });
  };
  return {
    rootKey: root.key,
    toBody,
    // `type: object` beside the alternatives: MCP tool output schemas (derived from this) must be objects at the top.
    // anyOf, not oneOf: the two envelopes differ only in their `pagination` members, which no discriminator can name,
    // and Redocly's recommended rules refuse a oneOf whose members it cannot prove exclusive.
    schema: { type: 'object', anyOf: [typeSchema(root.type, pageMembers), typeSchema(root.type, cursorMembers)] },
    next: (value) => (value as { cursor: { next: string | null } }).cursor.next,
  };
}
