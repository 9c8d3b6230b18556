import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freshDatabase } from '../../test/harness.ts';
import { connectDatabase, type Database } from './client.ts';

/*
 * Found by the outage test on a loaded CI machine: the database went away between a transaction's
 * checkout and its BEGIN, drizzle never released that client, and shutdown waited on it forever.
 */
let fresh: Awaited<ReturnType<typeof freshDatabase>>;
let database: Database;

beforeAll(async () => {
  fresh = await freshDatabase();
  database = connectDatabase(fresh.url, 2);
});
afterAll(async () => {
  await database.close();
  await fresh.drop();
});

/** The next checkout's connection breaks before anything is sent on it, as in an outage. */
function breakNextCheckout(pool: pg.Pool) {
  pool.once('acquire', (client) => {
    (
      client as unknown as { connection: { stream: { destroy(): void } } }
    ).connection.stream.destroy();
  });
}

it('gives a connection back when BEGIN fails, so the pool neither shrinks nor blocks shutdown', async () => {
  const { pool, db } = database;
  for (let i = 0; i < 3; i++) {
    breakNextCheckout(pool);
    await expect(db.transaction(async (tx) => tx.execute(sql`select 1`))).rejects.toThrow();
  }
  // Three leaks would have left the pool of two with nothing to hand out.
  expect(pool.totalCount - pool.idleCount).toBe(0);
  const { rows } = await db.transaction(async (tx) => tx.execute(sql`select 2 as n`));
  expect(rows).toEqual([{ n: 2 }]);
});

it('gives the connection back after a transaction that committed or rolled back', async () => {
  const { pool, db } = database;
  await db.transaction(async (tx) => tx.execute(sql`select 1`));
  await expect(
    db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      throw new Error('business rule');
    }),
  ).rejects.toThrow('business rule');
  expect(pool.totalCount - pool.idleCount).toBe(0);
  expect(pool.totalCount).toBeGreaterThan(0);
});
