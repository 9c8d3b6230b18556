import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const webBuildDir = path.join(root, 'apps/web/build');

/** Newest modification time of the files under `dir` (0 when it does not exist). */
function newest(dir: string): number {
  let latest = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const full = path.join(dir, e.name);
    latest = Math.max(latest, e.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

/** What the build printed (apps/web/scripts/build.mjs): the quiet-build test reads it. */
export const buildOutputFile = path.join(webBuildDir, 'build-output.txt');

/** Whether the server build or its printed output is missing, or older than its sources. */
function stale(): boolean {
  if (!existsSync(buildOutputFile)) return true;
  const built = newest(path.join(webBuildDir, 'server'));
  const sources = Math.max(
    newest(path.join(root, 'apps/web/app')),
    newest(path.join(root, 'apps/web/public')),
    newest(path.join(root, 'packages/contract/src')),
    ...['vite.config.ts', 'react-router.config.ts', 'package.json'].map(
      (f) => statSync(path.join(root, 'apps/web', f)).mtimeMs,
    ),
  );
  return built < sources;
}

const lockDir = path.join(root, 'node_modules/.cache/tradeshelf-web-build.lock');
/** A build that runs longer than this was killed; its lock is taken over. */
const LOCK_STALE_MS = 10 * 60_000;
const pause = new Int32Array(new SharedArrayBuffer(4));

function lockAge(): number | null {
  try {
    return Date.now() - statSync(lockDir).mtimeMs;
  } catch {
    return null;
  }
}

/**
 * The web app's server build, built first when it is missing or older than its sources, so a test
 * that serves pages checks the code as it stands (a clean CI checkout has no build yet). Test files
 * run in parallel workers: one builds, the others wait for its lock and use that build.
 */
export function ensureWebBuild(): string {
  if (!stale()) return webBuildDir;
  mkdirSync(path.dirname(lockDir), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lockDir);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const since = lockAge();
      if (since === null) continue; // released meanwhile
      if (since > LOCK_STALE_MS) rmSync(lockDir, { recursive: true, force: true });
      else Atomics.wait(pause, 0, 0, 250); // another worker is building: wait on its lock
    }
  }
  try {
    if (stale())
      // As `npm run build` runs: vitest's NODE_ENV=test would bundle React's development build.
      execFileSync('npm', ['run', 'build', '--workspace', 'apps/web'], {
        cwd: root,
        stdio: 'ignore',
        env: { ...process.env, NODE_ENV: 'production' },
      });
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
  return webBuildDir;
}
