// What a bundle holds for buyers, in one place (ADR 046): its published products, each valued at its
// one-time plan, else its first plan. The bundle page, its card, checkout and the vendor's editor all
// read these, so the saving a vendor is shown is the one buyers see.
import { sql, type SQL } from 'drizzle-orm';

/**
 * The products of bundle `bundleId` (SQL) buyers get, those published now, as `bi` and `ip`: a FROM
 * list and its WHERE, with `join` (more joins) between them.
 */
export const bundleItemsOnSale = (bundleId: SQL, join: SQL = sql``): SQL =>
  sql`bundle_items bi join products ip on ip.id = bi.product_id and ip.is_active ${join}
    where bi.bundle_id = ${bundleId}`;

/** A product's price as a bundle's value counts it (`amount`, `currency`): join it `lateral … on true`. */
export const itemPrice = (productId: SQL): SQL =>
  sql`(select x.id, x.amount, x.currency, x.scheme, x.interval, x.trial_days from prices x where x.product_id = ${productId} and x.is_active
    order by (x.scheme = 'one_time') desc, x.position, x.created_at, x.id limit 1)`;

/**
 * The value of bundle `b` priced as `pr`: the sum of its products' prices, or 0 when one has no price
 * in the bundle's currency (amounts in two currencies are never added; the page then shows no saving).
 */
export const bundleValueSql = sql`coalesce((select case when bool_and(vp.currency = pr.currency) then sum(vp.amount) end
    from ${bundleItemsOnSale(sql`b.id`, sql`left join lateral ${itemPrice(sql`ip.id`)} vp on true`)}), 0)`;
