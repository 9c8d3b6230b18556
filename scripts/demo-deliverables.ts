/**
 * `npm run demo:files`: rebuilds the demo's deliverable files (apps/api/src/modules/deliverables/
 * demo-files/) from their sources and versions, and removes files no version names any more.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  DEMO_FILES_DIR,
  renderDemoFiles,
} from '../apps/api/src/modules/deliverables/demo-render.ts';

const files = renderDemoFiles();
rmSync(DEMO_FILES_DIR, { recursive: true, force: true });
for (const [rel, bytes] of files) {
  const target = path.join(DEMO_FILES_DIR, rel);
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, bytes);
}
const total = [...files.values()].reduce((sum, b) => sum + b.length, 0);
console.log(
  `${files.size} files, ${(total / 1024).toFixed(1)} KB in ${path.relative(process.cwd(), DEMO_FILES_DIR)} (${readdirSync(DEMO_FILES_DIR).length} products)`,
);
