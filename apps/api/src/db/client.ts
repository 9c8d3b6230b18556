import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema.ts';

export type Db = NodePgDatabase<typeof schema>;
/** A database handle or an open transaction: repositories accept either. */
export type Tx = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  pool: pg.Pool;
  db: Db;
  /** Whether named prepared statements are safe: not on PGlite, whose connections share one session. */
  prepared: boolean;
  close(): Promise<void>;
}

export function connectDatabase(
  url: string,
  max = 10,
  options: { prepared?: boolean } = {},
): Database {
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000 });
  // An idle client losing its connection must not crash the process.
  pool.on('error', () => undefined);
  const db = drizzle(pool, { schema });
  return { pool, db, prepared: options.prepared ?? false, close: () => pool.end() };
}
