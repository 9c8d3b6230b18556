import { readdirSync, readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

// Without DATABASE_URL the API tests run on embedded PGlite: every statement of a file on the
// worker's one thread, several times slower than PostgreSQL, so a test gets longer before it fails.
const embedded = !process.env.DATABASE_URL;

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine, which left the
    // other core idle while every file ran in turn. The main process only collects results.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'packages/**/*.test.ts',
            'apps/web/app/**/*.test.{ts,tsx}',
            'scripts/**/*.test.ts',
          ],
          environment: 'node',
          // A worker runs file after file in one process: React, the contract and the kit are imported
          // once per worker, not once per file (180 → 71 s of CPU for the project). A file that mocks a
          // module resets the modules first (checked below).
          isolate: false,
          // Typing into a form with user-event takes ~2 s alone and past 5 s at load 14 (CI runs
          // these beside the browser tests): slow is not wrong.
          testTimeout: 15_000,
        },
      },
      {
        test: {
          name: 'api',
          include: ['apps/api/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['apps/api/test/global-setup.ts'],
          testTimeout: embedded ? 90_000 : 30_000,
          // A file's app starts on a new embedded database in its `beforeAll`: once over 120 s
          // beside the browser suite on a machine twice as slow (session 24's, orders.test.ts).
          hookTimeout: embedded ? 240_000 : 60_000,
          pool: 'forks',
          // Embedded: a worker runs file after file in one process, so the app's modules are
          // imported and PGlite's WebAssembly compiled once per worker, not once per file (each
          // file still builds its own app on its own database). State that outlives a file is
          // keyed by the app's deps; a file that mocks a module resets the modules first (checked
          // below). On real servers (`test:servers`: outages, money races, few files) each file
          // keeps a process of its own: at load 27 its outage and race tests failed sharing one.
          isolate: !embedded,
        },
      },
    ],
  },
});

// Without isolation a module mocked by one file would be the real one if an earlier file in the same
// worker had imported it: such a file must call `vi.resetModules()` in its `vi.hoisted` block.
const root = import.meta.dirname;
for (const dir of ['apps/api', 'apps/web/app', 'packages', 'scripts']) {
  for (const file of readdirSync(`${root}/${dir}`, { recursive: true }).map(String)) {
    if (!/\.test\.tsx?$/.test(file) || file.includes('node_modules')) continue;
    const source = readFileSync(`${root}/${dir}/${file}`, 'utf8');
    if (/\bvi\.(do)?mock\(/.test(source) && !source.includes('vi.resetModules()'))
      throw new Error(
        `${dir}/${file} mocks a module: call vi.resetModules() in its vi.hoisted block`,
      );
  }
}
