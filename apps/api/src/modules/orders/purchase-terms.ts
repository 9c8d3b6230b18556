// What the deliverables module asks of a purchase: when it was paid, and whether it is a
// subscription (updates promises run from the payment; subscriptions get every version).
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';

export interface PurchaseTerms {
  id: string;
  buyerId: string;
  paidAt: Date | null;
  subscription: boolean;
}

export async function purchaseTerms(
  db: Tx,
  purchaseIds: readonly string[],
): Promise<Map<string, PurchaseTerms>> {
  if (!purchaseIds.length) return new Map();
  const found = await db.execute<{
    id: string;
    buyer_id: string;
    paid_at: Date | string | null;
    subscription_id: string | null;
  }>(sql`select id, buyer_id, paid_at, subscription_id from purchases
    where id = any(${sql.param([...purchaseIds])}::text[])`);
  return new Map(
    found.rows.map((r) => [
      r.id,
      {
        id: r.id,
        buyerId: r.buyer_id,
        paidAt: r.paid_at === null ? null : new Date(r.paid_at),
        subscription: r.subscription_id !== null,
      },
    ]),
  );
}
