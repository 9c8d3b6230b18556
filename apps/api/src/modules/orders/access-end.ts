// Ending access (refund, dispute, subscription end) and the events that say so (ADR 028). The
// entitlements themselves are the access module's: it ends them from these events.
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import type { PurchaseRef } from '../../events/types.ts';
import { grantsOf } from '../access/index.ts';
import { type PurchaseRow } from './repository.ts';

/** Why access ends, and what the event says: a full refund names the amount that went back. */
export type Ending =
  | { reason: 'refunded'; amount: number }
  | { reason: 'disputed' }
  | { reason: 'subscription_ended' };

export async function endAccess(deps: AppDeps, tx: Tx, purchase: PurchaseRow, ending: Ending) {
  const ref = await grantedRef(tx, purchase);
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

/** The event payload naming a purchase and what it gives (or gave) access to. */
export function purchaseRef(
  purchase: PurchaseRow,
  grants: Pick<PurchaseRef, 'productIds' | 'deliveries'>,
): PurchaseRef {
  return {
    purchaseId: purchase.id,
    buyerId: purchase.buyer_id,
    vendorId: purchase.vendor_id,
    item: itemOf(purchase),
    ...grants,
  };
}

/** After the payment: what the access module granted (a bundle may have changed since). */
export async function grantedRef(tx: Tx, purchase: PurchaseRow): Promise<PurchaseRef> {
  return purchaseRef(purchase, await grantsOf(tx, purchase.id));
}
