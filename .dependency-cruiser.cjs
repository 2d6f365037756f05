/**
 * Import rules for src/ (test/architecture/imports.test.ts runs them; `npx depcruise src` shows them):
 * no import circles, type-only imports included; transport code stays out of the domain and infra layers.
 */
/** Packages that serve a transport: GraphQL execution, the Pothos builder, Yoga and its server adapter. */
const TRANSPORT_PACKAGES = 'node_modules/(graphql|graphql-yoga|graphql-jit|graphql-rate-limit|@graphql-yoga/[^/]+|@pothos/[^/]+|@envelop/[^/]+|@whatwg-node/[^/]+)/';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A circle makes load order matter and hides which layer owns what.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-transport-in-domain',
      comment:
        'src/domain and src/infra are shared by both transports: the route table, Pothos types, the request context, ' +
        'Yoga and node:http request handling live in src/rest, src/schema, src/gate and the top-level app/server wiring.',
      severity: 'error',
      from: { path: '(^|/)src/(domain|infra)/' },
      to: {
        path: [
          '(^|/)src/(rest|schema|gate|cli|worker|fixtures)/',
          '(^|/)src/(app|server|context|main|http-drain|shutdown)\\.ts$',
          TRANSPORT_PACKAGES,
          '^(node:)?(http|https|http2)$',
        ],
      },
    },
  ],
  options: {
    // Type-only imports count: a circle of types is still a circle between modules.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '(^|/)src/generated/' },
    doNotFollow: { path: ['node_modules', '(^|/)src/generated/'] },
  },
};
