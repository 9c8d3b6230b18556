import { vendorProductMessages as m, type VendorProduct } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../../deps.ts';
import { AppError } from '../../../platform/errors.ts';
import { deleteImage, imageFileUrl } from '../../../platform/images.ts';
import type { FileReader } from '../../../platform/multipart.ts';
import { storeProductImage } from '../product-images.ts';
import { bumpCatalogVersion, catalogChanged } from '../catalog-changes.ts';
import { lockVendor } from '../vendor-edits.ts';
import { unknownProduct } from './access.ts';
import { readVendorProduct } from './read.ts';

/**
 * `POST /api/v1/vendor/products/{id}/images`: the product pictures' pipeline (type sniffed from the
 * bytes, size and pixel limits, stored under a key of our making), answered as the editor shows the
 * product, so drafts can have pictures before they are published.
 */
export async function addVendorProductImage(
  deps: AppDeps,
  userId: string,
  vendorId: string,
  productId: string,
  readFile: FileReader,
): Promise<VendorProduct> {
  await storeProductImage(deps, userId, productId, readFile);
  return readVendorProduct(deps, vendorId, productId);
}

/**
 * `PUT /api/v1/vendor/products/{id}/images`: keeps the pictures named (by the URLs the product lists),
 * in that order; the files of the others are deleted once the row no longer names them.
 */
export async function setVendorProductImages(
  deps: AppDeps,
  vendorId: string,
  productId: string,
  urls: string[],
): Promise<VendorProduct> {
  const db = deps.database.db;
  const result = await db.transaction(async (tx) => {
    await lockVendor(tx, vendorId);
    const { rows } = await tx.execute<{ images: string[]; is_active: boolean }>(
      sql`select images, is_active from products where id = ${productId} and vendor_id = ${vendorId} for update`,
    );
    const row = rows[0];
    if (!row) throw unknownProduct();
    const byUrl = new Map(row.images.map((k) => [imageFileUrl(deps.storage, k), k]));
    const keep = urls.map((u) => byUrl.get(u));
    if (keep.some((k) => k === undefined))
      throw new AppError('validation_failed', m.imageUnknown, { images: m.imageUnknown });
    const kept = keep as string[];
    await tx.execute(sql`update products set images = ${sql.param(kept)}::text[], updated_at = now()
      where id = ${productId}`);
    const version = row.is_active ? await bumpCatalogVersion(tx) : null;
    return { removed: row.images.filter((k) => !kept.includes(k)), version };
  });
  if (result.version !== null) catalogChanged(deps, result.version);
  await Promise.all(result.removed.map((k) => deleteImage(deps.storage, k)));
  return readVendorProduct(deps, vendorId, productId);
}
