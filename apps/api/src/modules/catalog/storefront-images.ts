// Use case: a vendor sets or removes their storefront's avatar or banner, through the image
// pipeline every upload takes (ADR 026): type by the bytes, decoded whole, metadata dropped, resized.
import {
  storefrontMessages as m,
  type Storefront,
  type StorefrontImageKind,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../platform/errors.ts';
import { readImage, storeUpload } from '../../platform/image-upload.ts';
import { deleteImage, type ImageShape } from '../../platform/images.ts';
import type { FileReader } from '../../platform/multipart.ts';
import { bumpCatalogVersion, catalogChanged } from './catalog-changes.ts';
import { presentStorefront, requireVendorRole, storefrontRowOfUser } from './storefront.ts';

const SHAPES: Record<StorefrontImageKind, ImageShape> = {
  avatar: { fit: 'square', size: 256 },
  // 3:1, wide enough for the storefront's header and still a usable share card.
  banner: { fit: 'frame', width: 1200, height: 400 },
};

const column = (kind: StorefrontImageKind) =>
  kind === 'avatar' ? sql.raw('avatar_key') : sql.raw('banner_key');

async function ownStorefront(deps: AppDeps, userId: string) {
  await requireVendorRole(deps, userId);
  const row = await storefrontRowOfUser(deps.database.db, userId);
  if (!row) throw new AppError('forbidden', m.setUpFirst);
  return row;
}

/**
 * Stores the picture under the vendor's own prefix (the name the client gave the file is never
 * used), then points the storefront at it. The picture it replaces is deleted afterwards.
 */
export async function setStorefrontImage(
  deps: AppDeps,
  userId: string,
  kind: StorefrontImageKind,
  readFile: FileReader,
): Promise<{ storefront: Storefront }> {
  const own = await ownStorefront(deps, userId);
  const bytes = await readImage(deps, userId, 'storefront', readFile);
  const ref = await storeUpload(deps, bytes, `public/vendors/${own.id}/${kind}`, SHAPES[kind]);
  const updated = await deps.database.db.execute<{ previous: string | null }>(sql`
    update vendors v set ${column(kind)} = ${ref}
    from (select ${column(kind)} as previous from vendors where id = ${own.id} for update) old
    where v.id = ${own.id} returning old.previous`);
  const previous = updated.rows[0]?.previous ?? null;
  // The same picture again has the same reference: its files are the new picture's.
  if (previous && previous !== ref) await deleteImage(deps.storage, previous);
  return answer(deps, userId);
}

export async function removeStorefrontImage(
  deps: AppDeps,
  userId: string,
  kind: StorefrontImageKind,
): Promise<{ storefront: Storefront }> {
  const own = await ownStorefront(deps, userId);
  const updated = await deps.database.db.execute<{ previous: string | null }>(sql`
    update vendors v set ${column(kind)} = null
    from (select ${column(kind)} as previous from vendors where id = ${own.id} for update) old
    where v.id = ${own.id} returning old.previous`);
  const previous = updated.rows[0]?.previous ?? null;
  if (previous) await deleteImage(deps.storage, previous);
  return answer(deps, userId);
}

async function answer(deps: AppDeps, userId: string) {
  // What shows the storefront's pictures is public: every node's caches drop their copies (ADR 040).
  catalogChanged(deps, await bumpCatalogVersion(deps.database.db));
  const row = await storefrontRowOfUser(deps.database.db, userId);
  return { storefront: presentStorefront(deps, row!) };
}
