import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const schemaModule = fileURLToPath(new URL('../../src/schema/index.ts', import.meta.url));
/** The graphql-jit that compiles POST /graphql documents: the one @envelop/graphql-jit (useGraphQlJit) loads. */
const yogaJit = createRequire(require.resolve('@envelop/graphql-jit')).resolve('graphql-jit');

/**
 * Every distinct document sent to POST /graphql is compiled once (graphql-jit). graphql-jit 0.8.7 memoized a helper
 * on values it built per compilation, in a module-level cache, so every distinct document ever compiled stayed in
 * memory (clients that write values into their documents, or a caller sending unique ones, grow the heap until the
 * process dies). A child process compiles 20,000 distinct documents against the real schema and reports how much
 * the heap grew, each side measured after a last-resort full GC (which also drops V8's code caches): 0.8.7 grew
 * ~34 MB here, 0.8.9 ~0.
 */
describe('distinct GraphQL documents', () => {
  it('leave nothing behind once compiled and dropped (20,000 documents, heap growth < 8 MB)', () => {
    const script = `
      import { parse } from 'graphql';
      import { createRequire } from 'node:module';
      const { toSchema } = await import(${JSON.stringify(schemaModule)});
      const { compileQuery, isCompiledQuery } = createRequire(import.meta.url)(${JSON.stringify(yogaJit)});
      const schema = toSchema();
      const compile = (i) => {
        const document = parse(\`{ forms(limit: \${1 + (i % 100)}, page: \${1 + Math.floor(i / 100)}) { data { id name submissionCount latestSubmissions(limit: 5) { id createdAt } } pagination { total } } }\`);
        if (!isCompiledQuery(compileQuery(schema, document))) throw new Error('not compiled');
      };
      const collect = () => globalThis.gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
      for (let i = 0; i < 500; i++) compile(1e6 + i); // warm: lazily built caches of the schema itself
      collect();
      const before = process.memoryUsage().heapUsed;
      for (let i = 0; i < 20000; i++) compile(i);
      collect();
      process.stdout.write(String((process.memoryUsage().heapUsed - before) / 1e6));`;
    const output = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(Number(output)).toBeLessThan(8);
  }, 120_000);

  it('POST /graphql and the REST operations run the same graphql-jit (one version, deduplicated by package.json overrides)', () => {
    expect(yogaJit).toBe(require.resolve('graphql-jit'));
  });
});
