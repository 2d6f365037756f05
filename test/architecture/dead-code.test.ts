import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** knip (knip.jsonc): no unused file, export or dependency; an export only its own file uses does not count. */
const root = fileURLToPath(new URL('../..', import.meta.url));

describe('dead code (knip)', () => {
  it('finds no unused file, export, type or dependency', async () => {
    const outcome = await promisify(execFile)(process.execPath, [`${root}/node_modules/knip/bin/knip.js`, '--no-progress', '--no-config-hints'], { cwd: root }).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );
    expect(outcome).toStrictEqual({ code: 0, stdout: '' });
  }, 60_000);
});
