import { catalogRoutes } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, createVendor } from '../../../test/factories/catalog.ts';
import { useTestApp } from '../../../test/harness.ts';
import { applySearchSql, INDEX_PART_END, readSearchSql, searchFunctions } from './search-sql.ts';

// ADR 068: search.sql is applied by the migrator after the journal whenever it changed, and the index
// is rebuilt only when its indexing part changed.

const t = useTestApp();
const source = readSearchSql();

const functionsInDatabase = async () => {
  const found = await t.database.db.execute<{ proname: string; prosrc: string }>(
    sql`select p.proname, p.prosrc from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'public' and p.proname like 'tradeshelf\\_%'`,
  );
  const inDatabase = new Map(found.rows.map((r) => [r.proname, r.prosrc]));
  // Not search's: the generated columns on products use it.
  inDatabase.delete('tradeshelf_immutable_join');
  return inDatabase;
};

/** A posting no product has (once): gone when the index is rebuilt, kept otherwise. */
const plantPosting = () =>
  t.database.db
    .execute(sql`insert into search_postings (lexeme, product_id, in_title, category, kind,
      platforms, sort_amount, sales_count, created_at, rating_average, rating_count)
    select 'zzplanted', id, false, category, kind, platforms, sort_amount, sales_count, created_at,
      rating_average, rating_count from products where is_active limit 1
    on conflict do nothing`);
const planted = async () =>
  (
    await t.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from search_postings where lexeme = 'zzplanted'`,
    )
  ).rows[0]!.n;

const searchIds = async (q: string) => {
  const res = await t.call(catalogRoutes.search, { query: { q } });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().products as Array<{ id: string }>).map((p) => p.id);
};

describe('search.sql', () => {
  let productId: string;
  beforeAll(async () => {
    const vendor = await createVendor(t, { vendorUrl: 'repeatable-sql' });
    productId = (await createProduct(t, vendor.id, { title: 'Quokkafold breakout scanner' })).id;
  });
  // Whatever a test left, the database ends with this search.sql, as the migrator would leave it.
  afterAll(async () => {
    await applySearchSql(t.database.db, source);
  });

  it('defines exactly the search functions the migrated database has, with the same bodies', async () => {
    const defined = searchFunctions(source);
    const inDatabase = await functionsInDatabase();
    expect([...inDatabase.keys()].sort()).toEqual(defined.map((f) => f.name).sort());
    for (const f of defined) expect(inDatabase.get(f.name), f.name).toBe(f.body);
    expect(await applySearchSql(t.database.db, source)).toBe('unchanged');
  });

  it('applies a changed query part without re-indexing, and drops a function it no longer defines', async () => {
    await plantPosting();
    const extra = `${source}
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tradeshelf_probe_gone() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$;
`;
    expect(await applySearchSql(t.database.db, extra)).toBe('applied');
    expect((await functionsInDatabase()).has('tradeshelf_probe_gone')).toBe(true);
    expect(await planted()).toBe(1);
    expect(await applySearchSql(t.database.db, source)).toBe('applied');
    expect((await functionsInDatabase()).has('tradeshelf_probe_gone')).toBe(false);
    expect(await planted()).toBe(1);
    // The triggers the drop took are back: a product created now is found.
    const vendor = await createVendor(t, { vendorUrl: 'repeatable-sql-2' });
    const later = await createProduct(t, vendor.id, { title: 'Wallabyrun momentum alert' });
    expect(await searchIds('wallabyrun')).toEqual([later.id]);
  });

  it('re-indexes every product when the indexing part changed, or was never applied here', async () => {
    await plantPosting();
    const indexChanged = source.replace(
      `\n${INDEX_PART_END}\n`,
      `\n-- an edit of the indexing part\n${INDEX_PART_END}\n`,
    );
    expect(indexChanged).not.toBe(source);
    expect(await applySearchSql(t.database.db, indexChanged)).toBe('reindexed');
    expect(await planted()).toBe(0);
    expect(await searchIds('quokkafold')).toEqual([productId]);

    // A database migrated before ADR 068 has no record: the first application re-indexes.
    await plantPosting();
    await t.database.db.execute(sql`delete from search_sql_applied`);
    expect(await applySearchSql(t.database.db, source)).toBe('reindexed');
    expect(await planted()).toBe(0);
    expect(await searchIds('quokkafold scanner')).toEqual([productId]);
    expect(await applySearchSql(t.database.db, source)).toBe('unchanged');
  });

  it('refuses a search.sql without the line that ends its indexing part', async () => {
    await expect(
      applySearchSql(t.database.db, source.replace(INDEX_PART_END, '-- moved')),
    ).rejects.toThrow(/End of indexing/);
    expect(await applySearchSql(t.database.db, source)).toBe('unchanged');
  });
});
