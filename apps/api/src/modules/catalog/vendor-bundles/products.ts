import type { VendorBundleProduct } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../../deps.ts';
import { vendorProductCursor, vendorProductPage } from '../vendor-product-refs.ts';
import { bundleProductSelect, presentBundleProduct, type BundleProductRow } from './items.ts';

/**
 * `GET /api/v1/vendor/bundles/products`: the products the picker offers, drafts included, by title;
 * `q` keeps those whose title has it. The page is the workspace's one reader of the vendor's
 * products; the picker then reads each one's status and value.
 */
const PICKER_CURSOR = vendorProductCursor('bundle-picker');

export async function bundleProductChoices(
  deps: AppDeps,
  vendorId: string,
  input: { q?: string | undefined; limit: number; cursor?: string | undefined },
): Promise<{ products: VendorBundleProduct[]; nextCursor: string | null }> {
  const { products, nextCursor } = await vendorProductPage(deps, vendorId, PICKER_CURSOR, input);
  if (!products.length) return { products: [], nextCursor };
  const { rows } = await deps.database.db.execute<BundleProductRow>(sql`${bundleProductSelect}
    where p.id = any(${sql.param(products.map((p) => p.id))}::text[])
    order by lower(p.title), p.id`);
  return { products: rows.map(presentBundleProduct), nextCursor };
}
