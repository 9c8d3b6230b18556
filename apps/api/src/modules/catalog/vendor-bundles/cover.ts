import type { VendorBundle } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../../deps.ts';
import { readImage, storeUpload } from '../../../platform/image-upload.ts';
import { deleteImage } from '../../../platform/images.ts';
import type { FileReader } from '../../../platform/multipart.ts';
import { bumpCatalogVersion, catalogChanged } from '../catalog-changes.ts';
import { lockVendor } from '../vendor-edits.ts';
import { ownedBundle } from './access.ts';
import { readVendorBundle } from './read.ts';

/** Points the bundle at `ref` (or none); the cover it replaces is deleted once the row no longer names it. */
async function setCover(
  deps: AppDeps,
  vendorId: string,
  bundleId: string,
  ref: string | null,
): Promise<VendorBundle> {
  const db = deps.database.db;
  const result = await db.transaction(async (tx) => {
    await lockVendor(tx, vendorId);
    const bundle = await ownedBundle(tx, vendorId, bundleId);
    await tx.execute(
      sql`update bundles set image_key = ${ref}, updated_at = now() where id = ${bundleId}`,
    );
    // A public bundle's cover shows on cached pages and search cards: drop them.
    const version = bundle.is_active ? await bumpCatalogVersion(tx) : null;
    return { previous: bundle.image_key, version };
  });
  if (result.version !== null) catalogChanged(deps, result.version);
  // The same picture again has the same reference: its files are the new cover's.
  if (result.previous && result.previous !== ref) await deleteImage(deps.storage, result.previous);
  return readVendorBundle(deps, vendorId, bundleId);
}

/**
 * `POST /api/v1/vendor/bundles/{id}/cover`: the product pictures' pipeline (ADR 026: type sniffed from
 * the bytes, 2 MB, pixel limit, resized, stored under a key of our making), drafts included.
 */
export async function uploadBundleCover(
  deps: AppDeps,
  userId: string,
  vendorId: string,
  bundleId: string,
  readFile: FileReader,
): Promise<VendorBundle> {
  const db = deps.database.db;
  // Someone else's bundle is a 404 before a byte is stored.
  await db.transaction((tx) => ownedBundle(tx, vendorId, bundleId));
  const bytes = await readImage(deps, userId, 'catalogue', readFile);
  const ref = await storeUpload(deps, bytes, `public/bundles/${bundleId}`, {
    fit: 'inside',
    max: 1200,
  });
  return setCover(deps, vendorId, bundleId, ref);
}

/** `DELETE /api/v1/vendor/bundles/{id}/cover`. */
export async function removeBundleCover(
  deps: AppDeps,
  vendorId: string,
  bundleId: string,
): Promise<VendorBundle> {
  return setCover(deps, vendorId, bundleId, null);
}
