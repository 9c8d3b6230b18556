// A vendor's own products and bundles, for the workspace's reads (analytics' filter and conversion).
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';

export type VendorItem = {
  type: 'product' | 'bundle';
  id: string;
  title: string;
};

/** Every product and bundle of the vendor's, published or not, by title (products first on a tie). */
export async function vendorItems(db: Tx, vendorId: string): Promise<VendorItem[]> {
  const found = await db.execute<VendorItem>(sql`
    select 'product' as type, id, title from products where vendor_id = ${vendorId}
    union all
    select 'bundle', id, title from bundles where vendor_id = ${vendorId}
    order by title, type desc, id`);
  return found.rows;
}
