import {
  bundleMissingToPublish,
  bundleSaving,
  type VendorBundle,
  bundlePath,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';
import type { AppDeps } from '../../../deps.ts';
import { imageFileUrl } from '../../../platform/images.ts';
import { statusOf } from '../vendor-edits.ts';
import { unknownBundle } from './access.ts';
import { presentBundleProduct, productsOfBundle, type BundleProductRow } from './items.ts';

const iso = (d: Date | string) => new Date(d).toISOString();

/** One of the vendor's bundles as the editor shows it (in `tx` when given, so a save reads its write). */
export async function readVendorBundle(
  deps: AppDeps,
  vendorId: string,
  bundleId: string,
  tx: Tx = deps.database.db,
): Promise<VendorBundle> {
  const { rows } = await tx.execute<{
    id: string;
    slug: string;
    title: string;
    summary: string;
    description: string;
    image_key: string | null;
    is_active: boolean;
    published_at: Date | string | null;
    created_at: Date | string;
    updated_at: Date | string;
    price_id: string | null;
    amount: number | null;
    currency: string | null;
  }>(sql`select b.id, b.slug, b.title, b.summary, b.description, b.image_key, b.is_active,
      b.published_at, b.created_at, b.updated_at, pr.id as price_id, pr.amount, pr.currency
    from bundles b left join prices pr on pr.id = b.price_id
    where b.id = ${bundleId} and b.vendor_id = ${vendorId}`);
  const row = rows[0];
  if (!row) throw unknownBundle();
  const items = await tx.execute<BundleProductRow>(productsOfBundle(bundleId));
  const products = items.rows.map(presentBundleProduct);
  const price =
    row.price_id && row.amount !== null && row.currency
      ? { priceId: row.price_id, amount: row.amount, currency: row.currency }
      : null;
  return {
    id: row.id,
    slug: row.slug,
    status: statusOf(row.is_active, row.published_at),
    title: row.title,
    summary: row.summary,
    description: row.description,
    imageUrl: imageFileUrl(deps.storage, row.image_key),
    price,
    products,
    saving: bundleSaving(price, products),
    publicPath: bundlePath(row),
    missingToPublish: bundleMissingToPublish({
      title: row.title,
      summary: row.summary,
      price,
      publishedProducts: products.filter((p) => p.status === 'published').length,
    }),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    publishedAt: row.published_at ? iso(row.published_at) : null,
  };
}

/** `GET /api/v1/vendor/bundles/{id}`. */
export async function vendorBundle(
  deps: AppDeps,
  vendorId: string,
  bundleId: string,
): Promise<VendorBundle> {
  return readVendorBundle(deps, vendorId, bundleId);
}
