import { readFileSync } from 'node:fs';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { keptDatabase } from './kept-database.ts';

// Every embedded API test file runs on the worker's kept database: what one file wrote must be gone
// for the next. On PostgreSQL each file clones the template instead, and this file has nothing to test.
const dumpFile = inject('pgliteDump');

async function use<T>(held: { url: string }, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: held.url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const migrated = async (client: pg.Client) => ({
  users: (await client.query('select count(*)::int as n from users')).rows[0].n as number,
  versions: (await client.query('select name, version from content_versions order by name')).rows,
  synonyms: (await client.query('select count(*)::int as n from search_synonyms')).rows[0]
    .n as number,
  receipt: (await client.query('select last_value, is_called from receipt_number_seq')).rows[0],
  timeout: (await client.query('show statement_timeout')).rows[0].statement_timeout as string,
});

describe.skipIf(!dumpFile)('the kept embedded database (embedded runs only)', () => {
  const dump = () => new Blob([readFileSync(dumpFile!)]);

  it('is back to its migrated state for the next holder: rows, seed rows, sequences, settings', async () => {
    const first = (await keptDatabase(dump()))!;
    const before = await use(first, migrated);
    await use(first, async (c) => {
      await c.query(
        `insert into users (id, email, password_hash) values ('kept-user', 'kept@example.com', 'x')`,
      );
      await c.query(`update content_versions set version = version + 7`);
      await c.query(`delete from search_synonyms`);
      await c.query(`select nextval('receipt_number_seq')`);
      await c.query(`set statement_timeout = 4321`);
    });
    expect((await use(first, migrated)).users).toBe(before.users + 1);
    await first.drop();

    const second = (await keptDatabase(dump()))!;
    expect(second.url).toBe(first.url);
    expect(await use(second, migrated)).toEqual(before);
    await second.drop();
  });

  it('gives a second holder of the same file a database of its own', async () => {
    const held = (await keptDatabase(dump()))!;
    expect(await keptDatabase(dump())).toBeNull();
    await held.drop();
    const again = await keptDatabase(dump());
    expect(again).not.toBeNull();
    await again!.drop();
  });

  it('is replaced, not emptied, after a file changed the schema', async () => {
    const first = (await keptDatabase(dump()))!;
    await use(first, (c) => c.query(`create table kept_probe (n int)`));
    await first.drop();
    const second = (await keptDatabase(dump()))!;
    expect(second.url).not.toBe(first.url);
    const found = await use(second, (c) => c.query(`select to_regclass('kept_probe') as t`));
    expect(found.rows[0].t).toBeNull();
    await second.drop();
  });
});
