import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

export const DEMO_COUPON = 'SAVE20';
export const DEMO_REF_ID = 'demo-affiliate';

/**
 * Idempotent: a 20%-off coupon for every vendor, and the demo affiliate's referral link for
 * Alpha Edge Labs, so checkout with a coupon and a referral can be tried on a fresh start.
 */
export async function seedDemoOrders(db: Db, options: { affiliateEmail: string }): Promise<void> {
  await db.execute(sql`insert into coupons (id, vendor_id, code, type, percent_off, duration)
    select 'cpn_demo_' || v.id, v.id, ${DEMO_COUPON}, 'percent', 20, 'forever' from vendors v
    on conflict do nothing`);
  await db.execute(sql`insert into referral_links (ref_id, vendor_id, user_id, commission_bps)
    select ${DEMO_REF_ID}, v.id, u.id, 2000 from vendors v, users u
    where v.vendor_url = 'alpha-edge' and lower(u.email) = lower(${options.affiliateEmail})
    on conflict do nothing`);
}
