import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { Subscriber } from '../../events/bus.ts';
import { isPurchaseEvent, type PurchaseEvent, type PurchaseRef } from '../../events/types.ts';
import { newId } from '../../lib.ts';

/**
 * What the catalogue keeps of purchases (ADR 028/029): who owns what, and how often a product sold.
 * Both run in the paying transaction, so a product page read right after the payment commits says
 * "Purchased" and a refund that commits has already taken it back.
 */
export function catalogSubscribers(): Subscriber[] {
  return [
    {
      name: 'catalog.ownership',
      inline: true,
      types: [
        'purchase.paid',
        'purchase.refunded',
        'purchase.disputed',
        'purchase.revoked',
        'subscription.ended',
      ],
      handle: async (tx, event) => {
        if (isPurchaseEvent(event)) await ownership(tx, event);
      },
    },
  ];
}

async function ownership(tx: Tx, event: PurchaseEvent): Promise<void> {
  const source = `purchase:${event.data.purchaseId}`;
  // The count moves only when ownership did, so a repeated or late event counts nothing twice.
  switch (event.type) {
    case 'purchase.paid':
      await grant(tx, event.data, source);
      return;
    case 'purchase.refunded':
      if (!event.data.full) return;
      if (await revoke(tx, source)) await salesCount(tx, event.data.productIds, -1);
      return;
    // Access ended without the sale being undone: the product page stops saying "Purchased", and
    // the buyer may buy it again; the sale still counts.
    case 'purchase.disputed':
    case 'purchase.revoked':
    case 'subscription.ended':
      await revoke(tx, source);
      return;
  }
}

/** Records the ownership and counts the sale, in one statement: the count moves only with it. */
async function grant(tx: Tx, ref: PurchaseRef, source: string): Promise<void> {
  const product = ref.item.type === 'product' ? ref.item.id : null;
  const bundle = ref.item.type === 'bundle' ? ref.item.id : null;
  // A bundle's products as they were paid for (ADR 046): the vendor's later edits change nothing here.
  const bundleProducts = bundle ? ref.productIds : [];
  // A purchase is granted once: after a revoke, a late repeat of its payment grants nothing.
  await tx.execute(sql`
    with granted as (
      insert into ownerships (id, user_id, product_id, bundle_id, bundle_product_ids, source)
      select ${newId('own')}, ${ref.buyerId}, ${product}, ${bundle},
        ${sql.param(bundleProducts)}::text[], ${source}
      where not exists (select 1 from ownerships where source = ${source})
      on conflict do nothing returning id
    )
    update products set sales_count = sales_count + 1
    where id = any(${sql.param(ref.productIds)}::text[]) and exists (select 1 from granted)`);
}

async function revoke(tx: Tx, source: string): Promise<boolean> {
  const revoked = await tx.execute(sql`update ownerships set revoked_at = now()
    where source = ${source} and revoked_at is null returning id`);
  return revoked.rows.length > 0;
}

async function salesCount(tx: Tx, productIds: string[], delta: 1 | -1) {
  if (!productIds.length) return;
  await tx.execute(sql`update products set sales_count = greatest(0, sales_count + ${delta})
    where id in (${sql.join(
      productIds.map((id) => sql`${id}`),
      sql`, `,
    )})`);
}
