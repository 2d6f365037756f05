import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { flagsToApply, POSTGRES_V8_FLAGS } from '../src/infra/runtime-tuning.js';

const tuning = fileURLToPath(new URL('../src/infra/runtime-tuning.ts', import.meta.url));

/**
 * A child process applies the tuning the way src/main.ts does (after V8 has started), then runs a hot WebAssembly
 * function: `(func (param i32) (result i32))` summing 0..n in a loop, hot enough for V8's dynamic tier-up.
 * `--trace-wasm-compilation-times` prints one line per function compiled, naming the compiler.
 */
function compilersAfter(apply: 'applyPostgresRuntimeTuning' | 'applyEmbeddedRuntimeTuning' | null, nodeFlags: string[] = []): string[] {
  const script = `
    ${apply ? `const tuning = await import(${JSON.stringify(tuning)}); tuning.${apply}();` : ''}
    const bytes = new Uint8Array([0,97,115,109,1,0,0,0,1,6,1,96,1,127,1,127,3,2,1,0,7,7,1,3,115,117,109,0,0,10,32,1,30,1,1,127,3,64,32,0,4,64,32,1,32,0,106,33,1,32,0,65,1,107,33,0,12,1,11,11,32,1,11]);
    const { instance } = await WebAssembly.instantiate(bytes);
    let total = 0;
    for (let i = 0; i < 20000; i++) total += instance.exports.sum(1000);
    if (total !== 10010000000) throw new Error('wrong sum ' + total);`;
  const output = execFileSync(process.execPath, [...nodeFlags, '--import', 'tsx', '--trace-wasm-compilation-times', '--input-type=module', '-e', script], { encoding: 'utf8' });
  return [...output.matchAll(/^Compiled function \S+ using (\w+)/gm)].map((match) => match[1]!);
}

describe('runtime tuning (src/infra/runtime-tuning.ts)', () => {
  it('untuned, V8 recompiles a hot WebAssembly function with TurboFan (what the tuning is there to stop)', () => {
    expect(compilersAfter(null)).toStrictEqual(['Liftoff', 'TurboFan']);
  });

  it('on PostgreSQL, set after start-up, keeps WebAssembly (Prisma’s query compiler) on Liftoff', () => {
    expect(compilersAfter('applyPostgresRuntimeTuning')).toStrictEqual(['Liftoff']);
  });

  it('on the embedded database, set after start-up, keeps WebAssembly (PGlite) on Liftoff', () => {
    expect(compilersAfter('applyEmbeddedRuntimeTuning')).toStrictEqual(['Liftoff']);
  });

  it('leaves a flag the operator set on the command line alone: here TurboFan stays on', () => {
    expect(compilersAfter('applyPostgresRuntimeTuning', ['--no-liftoff-only', '--wasm-tier-up', '--wasm-dynamic-tiering'])).toStrictEqual(['Liftoff', 'TurboFan']);
  });

  it('applies every other default, and reads NODE_OPTIONS and either spelling of a name', () => {
    expect(flagsToApply(POSTGRES_V8_FLAGS, ['--heap_growing_percent=60'], '')).toStrictEqual(['--liftoff-only', '--no-wasm-tier-up', '--no-wasm-dynamic-tiering']);
    expect(flagsToApply(POSTGRES_V8_FLAGS, ['--import', 'tsx'], '--max-old-space-size=512 --no-liftoff-only')).toStrictEqual(['--no-wasm-tier-up', '--no-wasm-dynamic-tiering', '--heap-growing-percent=30']);
    expect(flagsToApply(POSTGRES_V8_FLAGS, [], '')).toStrictEqual([...POSTGRES_V8_FLAGS]);
  });
});
