import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';

/**
 * Whether `userId` owns the product `productId` (an SQL expression: a column or a value), directly or
 * through a bundle. A bundle gives the products it held when it was granted (`bundle_product_ids`,
 * ADR 046), not the ones it holds now: a vendor's later edit neither takes nor gives anything.
 */
export function ownsProductSql(userId: string, productId: SQL): SQL {
  return sql`(exists (select 1 from ownerships o where o.user_id = ${userId} and o.product_id = ${productId}
      and o.revoked_at is null)
    or exists (select 1 from ownerships o where o.user_id = ${userId} and o.bundle_id is not null
      and ${productId} = any(o.bundle_product_ids) and o.revoked_at is null))`;
}

/** Whether the buyer owns the item now: the product itself, or a bundle that gave it. */
export async function ownsItem(
  db: Tx,
  buyerId: string,
  item: { type: 'product' | 'bundle'; id: string },
): Promise<boolean> {
  const { rows } = await db.execute<{ owned: boolean }>(
    item.type === 'bundle'
      ? sql`select exists (select 1 from ownerships where user_id = ${buyerId} and bundle_id = ${item.id}
              and revoked_at is null) as owned`
      : sql`select ${ownsProductSql(buyerId, sql`${item.id}`)} as owned`,
  );
  return rows[0]?.owned ?? false;
}
