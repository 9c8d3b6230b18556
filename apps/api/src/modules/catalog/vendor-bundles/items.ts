import type { VendorBundleProduct } from '@tradeshelf/contract';
import { sql, type SQL } from 'drizzle-orm';
import { itemPrice } from '../bundle-items.ts';
import { statusOf } from '../vendor-edits.ts';

/** A product as the bundle editor shows it: `from products p` and its value's price. */
export const bundleProductSelect = sql`select p.id, p.title, p.kind, p.is_active, p.published_at,
    vp.amount, vp.currency
  from products p left join lateral ${itemPrice(sql`p.id`)} vp on true`;

export type BundleProductRow = {
  id: string;
  title: string;
  kind: VendorBundleProduct['kind'];
  is_active: boolean;
  published_at: Date | string | null;
  amount: number | null;
  currency: string | null;
};

export const presentBundleProduct = (r: BundleProductRow): VendorBundleProduct => ({
  id: r.id,
  title: r.title,
  kind: r.kind,
  status: statusOf(r.is_active, r.published_at),
  price: r.amount !== null && r.currency ? { amount: r.amount, currency: r.currency } : null,
});

/** The products of one bundle, by title. */
export const productsOfBundle = (bundleId: string): SQL =>
  sql`${bundleProductSelect} join bundle_items bi on bi.product_id = p.id and bi.bundle_id = ${bundleId}
    order by lower(p.title), p.id`;
