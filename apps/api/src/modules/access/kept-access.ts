// What the reviews module asks of access (ADR 036): did the buyer buy access to a product and keep
// it? Access that ran out with a subscription was kept; a refund, dispute or revocation undid it.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';

export type UndoneBy = 'refunded' | 'disputed' | 'revoked';

/**
 * `kept`: some purchase's access to the product is live or ended only with its subscription.
 * Otherwise `undoneBy` says what ended the most recent one, if any did.
 */
export async function keptAccess(
  db: Tx,
  userId: string,
  productId: string,
): Promise<{ kept: boolean; undoneBy: UndoneBy | null }> {
  const found = await db.execute<{ kept: boolean; undone_by: UndoneBy | null }>(sql`
    select coalesce(bool_or(status = 'active' or ended_reason = 'subscription_ended'), false) as kept,
      (array_agg(ended_reason order by ends_at desc nulls last)
        filter (where ended_reason in ('refunded', 'disputed', 'revoked')))[1] as undone_by
    from entitlements
    where user_id = ${userId} and product_id = ${productId} and kind = 'access'`);
  const row = found.rows[0];
  return { kept: row?.kept ?? false, undoneBy: row?.undone_by ?? null };
}
