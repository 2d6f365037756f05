import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface CliResult {
  exitCode: number | null;
  /** The parsed stdout document (undefined when stdout is empty). */
  out: unknown;
  /** The parsed stderr document (undefined when stderr is empty). */
  err: unknown;
  stdout: string;
  stderr: string;
}

const parse = (text: string): unknown => (text.trim() ? JSON.parse(text) : undefined);

/**
 * Runs the real admin CLI in a child process, the way `npm run admin` does, with only the database
 * variables given here: the test runner's own DATABASE_URL or SECRET_KEY must not leak into it.
 */
export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !['DATABASE_URL', 'DATA_DIR', 'SECRET_KEY', 'SECRET_KEY_PREVIOUS', 'REDIS_URL', 'NODE_OPTIONS'].includes(name)),
  );
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: ROOT, env: { ...base, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (exitCode) => {
      try {
        resolve({ exitCode, out: parse(stdout), err: parse(stderr), stdout, stderr });
      } catch {
        reject(new Error(`CLI printed something other than JSON (exit ${exitCode}):\n${stdout}\n${stderr}`));
      }
    });
  });
}
