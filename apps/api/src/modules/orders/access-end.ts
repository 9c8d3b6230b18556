// Ending access (refund, dispute, subscription end) and the events that say so (ADR 028).
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import type { PurchaseRef } from '../../events/types.ts';
import { rows, type PurchaseRow } from './repository.ts';

/** Why access ends, and what the event says: a full refund names the amount that went back. */
export type Ending =
  | { reason: 'refunded'; amount: number }
  | { reason: 'disputed' }
  | { reason: 'subscription_ended' };

export async function endAccess(deps: AppDeps, tx: Tx, purchase: PurchaseRow, ending: Ending) {
  await tx.execute(sql`update entitlements set status = 'ended', ends_at = least(coalesce(ends_at, now()), now()),
      ended_reason = ${ending.reason}
    where purchase_id = ${purchase.id} and status = 'active'`);
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

/** The event payload naming a purchase and the products it gives (or gave) access to. */
export async function purchaseRef(tx: Tx, purchase: PurchaseRow): Promise<PurchaseRef> {
  const granted = await rows<{ product_id: string }>(
    tx,
    sql`select product_id from entitlements
        where purchase_id = ${purchase.id} and kind = 'access' order by product_id`,
  );
  return {
    purchaseId: purchase.id,
    buyerId: purchase.buyer_id,
    vendorId: purchase.vendor_id,
    item:
      purchase.item_type === 'product'
        ? { type: 'product', id: purchase.product_id! }
        : { type: 'bundle', id: purchase.bundle_id! },
    productIds: granted.map((g) => g.product_id),
  };
}
