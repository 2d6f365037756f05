import { getNamedType, isObjectType, Kind, type GraphQLObjectType, type SelectionSetNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { loadOperations } from '../../src/execution/operations.js';
import { toSchema } from '../../src/schema/index.js';

/**
 * A field without a resolver is read by graphql-jit as a property, inline; a field with one costs a resolve info, a
 * path and three closures per call, for every row of a list (issue 32: a forms list allocated 449 KB per request,
 * 380 KB once `Form.domain` and `Domain.domain` were read as properties, src/domain/verification/site-domain.ts). The
 * fields each row of the hottest list resolves are named here, so that a new resolver on that path is a decision.
 */
const schema = toSchema();
const operations = loadOperations(schema);

function resolvedFields(type: GraphQLObjectType, selectionSet: SelectionSetNode, fragments: Map<string, SelectionSetNode>, path: string): string[] {
  const found: string[] = [];
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FRAGMENT_SPREAD) {
      found.push(...resolvedFields(type, fragments.get(selection.name.value)!, fragments, path));
      continue;
    }
    if (selection.kind !== Kind.FIELD) continue;
    const field = type.getFields()[selection.name.value]!;
    if (field.resolve) found.push(`${path}${field.name}`);
    const named = getNamedType(field.type);
    if (selection.selectionSet && isObjectType(named)) found.push(...resolvedFields(named, selection.selectionSet, fragments, `${path}${field.name}.`));
  }
  return found;
}

describe('per-row resolvers of the forms list', () => {
  it('each form of GET /v1/forms resolves only its type; the rest is read as properties', () => {
    const { document } = operations.get('list-forms')!;
    const fragments = new Map<string, SelectionSetNode>();
    for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition.selectionSet);
    const formPage = schema.getType('FormPage') as GraphQLObjectType;
    const operation = document.definitions.find((definition) => definition.kind === Kind.OPERATION_DEFINITION)!;
    const forms = operation.selectionSet.selections[0]!;
    if (forms.kind !== Kind.FIELD || !forms.selectionSet) throw new Error('list-forms selects forms { … }');
    const data = forms.selectionSet.selections.find((selection) => selection.kind === Kind.FIELD && selection.name.value === 'data');
    if (data?.kind !== Kind.FIELD || !data.selectionSet) throw new Error('list-forms selects forms { data { … } }');
    const form = getNamedType(formPage.getFields().data!.type) as GraphQLObjectType;
    expect(resolvedFields(form, data.selectionSet, fragments, 'Form.')).toStrictEqual(['Form.type']);
  });
});
