import { Kind, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

type Fragments = GraphQLResolveInfo['fragments'];

/**
 * Whether the query asks for `path` below the field being resolved (through fragments too), so that a list
 * reads a costly column only when it is shown. Directives are ignored: a field under @skip still counts as
 * asked, which only means reading a column that is not needed.
 */
export function selectsPath(info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>, path: readonly string[]): boolean {
  // A compiled query (graphql-jit) hands every call of a field the same `fieldNodes`: a list of 100 forms asks once.
  let known = answers.get(info.fieldNodes);
  if (!known) answers.set(info.fieldNodes, (known = new Map()));
  const key = path.length === 1 ? path[0]! : path.join('.');
  let answer = known.get(key);
  if (answer === undefined) known.set(key, (answer = fieldsAt(info.fieldNodes, info.fragments, path).fields.size > 0));
  return answer;
}

/** Per field node list (of one parsed document, so its fragments are fixed too) and path. */
const answers = new WeakMap<readonly FieldNode[], Map<string, boolean>>();

/**
 * The fields at `path` below `nodes`, through fragments, by response path (aliases: `a.latestSubmissions`), each
 * with its nodes as the executor merges them; `conditional` when a directive (@skip, @include) sits on one of them
 * or on the way to one, i.e. when the query may not resolve them after all.
 */
export function fieldsAt(nodes: readonly FieldNode[], fragments: Fragments, path: readonly string[]): { fields: Map<string, FieldNode[]>; conditional: boolean } {
  const fields = new Map<string, FieldNode[]>();
  let conditional = false;
  const visit = (set: SelectionSetNode | undefined, depth: number, at: string): void => {
    for (const selection of set?.selections ?? []) {
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value !== path[depth]) continue;
        if (selection.directives?.length) conditional = true;
        const key = `${at}.${selection.alias?.value ?? selection.name.value}`;
        if (depth === path.length - 1) fields.set(key, [...(fields.get(key) ?? []), selection]);
        else visit(selection.selectionSet, depth + 1, key);
        continue;
      }
      if (selection.directives?.length) conditional = true;
      if (selection.kind === Kind.INLINE_FRAGMENT) visit(selection.selectionSet, depth, at);
      else visit(fragments[selection.name.value]?.selectionSet, depth, at);
    }
  };
  for (const node of nodes) visit(node.selectionSet, 0, '');
  return { fields, conditional };
}

/** Per field node list (of one parsed document) and path: the names below it. */
const namesBelow = new WeakMap<readonly FieldNode[], Map<string, ReadonlySet<string>>>();

/**
 * The names of the fields the query selects on the objects at `path` below the field being resolved (through
 * fragments; directives ignored, as in selectsPath), e.g. ['data'] of a page: what each item of the page shows.
 */
export function fieldNamesAt(info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>, path: readonly string[]): ReadonlySet<string> {
  let known = namesBelow.get(info.fieldNodes);
  if (!known) namesBelow.set(info.fieldNodes, (known = new Map()));
  const key = path.join('.');
  let names = known.get(key);
  if (!names) {
    const found = new Set<string>();
    const visit = (set: SelectionSetNode | undefined): void => {
      for (const selection of set?.selections ?? []) {
        if (selection.kind === Kind.FIELD) found.add(selection.name.value);
        else visit(selection.kind === Kind.INLINE_FRAGMENT ? selection.selectionSet : info.fragments[selection.name.value]?.selectionSet);
      }
    };
    for (const nodes of fieldsAt(info.fieldNodes, info.fragments, path).fields.values()) for (const node of nodes) visit(node.selectionSet);
    known.set(key, (names = found));
  }
  return names;
}
