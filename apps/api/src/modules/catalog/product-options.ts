// What a vendor's own screens offer to choose from: their products by title (coupon scope).
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';

export interface ProductOption {
  id: string;
  title: string;
  isActive: boolean;
}

/** Every product of one vendor, published or not, by title. */
export async function productOptionsOfVendor(db: Tx, vendorId: string): Promise<ProductOption[]> {
  const found = await db.execute<{ id: string; title: string; is_active: boolean }>(
    sql`select id, title, is_active from products where vendor_id = ${vendorId}
        order by lower(title), id limit 500`,
  );
  return found.rows.map((r) => ({ id: r.id, title: r.title, isActive: r.is_active }));
}
