// What other modules list of a vendor's own products in the workspace (the products a Discord
// binding or a TradingView script can be set on): ids, titles and kinds, by title, a page at a time.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';

export interface VendorProductRef {
  id: string;
  slug: string;
  title: string;
  kind: string;
  isActive: boolean;
}

/**
 * The vendor's products (of `kinds`, when given) by title then id. `after` is the last id of the
 * previous page; the next page starts after that product's place, read from its row, so a foreign
 * or unknown id gives an empty page rather than another vendor's rows.
 */
export async function vendorProductRefs(
  db: Tx,
  vendorId: string,
  page: { kinds?: readonly string[]; limit: number; after?: string | null },
): Promise<{ products: VendorProductRef[]; more: boolean }> {
  const found = await db.execute<{
    id: string;
    slug: string;
    title: string;
    kind: string;
    is_active: boolean;
  }>(sql`
    select p.id, p.slug, p.title, p.kind, p.is_active from products p
      ${page.after ? sql`join products c on c.id = ${page.after} and c.vendor_id = ${vendorId}` : sql``}
    where p.vendor_id = ${vendorId}
      ${page.kinds ? sql`and p.kind = any(${sql.param([...page.kinds])}::text[])` : sql``}
      ${page.after ? sql`and (lower(p.title), p.id) > (lower(c.title), c.id)` : sql``}
    order by lower(p.title), p.id
    limit ${page.limit + 1}`);
  return {
    products: found.rows.slice(0, page.limit).map((r) => ({
      id: r.id,
      slug: r.slug,
      title: r.title,
      kind: r.kind,
      isActive: r.is_active,
    })),
    more: found.rows.length > page.limit,
  };
}
