import {
  missingToPublish,
  type PlanBilling,
  type VendorPlan,
  type VendorProduct,
  productPath,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../../deps.ts';
import type { Tx } from '../../../db/client.ts';
import { imageFileUrl } from '../../../platform/images.ts';
import type { PriceRow } from '../checkout-items.ts';
import { statusOf } from '../vendor-edits.ts';
import { unknownProduct } from './access.ts';

/** One of a product's plans: a price row. */
export type PlanRow = PriceRow;

type VendorProductDbRow = {
  id: string;
  slug: string;
  kind: VendorProduct['kind'];
  category: VendorProduct['category'];
  title: string;
  summary: string;
  description: string;
  tags: string[];
  platforms: VendorProduct['platforms'];
  asset_classes: VendorProduct['assetClasses'];
  images: string[];
  is_active: boolean;
  published_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
  sales_count: number;
  plans: PlanRow[];
  prerequisites: Array<{ id: string; title: string }>;
};

export const billingOf = (p: Pick<PlanRow, 'scheme' | 'interval'>): PlanBilling =>
  p.scheme === 'one_time' ? 'one_time' : (p.interval ?? 'month');

export const presentPlan = (p: PlanRow): VendorPlan => ({
  priceId: p.price_id,
  billing: billingOf(p),
  amount: p.amount,
  currency: p.currency,
  trialDays: p.trial_days ?? 0,
});

const iso = (d: Date | string) => new Date(d).toISOString();

/** The active plans of a product as JSON, in page order (the first is the default). */
export const plansJson = sql`coalesce((select json_agg(json_build_object('price_id', x.id, 'amount', x.amount,
    'currency', x.currency, 'scheme', x.scheme, 'interval', x.interval, 'trial_days', x.trial_days)
    order by x.position, x.created_at, x.id) from prices x where x.product_id = p.id and x.is_active), '[]')`;

/** One of the vendor's products as the editor shows it (in `tx` when given, so a save reads its own write). */
export async function readVendorProduct(
  deps: AppDeps,
  vendorId: string,
  productId: string,
  tx: Tx = deps.database.db,
): Promise<VendorProduct> {
  const { rows } = await tx.execute<VendorProductDbRow>(sql`
    select p.id, p.slug, p.kind, p.category, p.title, p.summary, p.description, p.tags, p.platforms,
      p.asset_classes, p.images, p.is_active, p.published_at, p.created_at, p.updated_at, p.sales_count,
      ${plansJson} as plans,
      coalesce((select json_agg(json_build_object('id', rq.id, 'title', rq.title) order by rq.title, rq.id)
        from product_prerequisites pp join products rq on rq.id = pp.requires_product_id
        where pp.product_id = p.id), '[]') as prerequisites
    from products p where p.id = ${productId} and p.vendor_id = ${vendorId}`);
  const row = rows[0];
  if (!row) throw unknownProduct();
  const plans = row.plans.map(presentPlan);
  return {
    id: row.id,
    slug: row.slug,
    kind: row.kind,
    category: row.category,
    status: statusOf(row.is_active, row.published_at),
    title: row.title,
    summary: row.summary,
    description: row.description,
    tags: row.tags,
    platforms: row.platforms,
    assetClasses: row.asset_classes,
    prerequisites: row.prerequisites,
    plans,
    images: row.images.flatMap((k) => imageFileUrl(deps.storage, k) ?? []),
    publicPath: productPath(row),
    missingToPublish: missingToPublish({ title: row.title, summary: row.summary, plans }),
    salesCount: row.sales_count,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    publishedAt: row.published_at ? iso(row.published_at) : null,
  };
}

/** `GET /api/v1/vendor/products/{id}`. */
export async function vendorProduct(
  deps: AppDeps,
  vendorId: string,
  productId: string,
): Promise<VendorProduct> {
  return readVendorProduct(deps, vendorId, productId);
}
