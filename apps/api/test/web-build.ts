import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
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

/**
 * The web app's server build, built first when it is missing or older than its sources, so a test
 * that serves pages checks the code as it stands (a clean CI checkout has no build yet).
 */
export function ensureWebBuild(): string {
  const built = newest(path.join(webBuildDir, 'server'));
  const sources = Math.max(
    newest(path.join(root, 'apps/web/app')),
    newest(path.join(root, 'packages/contract/src')),
    ...['vite.config.ts', 'react-router.config.ts'].map(
      (f) => statSync(path.join(root, 'apps/web', f)).mtimeMs,
    ),
  );
  if (built < sources)
    execFileSync('npm', ['run', 'build', '--workspace', 'apps/web'], {
      cwd: root,
      stdio: 'ignore',
    });
  return webBuildDir;
}
