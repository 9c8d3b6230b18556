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

/**
 * Idempotent: a paid demo purchase of a product's default price by a buyer, made `daysAgo` days ago
 * (the demo buyer's course enrolment). Returns its id, or null when the product has no price.
 */
export async function seedDemoPurchase(
  db: Db,
  options: { buyerId: string; productId: string; daysAgo: number },
): Promise<string | null> {
  const key = `demo:${options.productId}`;
  await db.execute(sql`insert into purchases (id, buyer_id, vendor_id, provider, idempotency_key,
      request_hash, status, item_type, product_id, price_id, scheme, currency, subtotal, total,
      expires_at, paid_at, created_at, updated_at)
    select ${'pur_demo_' + options.productId}, ${options.buyerId}, p.vendor_id, 'sandbox', ${key},
      'demo', 'paid', 'product', p.id, pr.id, pr.scheme, pr.currency, pr.amount, pr.amount,
      now() - make_interval(days => ${options.daysAgo}), now() - make_interval(days => ${options.daysAgo}),
      now() - make_interval(days => ${options.daysAgo}), now() - make_interval(days => ${options.daysAgo})
    from products p join prices pr on pr.id = p.default_price_id
    where p.id = ${options.productId}
    on conflict do nothing`);
  const found = await db.execute<{ id: string }>(
    sql`select id from purchases where buyer_id = ${options.buyerId} and idempotency_key = ${key}`,
  );
  return found.rows[0]?.id ?? null;
}
