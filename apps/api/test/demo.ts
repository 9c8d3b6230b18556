import { seedAll } from '../src/db/seed.ts';
import { beforeAll } from 'vitest';
import { useTestApp, type TestApp } from './harness.ts';

/** The test app of a file about the demo data: seeded on first start, and again to show a second start changes nothing. */
export function useDemoApp(): TestApp {
  const t = useTestApp();
  beforeAll(async () => {
    await seedAll(t.database.db);
    await seedAll(t.database.db);
  });
  return t;
}
