// What delivery modules (courses, licences) need of a vendor's own products: one of them by id
// and kind, so they can check ownership without reading catalog's tables (their lists are
// `vendorProductPage`'s).
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';

export interface VendorProductRow {
  id: string;
  title: string;
  slug: string;
  isActive: boolean;
}

interface Row extends Record<string, unknown> {
  id: string;
  title: string;
  slug: string;
  is_active: boolean;
}

const view = (r: Row): VendorProductRow => ({
  id: r.id,
  title: r.title,
  slug: r.slug,
  isActive: r.is_active,
});

/** One of the vendor's products of `kind`; null when it is not the vendor's or of another kind. */
export async function vendorProductOfKind(
  db: Tx,
  vendorId: string,
  productId: string,
  kind: string,
): Promise<VendorProductRow | null> {
  const found = await db.execute<Row>(sql`select id, title, slug, is_active from products
    where id = ${productId} and vendor_id = ${vendorId} and kind = ${kind}`);
  return found.rows[0] ? view(found.rows[0]) : null;
}

/** One of the vendor's products, of any kind; null when it is not the vendor's. */
export async function vendorProduct(
  db: Tx,
  vendorId: string,
  productId: string,
): Promise<(VendorProductRow & { kind: string }) | null> {
  const found = await db.execute<Row & { kind: string }>(sql`select id, title, slug, is_active, kind
    from products where id = ${productId} and vendor_id = ${vendorId}`);
  const row = found.rows[0];
  return row ? { ...view(row), kind: row.kind } : null;
}

/** A product's title, address and kind, whoever sells it (delivery pages and mail). */
export async function productBasics(
  db: Tx,
  productId: string,
): Promise<(VendorProductRow & { kind: string; vendorId: string }) | null> {
  const found = await db.execute<Row & { kind: string; vendor_id: string }>(sql`select id, title,
    slug, is_active, kind, vendor_id from products where id = ${productId}`);
  const row = found.rows[0];
  return row ? { ...view(row), kind: row.kind, vendorId: row.vendor_id } : null;
}
