import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { bundleItemsOnSale } from './bundle-items.ts';

/** A row of `prices` as the catalogue's reads select it (`pr.id as price_id`, …). */
export type PriceRow = {
  price_id: string;
  amount: number;
  currency: string;
  scheme: 'one_time' | 'recurring';
  interval: 'week' | 'month' | 'quarter' | 'year' | null;
  trial_days: number | null;
};

/** What checkout needs of a sellable item and one of its prices (orders reads it through here). */
export interface CheckoutItemRow extends PriceRow, Record<string, unknown> {
  type: 'product' | 'bundle';
  id: string;
  slug: string;
  title: string;
  is_active: boolean;
  vendor_id: string;
  vendor_url: string;
  /** The vendor's user: vendors cannot buy what they sell. */
  vendor_user_id: string;
  price_active: boolean;
}

export async function bundleForCheckout(db: Tx, bundleId: string): Promise<CheckoutItemRow | null> {
  const { rows } = await db.execute<CheckoutItemRow>(
    sql`select 'bundle' as type, b.id, b.slug, b.title, b.is_active, v.id as vendor_id, v.vendor_url, v.user_id as vendor_user_id,
          pr.id as price_id, pr.amount, pr.currency, pr.scheme, pr.interval, pr.trial_days, pr.is_active as price_active
        from bundles b join vendors v on v.id = b.vendor_id join prices pr on pr.id = b.price_id
        where b.id = ${bundleId}`,
  );
  return rows[0] ?? null;
}

/** Every plan of the product `priceId` belongs to, when it is sold by `vendorUrl`, in page order. */
export async function plansForCheckout(
  db: Tx,
  priceId: string,
  vendorUrl: string,
): Promise<CheckoutItemRow[]> {
  const { rows } = await db.execute<CheckoutItemRow>(
    sql`select 'product' as type, p.id, p.slug, p.title, p.is_active, v.id as vendor_id, v.vendor_url, v.user_id as vendor_user_id,
          pr.id as price_id, pr.amount, pr.currency, pr.scheme, pr.interval, pr.trial_days, pr.is_active as price_active
        from prices pr join products p on p.id = pr.product_id join vendors v on v.id = p.vendor_id
        where pr.product_id = (select product_id from prices where id = ${priceId})
          and lower(v.vendor_url) = lower(${vendorUrl})
        order by pr.position`,
  );
  return rows;
}

export async function vendorUrlOfPrice(db: Tx, priceId: string): Promise<string | null> {
  const { rows } = await db.execute<{ vendor_url: string }>(
    sql`select v.vendor_url from prices pr join products p on p.id = pr.product_id
        join vendors v on v.id = p.vendor_id where pr.id = ${priceId}`,
  );
  return rows[0]?.vendor_url ?? null;
}

/**
 * The products a purchase of `item` gives access to: the product, or the bundle's published ones (what
 * its page lists), by title. Read when the payment lands; the grant keeps that list (ADR 046).
 */
export async function productsOfItem(
  db: Tx,
  item: { type: 'product' | 'bundle'; id: string },
): Promise<Array<{ id: string; kind: string }>> {
  const { rows } = await db.execute<{ id: string; kind: string }>(
    item.type === 'product'
      ? sql`select id, kind from products where id = ${item.id}`
      : sql`select ip.id, ip.kind from ${bundleItemsOnSale(sql`${item.id}`)} order by ip.title`,
  );
  return rows;
}
