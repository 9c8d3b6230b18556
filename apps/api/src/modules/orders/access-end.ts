// Ending access (refund, dispute, subscription end) and the events that say so (ADR 028). The
// entitlements themselves are the access module's: it ends them from these events.
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import type { PurchaseRef } from '../../events/types.ts';
import { grantedProducts } from '../access/index.ts';
import { productsOfItem } from '../catalog/index.ts';
import { type PurchaseRow } from './repository.ts';

/** Why access ends, and what the event says: a full refund names the amount that went back. */
export type Ending =
  | { reason: 'refunded'; amount: number }
  | { reason: 'disputed' }
  | { reason: 'subscription_ended' };

export async function endAccess(deps: AppDeps, tx: Tx, purchase: PurchaseRow, ending: Ending) {
  const ref = await purchaseRef(tx, purchase);
  if (ending.reason === 'refunded')
    await deps.events.publish(tx, 'purchase.refunded', purchase.id, {
      ...ref,
      amount: { amount: ending.amount, currency: purchase.currency },
      full: true,
    });
  else if (ending.reason === 'disputed')
    await deps.events.publish(tx, 'purchase.disputed', purchase.id, ref);
  else await deps.events.publish(tx, 'subscription.ended', purchase.id, ref);
}

export const itemOf = (purchase: PurchaseRow): PurchaseRef['item'] =>
  purchase.item_type === 'product'
    ? { type: 'product', id: purchase.product_id! }
    : { type: 'bundle', id: purchase.bundle_id! };

/**
 * The event payload naming a purchase and the products it gives (or gave) access to: what the
 * access module granted, or, before it granted anything (the payment itself), what the item holds.
 */
export async function purchaseRef(
  tx: Tx,
  purchase: PurchaseRow,
  at: 'granting' | 'granted' = 'granted',
): Promise<PurchaseRef> {
  const item = itemOf(purchase);
  const productIds =
    at === 'granting'
      ? (await productsOfItem(tx, item)).map((p) => p.id).sort()
      : await grantedProducts(tx, purchase.id);
  return {
    purchaseId: purchase.id,
    buyerId: purchase.buyer_id,
    vendorId: purchase.vendor_id,
    item,
    productIds,
  };
}
