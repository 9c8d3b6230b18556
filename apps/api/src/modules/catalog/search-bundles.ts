// The bundles a search finds: by title beside products, alone, or when a query asks for bundles.
import { sql, type SQL } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { preparedRows } from '../../db/prepared.ts';
import { ids } from './search-matches.ts';
import { termQuery, type SearchInput, type Term } from './search-query.ts';

/** Bundles: few per vendor, matched on title; on the first page, or paged when asked for alone. */
export async function matchBundles(
  deps: AppDeps,
  input: SearchInput,
  lq: string,
  offset: number,
): Promise<string[]> {
  return ids(await preparedRows<{ id: string }>(deps.database, bundleMatchSql(input, lq, offset)));
}

/** Bundle ids (and their dates, for ordering) matching the query: at most 6 beside products. */
export function bundleMatchSql(input: SearchInput, lq: string, offset: number): SQL {
  const alone = input.category === 'bundles';
  const filters: SQL[] = [sql`b.is_active`];
  if (lq) {
    const like = '%' + lq.replace(/[%_\\]/g, '\\$&') + '%';
    filters.push(sql`(lower(b.title) like ${like} or ${lq} <% lower(b.title))`);
  }
  filters.push(...bundlePriceSql(input));
  return sql`select b.id, b.created_at from bundles b join prices pr on pr.id = b.price_id
      where ${sql.join(filters, sql` and `)}
      order by b.created_at desc, b.id limit ${alone ? input.limit + 1 : 6} offset ${offset}`;
}

function bundlePriceSql(input: SearchInput): SQL[] {
  const out: SQL[] = [];
  if (input.minPrice !== undefined) out.push(sql`pr.amount >= ${input.minPrice}`);
  if (input.maxPrice !== undefined) out.push(sql`pr.amount <= ${input.maxPrice}`);
  return out;
}

/**
 * Bundles a query that asks for bundles finds: each other word in the bundle's title or summary, or in
 * the title, tags or fields of a product it holds ("mt4 bundle"). Bundles are few: a scan is cheap.
 */
export function bundleTermsSql(input: SearchInput, terms: Term[]): SQL {
  const filters: SQL[] = [sql`b.is_active`, ...bundlePriceSql(input)];
  for (const t of terms) {
    const text = termQuery(t, true);
    const inItems = sql`exists (select 1 from bundle_items bi join search_postings s on s.product_id = bi.product_id
      where bi.bundle_id = b.id and s.lexeme = any(${sql.param(t.lexemes)}::text[]))`;
    filters.push(
      text
        ? sql`(to_tsvector('english', b.title || ' ' || b.summary) @@ ${text}::tsquery or ${inItems})`
        : inItems,
    );
  }
  return sql`select b.id from bundles b join prices pr on pr.id = b.price_id
      where ${sql.join(filters, sql` and `)} order by b.created_at desc, b.id limit ${input.limit}`;
}
