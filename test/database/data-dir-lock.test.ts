import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir } from '../../src/infra/db.js';

/** The embedded database's directory lock (src/infra/db.ts), held by a real second process. */
const dbModule = new URL('../../src/infra/db.ts', import.meta.url).href;
const children: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A process that takes the lock, says so, and holds it until killed. */
async function holder(dataDir: string): Promise<ChildProcess> {
  const script = `const { lockDataDir } = await import(${JSON.stringify(dbModule)}); lockDataDir(${JSON.stringify(dataDir)}); console.log('locked'); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  expect(line.toString().trim()).toBe('locked');
  return child;
}

const newDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'wg-lock-'));
  dirs.push(dir);
  return dir;
};

describe('the embedded data directory lock', () => {
  it('refuses a directory another live process holds, naming that process', async () => {
    const dir = newDir();
    const child = await holder(dir);
    let refused: unknown;
    try {
      lockDataDir(dir);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(DataDirLockedError);
    expect((refused as DataDirLockedError).pid).toBe(child.pid);
  });

  it('takes over at once the lock of a process killed with kill -9, and leaves nothing behind when released', async () => {
    const dir = newDir();
    const child = await holder(dir);
    child.kill('SIGKILL');
    await once(child, 'exit');
    expect(existsSync(join(dir, 'db.lock'))).toBe(true);
    const unlock = lockDataDir(dir);
    unlock();
    expect(existsSync(join(dir, 'db.lock'))).toBe(false);
    expect(existsSync(join(dir, 'db.pid'))).toBe(false);
  });
});
