// Use case: cancel unpaid checkouts past their expiry, releasing their coupon holds.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';

/** The expiry job: unpaid checkouts past their expiry are cancelled and give their coupon holds back. */
export async function expireCheckouts(db: Tx): Promise<number> {
  const res = await db.execute(sql`with expired as (
      update purchases set status = 'cancelled', cancelled_at = now(),
        coupon_released = coupon_id is not null, updated_at = now()
      where status = 'pending' and expires_at < now() and not coupon_released
      returning coupon_id),
    released as (
      update coupons c set redemptions = greatest(0, c.redemptions - x.n)
      from (select coupon_id, count(*)::int as n from expired where coupon_id is not null group by coupon_id) x
      where c.id = x.coupon_id returning 1)
    select (select count(*) from expired)::int as n, (select count(*) from released)::int as coupons`);
  return (res.rows[0] as { n: number }).n;
}
