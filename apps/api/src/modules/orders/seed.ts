import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { insertLedger, reverseLedger } from './ledger.ts';
import { splitPayment } from './pricing.ts';
import type { PurchaseRow } from './repository.ts';

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
  // A session id like a checkout's: order and sales lists show purchases that went through one.
  await db.execute(sql`insert into purchases (id, session_id, buyer_id, vendor_id, provider, idempotency_key,
      request_hash, status, item_type, product_id, price_id, scheme, currency, subtotal, total,
      expires_at, paid_at, created_at, updated_at)
    select ${'pur_demo_' + options.productId}, ${'cs_demo_' + options.productId}, ${options.buyerId}, p.vendor_id, 'sandbox', ${key},
      'demo', 'paid', 'product', p.id, pr.id,
      case when pr.scheme = 'one_time' then 'one_time' else pr.interval end, pr.currency, pr.amount, pr.amount,
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

/**
 * Idempotent: months of the demo affiliate's referred sales of one vendor's one-time products, each
 * a paid purchase with its ledger set as a payment writes it (sale, fee, vendor share, commission),
 * dated `daysAgo`; `refunded` ones are reversed two days later (the commission clawed back). Buyers
 * take turns. Returns how many purchases exist for the referral.
 */
export async function seedDemoReferredSales(
  db: Db,
  options: {
    vendorUrl: string;
    refId: string;
    affiliateUserId: string;
    commissionBps: number;
    buyerIds: string[];
    fee: { bps: number; fixed: number };
    sales: Array<{ daysAgo: number; refunded?: boolean }>;
  },
): Promise<number> {
  const products = await db.execute<{
    id: string;
    price_id: string;
    amount: number;
    currency: string;
  }>(
    sql`select p.id, pr.id as price_id, pr.amount, pr.currency
        from products p join prices pr on pr.id = p.default_price_id
        join vendors v on v.id = p.vendor_id
        where v.vendor_url = ${options.vendorUrl} and pr.scheme = 'one_time' and p.is_active
        order by p.id`,
  );
  if (!products.rows.length || !options.buyerIds.length) return 0;
  for (const [i, sale] of options.sales.entries()) {
    const product = products.rows[i % products.rows.length]!;
    const buyerId = options.buyerIds[i % options.buyerIds.length]!;
    const id = `pur_demo_ref_${options.refId}_${i}`;
    const at = sql`now() - make_interval(days => ${sale.daysAgo})`;
    await db.transaction(async (tx) => {
      const inserted =
        await tx.execute(sql`insert into purchases (id, session_id, buyer_id, vendor_id, provider,
          idempotency_key, request_hash, status, item_type, product_id, price_id, scheme, currency,
          subtotal, total, ref_id, affiliate_user_id, affiliate_bps, expires_at, paid_at, created_at,
          updated_at)
        select ${id}, ${`cs_demo_ref_${options.refId}_${i}`}, ${buyerId}, p.vendor_id, 'sandbox', ${`demo-ref:${options.refId}:${i}`}, 'demo', 'paid', 'product',
          p.id, ${product.price_id}, 'one_time', ${product.currency}, ${product.amount}, ${product.amount},
          ${options.refId}, ${options.affiliateUserId}, ${options.commissionBps}, ${at}, ${at}, ${at}, ${at}
        from products p where p.id = ${product.id}
        on conflict do nothing returning id`);
      if (!inserted.rows.length) return;
      const split = splitPayment(product.amount, options.fee, options.commissionBps);
      const line = (
        entry_type: string,
        account_type: string,
        account_id: string,
        amount: number,
      ) => ({
        entry_type,
        account_type,
        account_id,
        amount,
        currency: product.currency,
      });
      const ref = `pi_demo_ref_${options.refId}_${i}`;
      await insertLedger(tx, id, ref, [
        line('sale', 'clearing', 'sandbox', -product.amount),
        line('platform_fee', 'platform', 'platform', split.platformFee),
        line('vendor_share', 'vendor', (await vendorOfPurchase(tx, id))!, split.vendorShare),
        line(
          'affiliate_commission',
          'affiliate',
          options.affiliateUserId,
          split.affiliateCommission,
        ),
      ]);
      await tx.execute(
        sql`update ledger_entries set created_at = ${at} where purchase_id = ${id} and payment_ref = ${ref}`,
      );
      if (sale.refunded) {
        const refundAt = sql`now() - make_interval(days => ${Math.max(0, sale.daysAgo - 2)})`;
        await reverseLedger(tx, { id } as PurchaseRow, `refund:${ref}:${product.amount}`);
        await tx.execute(sql`update ledger_entries set created_at = ${refundAt}
          where purchase_id = ${id} and payment_ref <> ${ref}`);
        await tx.execute(sql`update purchases set status = 'refunded', refunded_at = ${refundAt}
          where id = ${id}`);
      }
    });
  }
  const found = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from purchases where ref_id = ${options.refId}`,
  );
  return found.rows[0]?.n ?? 0;
}

async function vendorOfPurchase(tx: Tx, id: string): Promise<string | null> {
  const found = await tx.execute<{ vendor_id: string }>(
    sql`select vendor_id from purchases where id = ${id}`,
  );
  return found.rows[0]?.vendor_id ?? null;
}
