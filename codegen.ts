import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * Typed documents for the REST facade's pinned operations, from the printed schema.graphql
 * (`npm run schema:print` first). Output is generated, not committed.
 */
const config: CodegenConfig = {
  schema: 'schema.graphql',
  documents: ['src/rest/operations/*.graphql'],
  ignoreNoDocuments: false,
  // NodeNext ESM needs explicit extensions in the generated relative imports.
  importExtension: '.js',
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
  },
};

export default config;
