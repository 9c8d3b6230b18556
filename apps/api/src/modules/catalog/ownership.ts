import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';

/** Whether the buyer owns the item now: the product itself, or a bundle that contains it. */
export async function ownsItem(
  db: Tx,
  buyerId: string,
  item: { type: 'product' | 'bundle'; id: string },
): Promise<boolean> {
  const { rows } = await db.execute<{ owned: boolean }>(
    item.type === 'bundle'
      ? sql`select exists (select 1 from ownerships where user_id = ${buyerId} and bundle_id = ${item.id}
              and revoked_at is null) as owned`
      : sql`select (exists (select 1 from ownerships where user_id = ${buyerId} and product_id = ${item.id}
                and revoked_at is null)
              or exists (select 1 from ownerships o join bundle_items bi on bi.bundle_id = o.bundle_id
                where o.user_id = ${buyerId} and bi.product_id = ${item.id} and o.revoked_at is null)) as owned`,
  );
  return rows[0]?.owned ?? false;
}
