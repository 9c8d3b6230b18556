/**
 * `npm run build`: `react-router build`, then the precompress step, each printing as it goes. What
 * they printed is kept in `build/build-output.txt` (beside `client/`, never served), so the test of
 * a quiet build reads the output of the build the other tests serve instead of building again
 * (a whole second build was the largest single cost of `npm test`, docs/ci-time.md).
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const buildDir = path.resolve(web, process.env.WEB_BUILD_DIR ?? 'build');
function reactRouterBin() {
  const manifest = createRequire(import.meta.url).resolve('@react-router/dev/package.json');
  return path.join(path.dirname(manifest), 'bin.js');
}
const steps = [
  [process.execPath, [reactRouterBin(), 'build']],
  [process.execPath, [path.join(web, 'scripts/precompress.mjs')]],
];

let printed = '';
for (const [command, args] of steps) {
  const child = spawn(command, args, { cwd: web, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (chunk) => {
    printed += chunk;
    process.stdout.write(chunk);
  });
  child.stderr.on('data', (chunk) => {
    printed += chunk;
    process.stderr.write(chunk);
  });
  const code = await new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code !== 0) process.exit(code ?? 1);
}
writeFileSync(path.join(buildDir, 'build-output.txt'), printed);
