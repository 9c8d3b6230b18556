// Use case: keep what each purchase entitles its buyer to, from orders' events (ADR 028).
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { DeliveryKind, PurchaseEvent } from '../../events/types.ts';
import { newId } from '../../lib.ts';

/** Beyond plain access, what a product's kind delivers. */
export const deliveryKind: Record<string, DeliveryKind> = {
  course: 'course_enrolment',
  app: 'licence',
  community: 'discord_role',
};

/** What products of these catalogue kinds deliver beyond access (for an event's `deliveries`). */
export function deliveriesOf(kinds: readonly string[]): DeliveryKind[] {
  return [...new Set(kinds.flatMap((k) => (deliveryKind[k] ? [deliveryKind[k]] : [])))].sort();
}

/**
 * Runs inline, in the transaction that changed the purchase: the order page read right after a
 * payment or refund commits already shows the entitlements it granted or ended. Every branch is a
 * guarded write (insert-if-missing, update-while-active), so a repeat changes nothing.
 */
export async function keepEntitlements(tx: Tx, event: PurchaseEvent): Promise<void> {
  const purchaseId = event.data.purchaseId;
  switch (event.type) {
    case 'purchase.paid': {
      const rows = event.data.products.flatMap((product) =>
        ['access', ...(deliveryKind[product.kind] ? [deliveryKind[product.kind]!] : [])].map(
          (kind) =>
            sql`(${newId('ent')}, ${purchaseId}, ${event.data.buyerId}, ${product.id}, ${kind})`,
        ),
      );
      if (rows.length)
        await tx.execute(sql`insert into entitlements (id, purchase_id, user_id, product_id, kind)
          values ${sql.join(rows, sql`, `)}
          on conflict do nothing`);
      return;
    }
    case 'purchase.refunded':
      if (event.data.full) await endAll(tx, purchaseId, 'refunded');
      return;
    case 'purchase.disputed':
      await endAll(tx, purchaseId, 'disputed');
      return;
    case 'purchase.revoked':
      await endAll(tx, purchaseId, 'revoked');
      return;
    case 'subscription.ended':
      await endAll(tx, purchaseId, 'subscription_ended');
      return;
    case 'subscription.cancelling':
      // Access lasts to the end of the paid period.
      await tx.execute(sql`update entitlements set ends_at = ${event.data.accessUntil}
        where purchase_id = ${purchaseId} and status = 'active'`);
      return;
    case 'subscription.resumed':
      await tx.execute(sql`update entitlements set ends_at = null
        where purchase_id = ${purchaseId} and status = 'active'`);
      return;
    default:
      return;
  }
}

async function endAll(tx: Tx, purchaseId: string, reason: string): Promise<void> {
  await tx.execute(sql`update entitlements set status = 'ended',
      ends_at = least(coalesce(ends_at, now()), now()), ended_reason = ${reason}
    where purchase_id = ${purchaseId} and status = 'active'`);
}
