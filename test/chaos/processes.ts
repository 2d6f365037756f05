import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The service's own entry points as real child processes (node + tsx, as `npm start` / `npm run worker` run
 * them), so that kill -9 and SIGTERM hit what production runs. Output is kept (bounded) for failure messages.
 */

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export type Role = 'gateway' | 'worker';

const ENTRY: Record<Role, string> = { gateway: 'src/main.ts', worker: 'src/worker/main.ts' };
const READY: Record<Role, RegExp> = { gateway: /"url":"([^"]+)".*"msg":"listening"/, worker: /"msg":"worker started"/ };
const OUTPUT_CAP = 200_000;

export interface ServiceProcess {
  role: Role;
  name: string;
  child: ChildProcess;
  /** The gateway's `http://127.0.0.1:port` (empty for a worker). */
  baseUrl: string;
  output(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  readonly running: boolean;
}

/** Starts one process and waits for its ready line (bounded by `timeoutMs`). */
export async function startProcess(
  role: Role,
  name: string,
  env: Record<string, string>,
  options: { timeoutMs?: number } = {},
): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRY[role]], {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const append = (chunk: Buffer): void => {
    output += chunk.toString();
    if (output.length > OUTPUT_CAP) output = output.slice(-OUTPUT_CAP / 2);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  let running = true;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once('exit', (code, signal) => {
      running = false;
      resolve({ code, signal, at: Date.now() });
    }),
  );
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      clearInterval(poll);
      child.kill('SIGKILL');
      reject(new Error(`${name} did not start within ${options.timeoutMs ?? 60_000} ms:\n${output.slice(-4000)}`));
    }, options.timeoutMs ?? 60_000);
    const poll = setInterval(() => {
      const match = READY[role].exec(output);
      if (match) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve(match[1] ?? '');
      }
    }, 25);
    void exited.then(({ code, signal }) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code ?? signal}) before it was ready:\n${output.slice(-4000)}`));
    });
  });
  return {
    role,
    name,
    child,
    baseUrl,
    output: () => output,
    exited,
    get running() {
      return running;
    },
  };
}

/** kill -9, and wait until the process is gone. */
export async function killHard(target: ServiceProcess): Promise<void> {
  if (target.running) target.child.kill('SIGKILL');
  await target.exited;
}

/** Ends whatever is still running (test teardown): SIGKILL, nothing graceful. */
export async function killAll(targets: Iterable<ServiceProcess>): Promise<void> {
  await Promise.all([...targets].map((target) => killHard(target)));
}

/** Runs the admin CLI (contract §2) and parses its one JSON document. */
export async function runCli<T>(args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<T> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearTimeout(timer);
  if (code !== 0) throw new Error(`admin ${args[0]} exited ${code}: ${stderr}`);
  return JSON.parse(stdout) as T;
}
