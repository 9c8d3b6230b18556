// A vendor's own products, for the workspace's reads (analytics' product filter and conversion).
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';

export type VendorProduct = {
  id: string;
  title: string;
};

/** Every product of the vendor's, published or not, by title. */
export async function vendorProducts(db: Tx, vendorId: string): Promise<VendorProduct[]> {
  const found = await db.execute<VendorProduct>(
    sql`select id, title from products where vendor_id = ${vendorId} order by title, id`,
  );
  return found.rows;
}
