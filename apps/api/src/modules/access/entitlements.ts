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

/**
 * What each product delivers beyond access: its kind's delivery, and a Discord role for an alert
 * product bound to a server's roles (its feed's Discord channel is readable by them, ADR 059).
 */
async function deliveriesByProduct(
  tx: Tx,
  products: ReadonlyArray<{ id: string; kind: string }>,
): Promise<Map<string, DeliveryKind[]>> {
  const alerts = products.filter((p) => p.kind === 'alert').map((p) => p.id);
  const bound = new Set(
    alerts.length
      ? (
          await tx.execute<{ product_id: string }>(sql`select product_id from community_bindings
            where product_id = any(${sql.param(alerts)}::text[])`)
        ).rows.map((r) => r.product_id)
      : [],
  );
  return new Map(
    products.map((p) => [
      p.id,
      deliveryKind[p.kind]
        ? [deliveryKind[p.kind]!]
        : bound.has(p.id)
          ? (['discord_role'] as DeliveryKind[])
          : [],
    ]),
  );
}

/** What these products deliver beyond access (for an event's `deliveries`). */
export async function deliveriesOf(
  tx: Tx,
  products: ReadonlyArray<{ id: string; kind: string }>,
): Promise<DeliveryKind[]> {
  const by = await deliveriesByProduct(tx, products);
  return [...new Set([...by.values()].flat())].sort();
}

/**
 * An alert product's holders get its Discord role from the moment it is bound (ADR 059): the
 * `discord_role` entitlement each live purchase would have had, added once (repeats add nothing).
 * Returns the holders, for converging.
 */
export async function addRoleEntitlements(tx: Tx, productId: string): Promise<string[]> {
  const live = await tx.execute<{
    purchase_id: string;
    user_id: string;
    ends_at: Date | string | null;
  }>(sql`select purchase_id, user_id, ends_at from entitlements
    where product_id = ${productId} and kind = 'access' and status = 'active'`);
  if (!live.rows.length) return [];
  const rows = live.rows.map(
    (r) =>
      sql`(${newId('ent')}, ${r.purchase_id}, ${r.user_id}, ${productId}, 'discord_role',
        ${r.ends_at === null ? null : new Date(r.ends_at)}::timestamptz)`,
  );
  const added = await tx.execute<{ user_id: string }>(sql`
    insert into entitlements (id, purchase_id, user_id, product_id, kind, ends_at)
    values ${sql.join(rows, sql`, `)}
    on conflict do nothing
    returning user_id`);
  return [...new Set(added.rows.map((r) => r.user_id))];
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
      const delivers = await deliveriesByProduct(tx, event.data.products);
      const rows = event.data.products.flatMap((product) =>
        ['access', ...(delivers.get(product.id) ?? [])].map(
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
