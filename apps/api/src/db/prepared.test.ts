import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { inject } from 'vitest';
import { freshDatabase } from '../../test/harness.ts';
import { connectDatabase, type Database } from './client.ts';
import { preparedRows } from './prepared.ts';

let fresh: Awaited<ReturnType<typeof freshDatabase>>;
let database: Database;
const onPostgres = Boolean(inject('pgTemplate'));

beforeAll(async () => {
  fresh = await freshDatabase();
  // One connection, so the statement a call prepares is visible to the next query in the same session.
  database = connectDatabase(fresh.url, 1, { prepared: onPostgres });
});
afterAll(async () => {
  await database.close();
  await fresh.drop();
});

const probe = (n: number) =>
  sql`select ${n}::int as n, now() as at, '2026-11-23'::date as day, 12.50::numeric as price,
        array['a', 'b']::text[] as tags, json_build_object('k', ${n}::int) as doc, null::text as missing`;

it('answers exactly what drizzle execute answers, call after call', async () => {
  for (const n of [1, 2, 3]) {
    const viaDrizzle = (await database.db.execute(probe(n))).rows[0] as Record<string, unknown>;
    const [prepared] = await preparedRows<Record<string, unknown>>(database, probe(n));
    // `now()` is the transaction's time: each statement has its own.
    expect({ ...prepared, at: typeof prepared!.at }).toEqual({ ...viaDrizzle, at: 'string' });
    expect(prepared!.n).toBe(n);
  }
});

it('prepares a named statement once per connection on PostgreSQL, none on PGlite', async () => {
  await preparedRows(database, probe(4));
  const { rows } = await database.pool.query<{ name: string }>(
    `select name from pg_prepared_statements where name like 'ts\\_%'`,
  );
  expect(rows.length).toBe(onPostgres ? 1 : 0);
});
