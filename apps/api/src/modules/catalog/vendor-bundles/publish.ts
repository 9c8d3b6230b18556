import {
  bundleNeedsPriceConfirmation,
  bundlePriceAboveValueMessage,
  bundlePublishBlockedMessage,
  type BundlePublishField,
  type VendorBundle,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../../deps.ts';
import { AppError } from '../../../platform/errors.ts';
import { bumpCatalogVersion, catalogChanged } from '../catalog-changes.ts';
import { lockVendor } from '../vendor-edits.ts';
import { ownedBundle } from './access.ts';
import { readVendorBundle } from './read.ts';

/** 422 with what a bundle still needs to be public, in words and by field. */
export function bundlePublishBlocked(
  missing: Partial<Record<BundlePublishField, string>>,
): AppError {
  const fields = Object.keys(missing) as BundlePublishField[];
  return new AppError(
    'business_rule',
    bundlePublishBlockedMessage(fields),
    missing as Record<string, string>,
  );
}

/**
 * 422 on `confirmPriceAboveValue` when the bundle, going or staying on sale, costs more than its
 * products bought separately and the vendor has not said so knowingly (issue 27).
 */
export function checkPriceAboveValue(bundle: VendorBundle, confirmed: boolean): void {
  if (confirmed || !bundle.price || !bundle.saving) return;
  if (!bundleNeedsPriceConfirmation(bundle.saving)) return;
  const message = bundlePriceAboveValueMessage(bundle.price, bundle.saving);
  throw new AppError('business_rule', message, { confirmPriceAboveValue: message });
}

/**
 * Publishes or unpublishes. Doing it again changes nothing. The first publication dates the bundle
 * (`created_at`: search lists bundles newest first), so a long-kept draft counts as new. Unpublishing
 * only hides it: purchases and what they gave stay.
 */
export async function setBundlePublished(
  deps: AppDeps,
  vendorId: string,
  bundleId: string,
  publish: boolean,
  confirmPriceAboveValue = false,
): Promise<VendorBundle> {
  const db = deps.database.db;
  const result = await db.transaction(async (tx) => {
    await lockVendor(tx, vendorId);
    const bundle = await ownedBundle(tx, vendorId, bundleId);
    const current = await readVendorBundle(deps, vendorId, bundleId, tx);
    if (bundle.is_active === publish) return { bundle: current, version: null };
    if (publish) {
      if (Object.keys(current.missingToPublish).length)
        throw bundlePublishBlocked(current.missingToPublish);
      checkPriceAboveValue(current, confirmPriceAboveValue);
      await tx.execute(sql`update bundles set is_active = true, updated_at = now(),
          created_at = case when published_at is null then now() else created_at end,
          published_at = coalesce(published_at, now())
        where id = ${bundleId}`);
    } else {
      await tx.execute(
        sql`update bundles set is_active = false, updated_at = now() where id = ${bundleId}`,
      );
    }
    const version = await bumpCatalogVersion(tx);
    return { bundle: await readVendorBundle(deps, vendorId, bundleId, tx), version };
  });
  if (result.version !== null) catalogChanged(deps, result.version);
  return result.bundle;
}
