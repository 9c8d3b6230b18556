import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/** Columns every product card needs: the product, its default price, its vendor and the buyer's ownership. */
export function productCardColumns(userId: string | null): SQL {
  return sql`
    p.id, p.slug, p.kind, p.category, p.title, p.summary, p.images[1] as image_key, p.platforms, p.tags,
    p.is_active, p.created_at, p.rating_average, p.rating_count, p.sales_count,
    pr.id as price_id, pr.amount, pr.currency, pr.scheme, pr.interval, pr.trial_days,
    v.id as vendor_id, v.vendor_url, v.display_name, v.avatar_key as vendor_avatar_key, v.verified,
    ${ownsProduct(userId)} as purchased`;
}

/** Owning the product directly or through a bundle counts. One EXISTS per row, in the same query. */
function ownsProduct(userId: string | null): SQL {
  if (!userId) return sql`false`;
  return sql`(exists (select 1 from ownerships o where o.user_id = ${userId} and o.product_id = p.id and o.revoked_at is null)
    or exists (select 1 from ownerships o join bundle_items bi on bi.bundle_id = o.bundle_id
               where o.user_id = ${userId} and bi.product_id = p.id and o.revoked_at is null))`;
}

export const productCardFrom = sql`
  from products p
  join vendors v on v.id = p.vendor_id
  join prices pr on pr.id = p.default_price_id`;

export interface ProductCardRow {
  id: string;
  slug: string;
  kind: string;
  category: string;
  title: string;
  summary: string;
  image_key: string | null;
  platforms: string[];
  tags: string[];
  is_active: boolean;
  created_at: Date | string;
  rating_average: string | number;
  rating_count: number;
  sales_count: number;
  price_id: string;
  amount: number;
  currency: string;
  scheme: string;
  interval: string | null;
  trial_days: number | null;
  vendor_id: string;
  vendor_url: string;
  display_name: string;
  vendor_avatar_key: string | null;
  verified: boolean;
  purchased: boolean;
}

export interface BundleCardRow {
  id: string;
  slug: string;
  title: string;
  summary: string;
  image_key: string | null;
  is_active: boolean;
  price_id: string;
  amount: number;
  currency: string;
  scheme: string;
  interval: string | null;
  trial_days: number | null;
  value_amount: number | string;
  product_ids: string[];
  vendor_id: string;
  vendor_url: string;
  display_name: string;
  vendor_avatar_key: string | null;
  verified: boolean;
  purchased: boolean;
}

export function bundleCardSelect(userId: string | null, extra: SQL = sql``): SQL {
  return sql`
    select b.id, b.slug${extra}, b.title, b.summary, b.image_key, b.is_active,
      pr.id as price_id, pr.amount, pr.currency, pr.scheme, pr.interval, pr.trial_days,
      coalesce((select sum(dp.amount) from bundle_items bi join products ip on ip.id = bi.product_id
                join prices dp on dp.id = ip.default_price_id where bi.bundle_id = b.id), 0) as value_amount,
      coalesce((select array_agg(bi.product_id order by bi.product_id) from bundle_items bi where bi.bundle_id = b.id), '{}') as product_ids,
      v.id as vendor_id, v.vendor_url, v.display_name, v.avatar_key as vendor_avatar_key, v.verified,
      ${
        userId
          ? sql`exists (select 1 from ownerships o where o.user_id = ${userId} and o.bundle_id = b.id and o.revoked_at is null)`
          : sql`false`
      } as purchased
    from bundles b
    join vendors v on v.id = b.vendor_id
    join prices pr on pr.id = b.price_id`;
}

export async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = await db.execute(query);
  return result.rows as T[];
}

export interface VendorRow {
  id: string;
  user_id: string;
  vendor_url: string;
  display_name: string;
  avatar_key: string | null;
  banner_key: string | null;
  bio: string;
  social_links: Record<string, string>;
  verified: boolean;
  discord_server_id: string | null;
  discord_server_name: string | null;
  created_at: Date | string;
  product_count: number;
}

export async function findVendorByUrl(db: Db, vendorUrl: string): Promise<VendorRow | null> {
  const found = await rows<VendorRow>(
    db,
    sql`select v.*, (select count(*)::int from products p where p.vendor_id = v.id and p.is_active) as product_count
        from vendors v where lower(v.vendor_url) = lower(${vendorUrl})`,
  );
  return found[0] ?? null;
}
