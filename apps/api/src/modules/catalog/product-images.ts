import { catalogMessages, PRODUCT_IMAGES_MAX, type ProductDetails } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../platform/errors.ts';
import { readImage, storeUpload } from '../../platform/image-upload.ts';
import { deleteImage } from '../../platform/images.ts';
import type { FileReader } from '../../platform/multipart.ts';
import { productDetails } from './service.ts';
import { bumpCatalogVersion, catalogChanged } from './catalog-changes.ts';

const unknownProduct = () => new AppError('not_found', catalogMessages.productNotFound);
const full = () =>
  new AppError('business_rule', catalogMessages.tooManyImages, {
    file: catalogMessages.tooManyImages,
  });

/**
 * A vendor adds a picture to its own product, through the same pipeline as avatars (ADR 026): the
 * first picture becomes the cover. Someone else's product is a 404, as if it did not exist.
 */
export async function addProductImage(
  deps: AppDeps,
  userId: string,
  productId: string,
  readFile: FileReader,
): Promise<ProductDetails> {
  await storeProductImage(deps, userId, productId, readFile);
  return productDetails(deps, userId, productId);
}

/** The upload itself, shared with the vendor workspace's route (which answers drafts too). */
export async function storeProductImage(
  deps: AppDeps,
  userId: string,
  productId: string,
  readFile: FileReader,
): Promise<void> {
  const db = deps.database.db;
  const owned = await db.execute(sql`select cardinality(p.images) as count from products p
    join vendors v on v.id = p.vendor_id where p.id = ${productId} and v.user_id = ${userId}`);
  const row = owned.rows[0] as { count: number } | undefined;
  if (!row) throw unknownProduct();
  if (Number(row.count) >= PRODUCT_IMAGES_MAX) throw full();
  const bytes = await readImage(deps, userId, 'catalogue', readFile);
  const ref = await storeUpload(deps, bytes, `public/products/${productId}`, {
    fit: 'inside',
    max: 1200,
  });
  // Checked again in the write: two uploads at once cannot pass the limit together.
  const added = await db.execute(sql`update products set images = array_append(images, ${ref}),
      updated_at = now()
    where id = ${productId} and cardinality(images) < ${PRODUCT_IMAGES_MAX}
      and not (${ref} = any(images))
    returning is_active`);
  if (!added.rows.length) {
    const again = await db.execute(
      sql`select 1 from products where id = ${productId} and ${ref} = any(images)`,
    );
    // The same picture uploaded twice is kept once; anything else means the gallery filled up.
    if (!again.rows.length) {
      await deleteImage(deps.storage, ref);
      throw full();
    }
  }
  // A public product's pictures show on cached pages: drop them.
  if ((added.rows[0] as { is_active?: boolean } | undefined)?.is_active)
    catalogChanged(deps, await bumpCatalogVersion(db));
}
