/**
 * Import rules for src/ (test/architecture/imports.test.ts runs them, each against a fixture that breaks it;
 * `npx depcruise src` shows them). Layers import one way (style.md, "The shape"):
 *   transports (src/rest, src/graphql, src/mcp, src/streams) → src/execution → src/schema → src/domain → src/infra
 * and the transports never import each other: a new way in is an adapter over src/execution, not a second API.
 * Forms and submissions, the hot resources, reach the database through the driver only (src/domain/README.md).
 */
/** The hot resources, on the driver only (src/domain/README.md). */
const HOT_RESOURCES = '(^|/)src/domain/(forms|submissions)/';
/** The transports: each adapts one protocol to src/execution. */
const TRANSPORTS = '(^|/)src/(rest|graphql|mcp|streams)/';
/** Packages that speak HTTP for GraphQL (Yoga, envelop, the fetch-API server adapter): only src/graphql and src/rest use them. */
const HTTP_GRAPHQL_PACKAGES = 'node_modules/(graphql-yoga|@graphql-yoga/[^/]+|@envelop/[^/]+|@whatwg-node/[^/]+)/';
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
        'Yoga and node:http request handling live in src/rest, src/schema, src/gate and the top-level app/server wiring. ' +
        'Among them the presenters and their `Present` type (src/execution/present.ts): the domain takes no presenter ' +
        'callback, its caller presents an outcome once (issue 32; test/architecture/presenters.test.ts finds one spelled without the type).',
      severity: 'error',
      from: { path: '(^|/)src/(domain|infra)/' },
      to: {
        path: [
          '(^|/)src/(rest|graphql|mcp|streams|execution|schema|gate|cli|worker|fixtures)/',
          '(^|/)src/(app|server|context|main|http-drain|shutdown)\\.ts$',
          TRANSPORT_PACKAGES,
          '^(node:)?(http|https|http2)$',
        ],
      },
    },
    {
      name: 'no-transport-in-execution',
      comment:
        'src/execution (pinned operations, route rows, response shapes, presenters, running a row) is what every ' +
        'transport runs: it imports none of them, nor the HTTP adapters of GraphQL, nor node:http.',
      severity: 'error',
      from: { path: '(^|/)src/execution/' },
      to: { path: [TRANSPORTS, '(^|/)src/(app|server|main|http-drain|shutdown)\\.ts$', HTTP_GRAPHQL_PACKAGES, '^(node:)?(http|https|http2)$'] },
    },
    {
      name: 'no-transport-in-schema',
      comment: 'The Pothos types and resolvers serve every transport through src/execution: they import no transport.',
      severity: 'error',
      from: { path: '(^|/)src/(schema|gate)/' },
      to: { path: [TRANSPORTS, HTTP_GRAPHQL_PACKAGES] },
    },
    {
      name: 'transports-apart',
      comment: 'REST, the GraphQL HTTP adapter, MCP and streams never import each other: what they share is in src/execution.',
      severity: 'error',
      from: { path: '(^|/)src/(rest|graphql|mcp|streams)/' },
      to: { path: TRANSPORTS, pathNot: '(^|/)src/$2/' },
    },
    {
      name: 'hot-resources-on-the-driver',
      comment:
        'Forms and submissions are read and written through src/infra/sql.ts on the driver only, so that a list and a get ' +
        'give the same row and a write moves counters in its one statement (src/domain/README.md): their modules take ' +
        'SqlExecutor or DriverSql (src/infra/db-driver.ts), never Database or AppDeps, which carry Prisma.',
      severity: 'error',
      from: { path: HOT_RESOURCES },
      to: { path: '(^|/)src/(infra/db|deps)\\.ts$' },
    },
    {
      name: 'hot-resources-prisma-types-only',
      comment: 'Forms and submissions use Prisma\'s generated client for its row and enum types only, never its client (src/domain/README.md).',
      severity: 'error',
      from: { path: HOT_RESOURCES },
      to: { path: '(^|/)src/generated/prisma/', dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    // Type-only imports count: a circle of types is still a circle between modules.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // src/generated is in the graph (hot-resources-prisma-types-only looks at imports of it) but not cruised.
    doNotFollow: { path: ['node_modules', '(^|/)src/generated/'] },
  },
};
