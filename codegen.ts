import { basename } from 'node:path';
import type { CodegenConfig } from '@graphql-codegen/cli';
import type { CodegenPlugin, PluginFunction } from '@graphql-codegen/plugin-helpers';
import { Kind } from 'graphql';

/**
 * `Operations`: each pinned operation's file name → its generated result and variables types, so that a route
 * naming `operation: 'list-forms'` gets `ListFormsQuery` for its data without anyone writing that pairing.
 */
const operationMap: PluginFunction = (_schema, documents) => {
  const rows: string[] = [];
  for (const { location, document } of documents) {
    for (const definition of document?.definitions ?? []) {
      if (definition.kind !== Kind.OPERATION_DEFINITION || !definition.name || !location) continue;
      const type = `${definition.name.value}${definition.operation === 'mutation' ? 'Mutation' : 'Query'}`;
      rows.push(`  '${basename(location, '.graphql')}': { result: Types.${type}; variables: Types.${type}Variables };`);
    }
  }
  return [
    "import type * as Types from './graphql.js';",
    '',
    '/** Each pinned operation (src/execution/operations/<name>.graphql) → its result and variables types. */',
    'export interface Operations {',
    ...rows.sort(),
    '}',
    '',
  ].join('\n');
};
const OPERATION_MAP = 'operation-map';

/**
 * Typed documents for the REST facade's pinned operations, from the printed schema.graphql
 * (`npm run schema:print` first). Output is generated, not committed: `npm run typecheck` and `npm run build`
 * regenerate it; routes import its types only, so running the sources (`npm start`) never needs it.
 */
const config: CodegenConfig = {
  schema: 'schema.graphql',
  documents: ['src/execution/operations/*.graphql'],
  ignoreNoDocuments: false,
  // NodeNext ESM needs explicit extensions in the generated relative imports.
  importExtension: '.js',
  // The operation map is this file's own plugin; every other name loads as usual.
  pluginLoader: async (name: string): Promise<CodegenPlugin> =>
    name.endsWith(OPERATION_MAP) ? { plugin: operationMap } : ((await import(name)) as CodegenPlugin),
  generates: {
    'src/generated/graphql/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        scalars: { DateTime: 'string', JSON: 'unknown' },
      },
      plugins: [],
    },
    'src/generated/graphql/operations.ts': { plugins: [OPERATION_MAP] },
  },
};

export default config;
