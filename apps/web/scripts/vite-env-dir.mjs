/**
 * Install and build step: @react-router/dev 7 starts its internal Vite servers with `envFile: false`,
 * which Vite 8.1+ reports as deprecated once per server (8 lines on every `npm start`). React Router 8
 * fixed it upstream (remix-run/react-router#15230: `envDir: false`, the same meaning since Vite 6.3)
 * but needs Node 22; this applies that one-word change to the installed 7.x files. Idempotent, and a
 * no-op once the installed version no longer has the old option.
 *
 * Each file is rewritten by rename, never in place: node_modules may be hard-linked from elsewhere.
 */
import { readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
let dist;
try {
  dist = path.join(path.dirname(require.resolve('@react-router/dev/package.json')), 'dist');
} catch {
  process.exit(0); // not installed (e.g. a production install without dev dependencies)
}

const walk = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)],
  );

for (const file of walk(dist).filter((f) => /\.(c|m)?js$/.test(f))) {
  const text = readFileSync(file, 'utf8');
  if (!text.includes('envFile: false')) continue;
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text.replaceAll('envFile: false', 'envDir: false'));
  renameSync(tmp, file);
}
