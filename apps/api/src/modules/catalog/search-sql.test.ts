import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.ts';
import {
  generatedMigration,
  lastGeneratedMigration,
  readSearchSql,
  searchFunctions,
  sourceOf,
} from './search-sql.ts';

const t = useTestApp();

describe('search.sql', () => {
  it('is what the last generated migration holds (run `npm run db:search-migration`)', () => {
    const last = lastGeneratedMigration();
    expect(last).not.toBeNull();
    expect(sourceOf(last!.text)).toBe(readSearchSql());
  });

  it('defines exactly the search functions the migrated database has, with the same bodies', async () => {
    const defined = searchFunctions(readSearchSql());
    const found = await t.database.db.execute<{ proname: string; prosrc: string }>(
      sql`select p.proname, p.prosrc from pg_proc p join pg_namespace n on n.oid = p.pronamespace
          where n.nspname = 'public' and p.proname like 'tradeshelf\\_%'`,
    );
    const inDatabase = new Map(found.rows.map((r) => [r.proname, r.prosrc]));
    // Not search's: the generated columns on products use it.
    inDatabase.delete('tradeshelf_immutable_join');
    expect([...inDatabase.keys()].sort()).toEqual(defined.map((f) => f.name).sort());
    for (const f of defined) expect(inDatabase.get(f.name), f.name).toBe(f.body);
  });

  it('generates a migration that drops what it defined before and now', () => {
    const previous =
      'CREATE OR REPLACE FUNCTION old_one(a int) RETURNS int LANGUAGE sql AS $$ SELECT 1 $$;';
    const source =
      'CREATE OR REPLACE FUNCTION new_one() RETURNS int LANGUAGE sql AS $$ SELECT 2 $$;';
    const migration = generatedMigration(source, previous);
    expect(migration).toContain('DROP FUNCTION IF EXISTS old_one CASCADE;');
    expect(migration).toContain('DROP FUNCTION IF EXISTS new_one CASCADE;');
    expect(sourceOf(migration)).toBe(source);
    expect(searchFunctions(source)).toEqual([{ name: 'new_one', body: ' SELECT 2 ' }]);
  });
});
