import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { describe, expect, it } from 'vitest';

/**
 * The rules of .dependency-cruiser.cjs: no import circles; no transport code in src/domain or src/infra; the
 * execution layer and the schema import no transport; the transports (rest, graphql, mcp, streams) never import
 * each other; forms and submissions on the driver only (src/domain/README.md). Each rule is shown to fire on a
 * fixture that breaks it. (A presenter callback the domain might take
 * without importing its type is presenters.test.ts's.)
 */
const root = fileURLToPath(new URL('../..', import.meta.url));

async function violations(dir: string, baseDir: string): Promise<string[]> {
  const options = await extractDepcruiseOptions(`${root}/.dependency-cruiser.cjs`);
  const { output } = await cruise([dir], { ...options, baseDir }, {}, { tsConfig: extractTSConfig(`${root}/tsconfig.json`) });
  const result = output as ICruiseResult;
  return result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.cycle?.map((step) => step.name).join(' → ') ?? v.to}`);
}

describe('import rules (.dependency-cruiser.cjs)', () => {
  it('src/ keeps every rule: no circle, layers import one way, transports apart', async () => {
    expect(await violations('src', root)).toStrictEqual([]);
  });

  it('reject a circle of type-only imports, a domain module serving HTTP or reaching the execution layer (a presenter, or the type of a presenter callback), an execution module importing REST, a resolver importing REST, REST importing the GraphQL adapter, a hot resource taking Database or Prisma\'s client (its row types are allowed)', async () => {
    const found = await violations('src', fileURLToPath(new URL('./fixture', import.meta.url)));
    expect(found.sort()).toStrictEqual([
      'hot-resources-on-the-driver: src/domain/submissions/reads-prisma.ts → src/infra/db.ts',
      'hot-resources-prisma-types-only: src/domain/submissions/reads-prisma.ts → src/generated/prisma/client.ts',
      'no-circular: src/schema/first.ts → src/schema/second.ts → src/schema/first.ts',
      'no-transport-in-domain: src/domain/presents.ts → src/execution/runs-rest.ts',
      'no-transport-in-domain: src/domain/serves-http.ts → ../../../node_modules/graphql-yoga/cjs/index.js',
      'no-transport-in-domain: src/domain/serves-http.ts → http',
      'no-transport-in-domain: src/domain/takes-presenter.ts → src/execution/present.ts',
      'no-transport-in-execution: src/execution/runs-rest.ts → src/rest/calls-graphql.ts',
      'no-transport-in-schema: src/schema/reads-rest.ts → src/rest/calls-graphql.ts',
      'transports-apart: src/rest/calls-graphql.ts → src/graphql/serves.ts',
    ]);
  });
});
