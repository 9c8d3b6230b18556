// Who may review a product (ADR 036): a buyer who owns it now, or bought it and kept it until a
// subscription ended. A full refund, a dispute or the vendor's revocation undoes the right.
import { reviewMessages as m } from '@tradeshelf/contract';
import type { Tx } from '../../db/client.ts';
import { keptAccess } from '../access/index.ts';
import { itemSummaries, ownsItem, vendorIdOfUser } from '../catalog/index.ts';

export interface ReviewedProduct {
  id: string;
  slug: string;
  title: string;
  vendorId: string;
}

export type Eligibility = { ok: true } | { ok: false; reason: string };

/** A product (not a bundle) by id, with its vendor; null when there is none. */
export async function productOf(db: Tx, productId: string): Promise<ReviewedProduct | null> {
  const found = (await itemSummaries(db, [{ type: 'product', id: productId }])).get(
    `product:${productId}`,
  );
  return found
    ? { id: productId, slug: found.slug, title: found.title, vendorId: found.vendorId }
    : null;
}

/**
 * Ownership comes from the catalogue (what the product page calls "Purchased", bundles and grants
 * included); a lapsed subscription, and why access ended otherwise, from the access module.
 */
export async function eligibility(
  db: Tx,
  userId: string,
  product: Pick<ReviewedProduct, 'id' | 'vendorId'>,
): Promise<Eligibility> {
  if ((await vendorIdOfUser(db, userId)) === product.vendorId)
    return { ok: false, reason: m.ownProduct };
  if (await ownsItem(db, userId, { type: 'product', id: product.id })) return { ok: true };
  const access = await keptAccess(db, userId, product.id);
  if (access.kept) return { ok: true };
  return { ok: false, reason: access.undoneBy ? m[access.undoneBy] : m.notOwned };
}
