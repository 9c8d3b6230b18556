// What other modules show of the catalogue beside their own rows (an order's item and vendor, a
// library's product): names and links, batched by id so a page of rows costs one query per kind.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';

export interface ItemSummary {
  slug: string;
  title: string;
  kind: string | null;
  vendorId: string;
  /** Its vendor's name and address: the item's page links to the storefront beside it. */
  vendor: VendorSummary;
}

export interface VendorSummary {
  vendorUrl: string;
  displayName: string;
}

const idList = (ids: Iterable<string>) => sql.param([...new Set(ids)]);

/** Products and bundles by id (keys `product:<id>` and `bundle:<id>`). */
export async function itemSummaries(
  db: Tx,
  items: ReadonlyArray<{ type: 'product' | 'bundle'; id: string }>,
): Promise<Map<string, ItemSummary>> {
  const products = items.filter((i) => i.type === 'product').map((i) => i.id);
  const bundles = items.filter((i) => i.type === 'bundle').map((i) => i.id);
  const out = new Map<string, ItemSummary>();
  if (!products.length && !bundles.length) return out;
  const found = await db.execute<{
    key: string;
    slug: string;
    title: string;
    kind: string | null;
    vendor_id: string;
    vendor_url: string;
    display_name: string;
  }>(sql`
    select i.*, v.vendor_url, v.display_name from (
      select 'product:' || id as key, slug, title, kind, vendor_id from products
        where id = any(${idList(products)}::text[])
      union all
      select 'bundle:' || id, slug, title, null, vendor_id from bundles
        where id = any(${idList(bundles)}::text[])
    ) i join vendors v on v.id = i.vendor_id`);
  for (const r of found.rows)
    out.set(r.key, {
      slug: r.slug,
      title: r.title,
      kind: r.kind,
      vendorId: r.vendor_id,
      vendor: { vendorUrl: r.vendor_url, displayName: r.display_name },
    });
  return out;
}

export async function vendorSummaries(
  db: Tx,
  vendorIds: Iterable<string>,
): Promise<Map<string, VendorSummary>> {
  const ids = [...new Set(vendorIds)];
  if (!ids.length) return new Map();
  const found = await db.execute<{ id: string; vendor_url: string; display_name: string }>(
    sql`select id, vendor_url, display_name from vendors where id = any(${idList(ids)}::text[])`,
  );
  return new Map(
    found.rows.map((r) => [r.id, { vendorUrl: r.vendor_url, displayName: r.display_name }]),
  );
}

/** The vendor behind a storefront address, matched as the storefront route matches it. */
export async function vendorIdByUrl(db: Tx, vendorUrl: string): Promise<string | null> {
  const found = await db.execute<{ id: string }>(
    sql`select id from vendors where lower(vendor_url) = lower(${vendorUrl}) limit 1`,
  );
  return found.rows[0]?.id ?? null;
}

/** The vendor a user runs, if any. */
export async function vendorIdOfUser(db: Tx, userId: string): Promise<string | null> {
  const found = await db.execute<{ id: string }>(
    sql`select id from vendors where user_id = ${userId} limit 1`,
  );
  return found.rows[0]?.id ?? null;
}

/** The user who runs each vendor (for mail to the vendor). */
export async function vendorUserIds(
  db: Tx,
  vendorIds: Iterable<string>,
): Promise<Map<string, string>> {
  const ids = [...new Set(vendorIds)];
  if (!ids.length) return new Map();
  const found = await db.execute<{ id: string; user_id: string }>(
    sql`select id, user_id from vendors where id = any(${idList(ids)}::text[])`,
  );
  return new Map(found.rows.map((r) => [r.id, r.user_id]));
}

/**
 * Whether a vendor is new: its storefront opened less than `days` ago, or none of its products has
 * sold. New vendors get tighter limits on what reaches other people (affiliate invitations, ADR 052).
 */
export async function vendorIsNew(db: Tx, vendorId: string, days: number): Promise<boolean> {
  const found = await db.execute<{ is_new: boolean }>(
    sql`select v.created_at > now() - make_interval(days => ${days})
          or not exists (select 1 from products p where p.vendor_id = v.id and p.sales_count > 0) as is_new
        from vendors v where v.id = ${vendorId}`,
  );
  return found.rows[0]?.is_new ?? true;
}
