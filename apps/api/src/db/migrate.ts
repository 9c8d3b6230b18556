import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import type { Db } from './client.ts';

export const migrationsFolder = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'migrations',
);

/**
 * Applies the migrations not yet applied. Nodes started together (compose, a rolling deploy) each
 * migrate on start: a session advisory lock, held on a connection of its own (the pool may have
 * only one), lets one apply them while the others wait and then find nothing to do.
 */
export async function runMigrations(db: Db): Promise<void> {
  const pool = (db as unknown as { $client?: unknown }).$client;
  if (!(pool instanceof pg.Pool)) return migrate(db, { migrationsFolder });
  const lock = new pg.Client(pool.options);
  lock.on('error', () => undefined);
  await lock.connect();
  try {
    await lock.query(`select pg_advisory_lock(hashtext('tradeshelf:migrations'))`);
    await migrate(db, { migrationsFolder });
  } finally {
    // Ending the session releases the lock, whatever happened above.
    await lock.end().catch(() => undefined);
  }
}
