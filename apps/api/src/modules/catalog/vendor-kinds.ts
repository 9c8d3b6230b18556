// What delivery modules (courses, licences) need of a vendor's own products: the products of one
// kind, and one of them by id, so they can check ownership without reading catalog's tables.
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

/** The vendor's products of `kind`, by title; `offset`/`limit` page them (one extra row tells more). */
export async function vendorProductsOfKind(
  db: Tx,
  vendorId: string,
  kind: string,
  page: { offset: number; limit: number },
): Promise<{ products: VendorProductRow[]; more: boolean }> {
  const found = await db.execute<Row>(sql`select id, title, slug, is_active from products
    where vendor_id = ${vendorId} and kind = ${kind}
    order by lower(title), id offset ${page.offset} limit ${page.limit + 1}`);
  return {
    products: found.rows.slice(0, page.limit).map(view),
    more: found.rows.length > page.limit,
  };
}

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
