import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { applySearchSql } from '../modules/catalog/search-sql.ts';
import type { Db } from './client.ts';

export const migrationsFolder = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'migrations',
);

/**
 * Runs `work` holding a session advisory lock named `name` on a connection of its own (the pool may
 * have only one). Nodes started together (compose, a rolling deploy) take turns: one does the work
 * while the others wait, then find it done. The embedded database has one process: no lock.
 */
export async function underStartLock<T>(db: Db, name: string, work: () => Promise<T>): Promise<T> {
  const pool = (db as unknown as { $client?: unknown }).$client;
  if (!(pool instanceof pg.Pool)) return work();
  const lock = new pg.Client(pool.options);
  lock.on('error', () => undefined);
  await lock.connect();
  try {
    await lock.query(`select pg_advisory_lock(hashtext($1))`, [name]);
    return await work();
  } finally {
    // Ending the session releases the lock, whatever happened above.
    await lock.end().catch(() => undefined);
  }
}

/**
 * Applies the migrations not yet applied, then search.sql when it changed (ADR 068); every node
 * migrates on start (`underStartLock`).
 */
export async function runMigrations(db: Db): Promise<void> {
  return underStartLock(db, 'tradeshelf:migrations', async () => {
    await migrate(db, { migrationsFolder });
    await applySearchSql(db);
  });
}
