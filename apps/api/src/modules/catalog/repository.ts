import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { bundleItemsOnSale, bundleValueSql } from './bundle-items.ts';
import { ownsProductSql } from './ownership.ts';

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
  return userId ? ownsProductSql(userId, sql`p.id`) : sql`false`;
}

export const productCardFrom = sql`
  from products p
  join vendors v on v.id = p.vendor_id
  join prices pr on pr.id = p.default_price_id`;

/** A price's columns (a card's: its default price's), as `presentPrice` reads them. */
export interface PriceRow {
  price_id: string;
  amount: number;
  currency: string;
  scheme: string;
  interval: string | null;
  trial_days: number | null;
}

/** A card's vendor columns, and whether the reader already bought the item. */
export interface CardVendorRow {
  vendor_id: string;
  vendor_url: string;
  display_name: string;
  vendor_avatar_key: string | null;
  verified: boolean;
  purchased: boolean;
}

export interface ProductCardRow extends PriceRow, CardVendorRow {
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
}

export interface BundleCardRow extends PriceRow, CardVendorRow {
  id: string;
  slug: string;
  title: string;
  summary: string;
  image_key: string | null;
  is_active: boolean;
  value_amount: number | string;
  product_ids: string[];
}

export function bundleCardSelect(userId: string | null, extra: SQL = sql``): SQL {
  return sql`
    select b.id, b.slug${extra}, b.title, b.summary, b.image_key, b.is_active,
      pr.id as price_id, pr.amount, pr.currency, pr.scheme, pr.interval, pr.trial_days,
      ${bundleValueSql} as value_amount,
      coalesce((select array_agg(bi.product_id order by bi.product_id) from ${bundleItemsOnSale(sql`b.id`)}), '{}') as product_ids,
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

/** The storefront an earlier address of it now names (ADR 041), or null. */
export async function findVendorByAlias(db: Db, vendorUrl: string): Promise<VendorRow | null> {
  const found = await rows<VendorRow>(
    db,
    sql`select v.*, (select count(*)::int from products p where p.vendor_id = v.id and p.is_active) as product_count
        from vendor_url_aliases a join vendors v on v.id = a.vendor_id where lower(a.url) = lower(${vendorUrl})`,
  );
  return found[0] ?? null;
}

export type ProductDetailsRow = ProductCardRow & {
  description: string;
  images: string[];
  asset_classes: string[];
  prices: PriceRow[];
  bundles: Array<PriceRow & { id: string; slug: string; title: string }>;
  prerequisites: Array<{ id: string; slug: string; title: string; purchased: boolean }>;
  sold_by_you: boolean;
};

/** Whether the signed-in user is the vendor (`v`) of the row. */
export const soldBySql = (userId: string | null): SQL =>
  userId ? sql`v.user_id = ${userId}` : sql`false`;

/** One active product with its prices, bundle memberships and prerequisites, in one statement. */
export function productDetailsQuery(userId: string | null, id: string): SQL {
  return sql`select ${productCardColumns(userId)}, p.description, p.images, p.asset_classes,
      ${soldBySql(userId)} as sold_by_you,
      (select coalesce(json_agg(json_build_object('price_id', x.id, 'amount', x.amount, 'currency', x.currency,
              'scheme', x.scheme, 'interval', x.interval, 'trial_days', x.trial_days) order by x.position, x.amount), '[]')
         from prices x where x.product_id = p.id and x.is_active) as prices,
      (select coalesce(json_agg(json_build_object('id', b.id, 'slug', b.slug, 'title', b.title, 'price_id', bp.id,
              'amount', bp.amount, 'currency', bp.currency, 'scheme', bp.scheme, 'interval', bp.interval,
              'trial_days', bp.trial_days) order by b.created_at), '[]')
         from bundle_items bi join bundles b on b.id = bi.bundle_id and b.is_active join prices bp on bp.id = b.price_id
         where bi.product_id = p.id) as bundles,
      (select coalesce(json_agg(json_build_object('id', rq.id, 'slug', rq.slug, 'title', rq.title,
              'purchased', ${userId ? sql`exists (select 1 from ownerships o where o.user_id = ${userId} and o.product_id = rq.id and o.revoked_at is null)` : sql`false`}) order by rq.title), '[]')
         from product_prerequisites pp join products rq on rq.id = pp.requires_product_id
         where pp.product_id = p.id) as prerequisites
      ${productCardFrom}
      where p.id = ${id} and p.is_active`;
}

/** A vendor's products and bundles in one round trip; an unknown vendor yields a null `vendor_id` marker. */
export function sellerListQuery(userId: string | null, vendorUrl: string, isActive: boolean): SQL {
  return sql`
    with v as (select id from vendors where lower(vendor_url) = lower(${vendorUrl}))
    select 'vendor' as row_type, (select id from v) as vendor_id, null::json as data
    union all
    select 'product', null, row_to_json(x) from (
      select ${productCardColumns(userId)} ${productCardFrom}
      where p.vendor_id = (select id from v) and p.is_active = ${isActive}
      order by p.sales_count desc, p.created_at desc limit 500) x
    union all
    select 'bundle', null, row_to_json(y) from (
      ${bundleCardSelect(userId)}
      where b.vendor_id = (select id from v) and b.is_active = ${isActive}
      order by b.created_at desc limit 100) y`;
}
