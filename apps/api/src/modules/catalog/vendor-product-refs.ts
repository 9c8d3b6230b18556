// The one reader of a vendor's own products by title, for the workspace's choices (the bundle
// picker, coupon scopes, Discord bindings, TradingView scripts, courses, licence apps): ids,
// titles and kinds, a page at a time behind a signed cursor.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { cursorField, cursorKind, type CursorKind } from '../../platform/cursor.ts';

export interface VendorProductRef {
  id: string;
  slug: string;
  title: string;
  kind: string;
  isActive: boolean;
}

export interface VendorProductQuery {
  /** Only products of these kinds. */
  kinds?: readonly string[];
  /** Only titles that contain this, in any case. */
  q?: string | undefined;
  limit: number;
}

/**
 * The vendor's products by title then id. `after` is the last id of the previous page; the next
 * page starts after that product's place, read from its row, so a foreign or unknown id gives an
 * empty page rather than another vendor's rows.
 */
export async function vendorProductRefs(
  db: Tx,
  vendorId: string,
  page: VendorProductQuery & { after?: string | null },
): Promise<{ products: VendorProductRef[]; more: boolean }> {
  const q = page.q?.toLowerCase();
  const like = q ? '%' + q.replace(/[%_\\]/g, '\\$&') + '%' : null;
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
      ${like ? sql`and lower(p.title) like ${like}` : sql``}
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

/** A list's cursor over `vendorProductPage`: the id of the last product shown. */
export const vendorProductCursor = (name: string) => cursorKind(name, [cursorField.id]);

/** One page of `vendorProductRefs` behind `cursor` (of `kind`), with the cursor of the next. */
export async function vendorProductPage(
  deps: AppDeps,
  vendorId: string,
  kind: CursorKind<[string]>,
  page: VendorProductQuery & { cursor?: string | undefined },
): Promise<{ products: VendorProductRef[]; nextCursor: string | null }> {
  const { cursor, ...query } = page;
  const { products, more } = await vendorProductRefs(deps.database.db, vendorId, {
    ...query,
    after: cursor ? deps.cursors.decode(kind, cursor)[0] : null,
  });
  const last = products.at(-1);
  return { products, nextCursor: more && last ? deps.cursors.encode(kind, [last.id]) : null };
}
