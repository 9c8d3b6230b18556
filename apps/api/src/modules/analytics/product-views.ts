// Product page views from the first-party page-view events (`/p/<id>/<slug>`, docs/product.md#analytics).
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';

/**
 * Views of each product's page over whole UTC days (both counted). The expression matches
 * analytics_events_product_view_idx, so this reads only those products' views.
 */
export async function productViews(
  db: Tx,
  productIds: string[],
  from: string,
  to: string,
): Promise<Map<string, number>> {
  if (!productIds.length) return new Map();
  const found = await db.execute<{ id: string; views: string }>(
    sql`select split_part(split_part(path, '?', 1), '/', 3) as id, count(*)::int8 as views
      from analytics_events
      where type = 'page_view' and path like '/p/%'
        and split_part(split_part(path, '?', 1), '/', 3) = any(${sql.param(productIds)}::text[])
        and occurred_at >= (${from}::date::timestamp at time zone 'UTC')
        and occurred_at < ((${to}::date + 1)::timestamp at time zone 'UTC')
      group by 1`,
  );
  return new Map(found.rows.map((r) => [r.id, Number(r.views)]));
}
