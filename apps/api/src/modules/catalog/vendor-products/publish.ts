import type { missingToPublish } from '@tradeshelf/contract';
import { publishBlockedMessage, type VendorProduct } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../../deps.ts';
import { AppError } from '../../../platform/errors.ts';
import { bumpCatalogVersion, catalogChanged } from '../catalog-changes.ts';
import { lockVendor } from '../vendor-edits.ts';
import { ownedProduct } from './access.ts';
import { readVendorProduct } from './read.ts';

/** 422 with what a product still needs to be public, in words and by field. */
export function publishBlocked(missing: ReturnType<typeof missingToPublish>): AppError {
  const fields = Object.keys(missing) as Array<keyof typeof missing>;
  return new AppError(
    'business_rule',
    publishBlockedMessage(fields),
    missing as Record<string, string>,
  );
}

/**
 * Publishes or unpublishes. Doing it again changes nothing. The first publication dates the listing
 * (`created_at`, which "newest" and saved-search alerts read), so a long-kept draft counts as new.
 */
export async function setPublished(
  deps: AppDeps,
  vendorId: string,
  productId: string,
  publish: boolean,
): Promise<VendorProduct> {
  const db = deps.database.db;
  const result = await db.transaction(async (tx) => {
    await lockVendor(tx, vendorId);
    const product = await ownedProduct(tx, vendorId, productId);
    const current = await readVendorProduct(deps, vendorId, productId, tx);
    if (product.is_active === publish) return { product: current, version: null };
    if (publish) {
      if (Object.keys(current.missingToPublish).length)
        throw publishBlocked(current.missingToPublish);
      await tx.execute(sql`update products set is_active = true, updated_at = now(),
          created_at = case when published_at is null then now() else created_at end,
          published_at = coalesce(published_at, now())
        where id = ${productId}`);
    } else {
      await tx.execute(
        sql`update products set is_active = false, updated_at = now() where id = ${productId}`,
      );
    }
    const version = await bumpCatalogVersion(tx);
    return { product: await readVendorProduct(deps, vendorId, productId, tx), version };
  });
  if (result.version !== null) catalogChanged(deps, result.version);
  return result.product;
}
