import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { enginesRange, npmNodeVersion, satisfiesRange } from '../scripts/runtime-check.js';

describe('the Node runtime', () => {
  it('engines.node allows the Node that runs these tests (npm test runs on the `node` devDependency, not the system Node 20)', () => {
    expect(satisfiesRange(process.version, enginesRange())).toBe(true);
  });

  it.runIf(process.env.npm_command)('through npm, this process and the processes the tests spawn run on node_modules/.bin/node', () => {
    const projectNode = realpathSync('node_modules/.bin/node');
    expect(realpathSync(process.execPath)).toBe(projectNode);
    // What npm scripts (start, worker, admin, postinstall) resolve as `node`: the first one on their PATH.
    expect(execFileSync('node', ['-p', 'process.execPath'], { encoding: 'utf8' }).trim()).toBe(projectNode);
  });

  it('engines.node is ^22.15 (graphql-yoga needs @whatwg-node/promise-helpers, Node >= 22.15) or 24 and later (Prisma skips 23)', () => {
    const range = enginesRange();
    expect(['20.20.2', '22.14.0', '22.15.0', '22.23.3', '23.11.1', '24.0.0', '26.10.0'].map((v) => [v, satisfiesRange(v, range)])).toStrictEqual([
      ['20.20.2', false],
      ['22.14.0', false],
      ['22.15.0', true],
      ['22.23.3', true],
      ['23.11.1', false],
      ['24.0.0', true],
      ['26.10.0', true],
    ]);
    expect(satisfiesRange('22.15.0', '~22.15')).toBeNull();
  });

  it('reads the Node that runs npm from its user agent', () => {
    expect(npmNodeVersion({ npm_config_user_agent: 'npm/11.19.1 node/v20.20.2 linux x64 workspaces/false' })).toBe('v20.20.2');
    expect(npmNodeVersion({})).toBeNull();
  });
});
