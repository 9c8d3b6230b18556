import { bundlePath, type VendorBundleRow, type VendorProductStatus } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../../deps.ts';
import { imageFileUrl } from '../../../platform/images.ts';
import { editedPage, editedRows, statusOf, updatedKey } from '../vendor-edits.ts';

/** `GET /api/v1/vendor/bundles`: most recently edited first, drafts included. */
export async function listVendorBundles(
  deps: AppDeps,
  vendorId: string,
  input: { limit: number; cursor?: string | undefined; status?: VendorProductStatus | undefined },
): Promise<{ bundles: VendorBundleRow[]; nextCursor: string | null }> {
  const db = deps.database.db;
  const { rows } = await db.execute<{
    id: string;
    slug: string;
    title: string;
    image_key: string | null;
    is_active: boolean;
    published_at: Date | string | null;
    updated_at: Date | string;
    updated_key: string;
    price_id: string | null;
    amount: number | null;
    currency: string | null;
    products_count: number;
  }>(sql`
    select b.id, b.slug, b.title, b.image_key, b.is_active, b.published_at, b.updated_at,
      ${updatedKey('b')} as updated_key, pr.id as price_id, pr.amount, pr.currency,
      (select count(*)::int from bundle_items bi where bi.bundle_id = b.id) as products_count
    from bundles b left join prices pr on pr.id = b.price_id
    ${editedRows(deps.cursors, 'b', vendorId, input)}`);
  const { page, nextCursor } = editedPage(deps.cursors, 'b', rows, input.limit);
  return {
    bundles: page.map((r) => ({
      id: r.id,
      slug: r.slug,
      status: statusOf(r.is_active, r.published_at),
      title: r.title,
      imageUrl: imageFileUrl(deps.storage, r.image_key),
      price:
        r.price_id && r.amount !== null && r.currency
          ? { priceId: r.price_id, amount: r.amount, currency: r.currency }
          : null,
      publicPath: bundlePath(r),
      updatedAt: new Date(r.updated_at).toISOString(),
      productsCount: r.products_count,
    })),
    nextCursor,
  };
}
