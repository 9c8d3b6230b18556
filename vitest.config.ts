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
        },
      },
      {
        test: {
          name: 'api',
          include: ['apps/api/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['apps/api/test/global-setup.ts'],
          testTimeout: embedded ? 90_000 : 30_000,
          hookTimeout: embedded ? 120_000 : 60_000,
          pool: 'forks',
        },
      },
    ],
  },
});
