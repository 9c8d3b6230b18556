import { imageFileUrl, presentImage } from '../../platform/images.ts';
import {
  catalogMessages,
  type BundleCard,
  type BundleDetails,
  type ProductCard,
  type ProductDetails,
  type VendorProfile,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { renderMarkdown } from '@tradeshelf/contract/rules/markdown';
import type { AppDeps } from '../../deps.ts';
import { preparedRows } from '../../db/prepared.ts';
import { AppError } from '../../platform/errors.ts';
import { itemPrice } from './bundle-items.ts';
import { ownsProductSql } from './ownership.ts';
import { presentBundleCard, presentPrice, presentProductCard, presentVendor } from './presenter.ts';
import {
  bundleCardSelect,
  findVendorByAlias,
  findVendorByUrl,
  productCardColumns,
  productCardFrom,
  productDetailsQuery,
  sellerListQuery,
  soldBySql,
  rows,
  type ProductDetailsRow,
  type BundleCardRow,
  type ProductCardRow,
  type VendorRow,
} from './repository.ts';

const unknownVendor = () => new AppError('not_found', catalogMessages.vendorNotFound);
const unknownProduct = () => new AppError('not_found', catalogMessages.productNotFound);

export async function vendorProfile(deps: AppDeps, vendorUrl: string): Promise<VendorProfile> {
  // An earlier address answers with the storefront it now names; the page redirects (ADR 041).
  const row =
    (await findVendorByUrl(deps.database.db, vendorUrl)) ??
    (await findVendorByAlias(deps.database.db, vendorUrl));
  if (!row) throw unknownVendor();
  return presentVendor(row, deps.storage);
}

/** Who a vendor is, with the owning user, for messages addressed to them; null when unknown. */
export async function vendorContact(
  deps: AppDeps,
  vendorUrl: string,
): Promise<{ id: string; vendorUrl: string; displayName: string; userId: string } | null> {
  const row = await findVendorByUrl(deps.database.db, vendorUrl);
  return row
    ? { id: row.id, vendorUrl: row.vendor_url, displayName: row.display_name, userId: row.user_id }
    : null;
}

export async function sellerProducts(
  deps: AppDeps,
  userId: string | null,
  vendorUrl: string,
  isActive: boolean,
): Promise<{ products: ProductCard[]; bundles: BundleCard[] }> {
  const db = deps.database.db;
  if (!isActive) {
    // Inactive listings are the vendor's own drafts: only the owner sees them.
    const vendor = await findVendorByUrl(db, vendorUrl);
    if (!vendor) throw unknownVendor();
    if (vendor.user_id !== userId) throw new AppError('forbidden', catalogMessages.ownListingsOnly);
  }
  // Both lists in one round trip; an unknown vendor yields no rows and a null marker.
  const all = await preparedRows<{ row_type: string; vendor_id: string | null; data: unknown }>(
    deps.database,
    sellerListQuery(userId, vendorUrl, isActive),
  );
  if (!all[0]?.vendor_id) throw unknownVendor();
  return {
    products: all
      .filter((r) => r.row_type === 'product')
      .map((r) => presentProductCard(r.data as ProductCardRow, deps.storage)),
    bundles: all
      .filter((r) => r.row_type === 'bundle')
      .map((r) => presentBundleCard(r.data as BundleCardRow, deps.storage)),
  };
}

export async function productDetails(
  deps: AppDeps,
  userId: string | null,
  id: string,
): Promise<ProductDetails> {
  const found = await preparedRows<ProductDetailsRow>(
    deps.database,
    productDetailsQuery(userId, id),
  );
  const row = found[0];
  if (!row) throw unknownProduct();
  const card = presentProductCard(row, deps.storage);
  const delivers = await deps.deliveries.summaryOf(row.id, row.kind);
  return {
    ...card,
    delivers,
    description: row.description,
    descriptionHtml: renderMarkdown(row.description),
    images: row.images.map((k) => imageFileUrl(deps.storage, k)!),
    gallery: row.images.flatMap((k) => presentImage(deps.storage, k) ?? []),
    assetClasses: row.asset_classes as ProductDetails['assetClasses'],
    prices: row.prices.map(presentPrice),
    bundles: row.bundles.map((b) => ({
      id: b.id,
      slug: b.slug,
      title: b.title,
      priceId: b.price_id,
      price: presentPrice(b),
    })),
    prerequisites: row.prerequisites,
    salesCount: row.sales_count,
    soldByYou: row.sold_by_you,
  };
}

/** A bundle product's counted price (`itemPrice`), its columns prefixed `counted_`. */
type CountedPriceRow = {
  counted_id: string | null;
  counted_amount: number | null;
  counted_currency: string | null;
  counted_scheme: string | null;
  counted_interval: string | null;
  counted_trial_days: number | null;
};

export async function bundleDetails(
  deps: AppDeps,
  userId: string | null,
  id: string,
): Promise<BundleDetails> {
  const found = await preparedRows<BundleCardRow & { description: string; sold_by_you: boolean }>(
    deps.database,
    sql`${bundleCardSelect(userId, sql`, b.description, ${soldBySql(userId)} as sold_by_you`)}
      where b.id = ${id} and b.is_active`,
  );
  const row = found[0];
  if (!row) throw new AppError('not_found', catalogMessages.bundleNotFound);
  const products = await preparedRows<ProductCardRow & CountedPriceRow>(
    deps.database,
    sql`select ${productCardColumns(userId)}, vp.id as counted_id, vp.amount as counted_amount,
          vp.currency as counted_currency, vp.scheme as counted_scheme,
          vp.interval as counted_interval, vp.trial_days as counted_trial_days
        ${productCardFrom}
        join bundle_items bi on bi.product_id = p.id and bi.bundle_id = ${id}
        left join lateral ${itemPrice(sql`p.id`)} vp on true
        where p.is_active
        order by p.title`,
  );
  return {
    ...presentBundleCard(row, deps.storage),
    description: row.description,
    descriptionHtml: renderMarkdown(row.description),
    products: products.map((r) => presentProductCard(r, deps.storage)),
    items: products.map((r) => ({
      productId: r.id,
      counted:
        r.counted_id === null
          ? null
          : presentPrice({
              price_id: r.counted_id,
              amount: r.counted_amount!,
              currency: r.counted_currency!,
              scheme: r.counted_scheme!,
              interval: r.counted_interval,
              trial_days: r.counted_trial_days,
            }),
    })),
    soldByYou: row.sold_by_you,
  };
}

export async function topVendors(deps: AppDeps, limit: number): Promise<VendorProfile[]> {
  const found = await preparedRows<VendorRow>(
    deps.database,
    sql`select v.*, s.product_count from vendors v
        join (select vendor_id, count(*)::int as product_count, sum(sales_count) as sales
              from products where is_active group by vendor_id) s on s.vendor_id = v.id
        order by v.verified desc, s.sales desc, v.id limit ${limit}`,
  );
  return found.map((r) => presentVendor(r, deps.storage));
}

export async function missingPrerequisites(deps: AppDeps, userId: string, productId: string) {
  const db = deps.database.db;
  const product = await rows<{ id: string }>(
    db,
    sql`select id from products where id = ${productId} and is_active`,
  );
  if (!product[0]) throw unknownProduct();
  const missing = await rows<{ id: string; slug: string; title: string }>(
    db,
    sql`select rq.id, rq.slug, rq.title
        from product_prerequisites pp join products rq on rq.id = pp.requires_product_id
        where pp.product_id = ${productId}
          and not ${ownsProductSql(userId, sql`rq.id`)}
        order by rq.title`,
  );
  return { productId, satisfied: missing.length === 0, missing };
}

export { search } from './search.ts';
