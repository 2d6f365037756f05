import { Kind, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

/**
 * Whether the query asks for `path` below the field being resolved (through fragments too), so that a list
 * reads a costly column only when it is shown. Directives are ignored: a field under @skip still counts as
 * asked, which only means reading a column that is not needed.
 */
export function selectsPath(info: GraphQLResolveInfo, path: readonly string[]): boolean {
  // A compiled query (graphql-jit) hands every call of a field the same `fieldNodes`: a list of 100 forms asks once.
  let known = answers.get(info.fieldNodes);
  if (!known) answers.set(info.fieldNodes, (known = new Map()));
  const key = path.length === 1 ? path[0]! : path.join('.');
  let answer = known.get(key);
  if (answer === undefined) known.set(key, (answer = lookUp(info, path)));
  return answer;
}

/** Per field node list (of one parsed document, so its fragments are fixed too) and path. */
const answers = new WeakMap<readonly FieldNode[], Map<string, boolean>>();

function lookUp(info: GraphQLResolveInfo, path: readonly string[]): boolean {
  const visit = (set: SelectionSetNode | undefined, depth: number): boolean =>
    set !== undefined &&
    set.selections.some((selection) => {
      if (selection.kind === Kind.FIELD) {
        return selection.name.value === path[depth] && (depth === path.length - 1 || visit(selection.selectionSet, depth + 1));
      }
      if (selection.kind === Kind.INLINE_FRAGMENT) return visit(selection.selectionSet, depth);
      return visit(info.fragments[selection.name.value]?.selectionSet, depth);
    });
  return info.fieldNodes.some((node) => visit(node.selectionSet, 0));
}
