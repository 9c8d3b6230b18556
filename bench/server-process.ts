import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

// The benches that measure a server's own memory and CPU run it in a child process: these start
// and stop it and read its figures from /proc (Linux).

const dir = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(dir, '..');

/**
 * Starts `bench/<script>` under tsx; it prints one JSON line (`T`) once it listens. `what` names it
 * in the error when it exits first.
 */
export async function startServerProcess<T>(
  script: string,
  what: string,
  options: { env?: Record<string, string>; nodeArgs?: string[] } = {},
): Promise<T & { child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), '--import', 'tsx', path.join(dir, script)],
    { cwd: root, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = readline.createInterface({ input: child.stdout! });
  for await (const line of lines) {
    if (!line.startsWith('{')) continue;
    lines.close();
    return { child, ...(JSON.parse(line) as T) };
  }
  throw new Error(`the ${what} server exited before it was ready`);
}

/** SIGTERM, and the exit awaited (at once when it has already ended). */
export async function stopServerProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** The process's resident set in MiB, from /proc (Linux). */
export function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

/** The resident set at rest: the mean of ten samples 100 ms apart. */
export async function idleRss(pid: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < 10; i++) {
    samples.push(rssMb(pid));
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return samples.reduce((a, b) => a + b, 0) / samples.length;
}
