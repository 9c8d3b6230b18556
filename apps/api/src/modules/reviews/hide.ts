// Use case: a purchase is undone (full refund, dispute, revocation): the buyer's review of what it
// gave comes off the product and out of its rating, unless another purchase still carries it.
import type { ReviewHiddenReason } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { PurchaseEvent } from '../../events/types.ts';
import { eligibility } from './eligibility.ts';
import { refreshProductRating } from './ratings.ts';
import { lockProductStats } from './repository.ts';

function undoneBy(event: PurchaseEvent): ReviewHiddenReason | null {
  switch (event.type) {
    case 'purchase.refunded':
      return event.data.full ? 'refunded' : null;
    case 'purchase.disputed':
      return 'disputed';
    case 'purchase.revoked':
      return 'revoked';
    default:
      return null;
  }
}

/**
 * Runs inline after the catalogue and access have ended the purchase's ownership and access in the
 * same transaction, and asks them again (level-triggered): a buyer refunded for a duplicate payment
 * still owns the product through the first one, and keeps their review.
 */
export async function hideUndoneReviews(tx: Tx, event: PurchaseEvent): Promise<void> {
  const reason = undoneBy(event);
  const { buyerId, productIds } = event.data;
  if (!reason || !productIds.length) return;
  const found = await tx.execute<{ product_id: string; vendor_id: string }>(sql`
    select product_id, vendor_id from reviews
    where user_id = ${buyerId} and product_id = any(${sql.param(productIds)}::text[])
      and hidden_reason is null
    order by product_id`);
  for (const r of found.rows) {
    await lockProductStats(tx, r.product_id, r.vendor_id);
    if ((await eligibility(tx, buyerId, { id: r.product_id, vendorId: r.vendor_id })).ok) continue;
    await tx.execute(sql`update reviews set hidden_reason = ${reason}, hidden_at = now()
      where product_id = ${r.product_id} and user_id = ${buyerId} and hidden_reason is null`);
    await refreshProductRating(tx, r.product_id);
  }
}
