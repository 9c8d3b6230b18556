import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import type { Interval } from '../../integrations/payments/port.ts';
import { seedSandboxSale } from '../../integrations/payments/stripe-sandbox.ts';
import { insertLedger, reverseLedger, saleLines } from './ledger.ts';
import { splitPayment } from './pricing.ts';
import { one, type PurchaseRow } from './repository.ts';

/** A seeded purchase as its payment's seed reads it. */
type SeededPurchase = PurchaseRow & {
  session_id: string;
  created_at: Date | string;
  paid_at: Date | string | null;
  refunded_at: Date | string | null;
};

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

/** The platform's fee on demo sales: the default `PLATFORM_FEE_BPS` and `PLATFORM_FEE_FIXED`. */
export const DEMO_FEE = { bps: 500, fixed: 30 };

/**
 * Idempotent: a paid demo purchase of a product's default price by a buyer, made `daysAgo` days ago
 * (the demo buyer's course enrolment), with what a real payment leaves: the sandbox's paid session
 * (and subscription, for a recurring price) and the ledger set, so the sale's money shows alike
 * everywhere and a refund goes through the sandbox like any other (issue 27). Returns its id, or
 * null when the product has no price.
 */
export async function seedDemoPurchase(
  db: Db,
  options: { buyerId: string; productId: string; daysAgo: number },
): Promise<string | null> {
  const key = `demo:${options.productId}`;
  const id = `pur_demo_${options.productId}`;
  const at = sql`now() - make_interval(days => ${options.daysAgo})`;
  // A session id like a checkout's: order and sales lists show purchases that went through one.
  await db.execute(sql`insert into purchases (id, session_id, buyer_id, vendor_id, provider, idempotency_key,
      request_hash, status, item_type, product_id, price_id, scheme, currency, subtotal, total,
      renewal_amount, subscription_id, subscription_status, current_period_end,
      expires_at, paid_at, created_at, updated_at)
    select ${id}, ${'cs_demo_' + options.productId}, ${options.buyerId}, p.vendor_id, 'stripe', ${key},
      'demo', 'paid', 'product', p.id, pr.id,
      case when pr.scheme = 'one_time' then 'one_time' else pr.interval end, pr.currency, pr.amount, pr.amount,
      case when pr.scheme = 'one_time' then null else pr.amount end,
      case when pr.scheme = 'one_time' then null else ${'sub_demo_' + options.productId} end,
      case when pr.scheme = 'one_time' then null else 'active' end,
      case when pr.scheme = 'one_time' then null
        else ${at} + case pr.interval when 'week' then interval '7 days' when 'quarter' then interval '3 months'
          when 'year' then interval '1 year' else interval '1 month' end end,
      ${at}, ${at}, ${at}, ${at}
    from products p join prices pr on pr.id = p.default_price_id
    where p.id = ${options.productId}
    on conflict do nothing`);
  const found = await one<SeededPurchase & { title: string }>(
    db,
    sql`select pu.*, p.title from purchases pu join products p on p.id = pu.product_id
      where pu.buyer_id = ${options.buyerId} and pu.idempotency_key = ${key}`,
  );
  if (!found) return null;
  await seedPaymentOf(db, found, found.title, `pi_demo_${options.productId}`);
  return found.id;
}

/**
 * The provider's side and the ledger of a seeded paid purchase, each written once (a database seeded
 * before seeds wrote them gets them now). The ledger set is dated when the purchase was paid.
 */
async function seedPaymentOf(
  db: Db,
  purchase: SeededPurchase,
  itemName: string,
  paymentRef: string,
): Promise<void> {
  const paidAt = new Date(purchase.paid_at ?? purchase.created_at);
  const interval = purchase.scheme === 'one_time' ? null : (purchase.scheme as Interval);
  const buyer = await one<{ email: string }>(
    db,
    sql`select email from users where id = ${purchase.buyer_id}`,
  );
  await seedSandboxSale(db, {
    sessionId: purchase.session_id,
    paymentIntent: paymentRef,
    subscriptionId: purchase.subscription_id,
    purchaseId: purchase.id,
    email: buyer?.email ?? '',
    itemName,
    amount: purchase.total,
    currency: purchase.currency,
    recurring: interval
      ? interval === 'quarter'
        ? { interval: 'month', interval_count: 3 }
        : { interval, interval_count: 1 }
      : null,
    at: paidAt,
    refunded: purchase.refunded_at !== null,
  });
  await db.transaction(async (tx) => {
    const split = splitPayment(
      purchase.total,
      DEMO_FEE,
      purchase.affiliate_user_id ? purchase.affiliate_bps : null,
    );
    await insertLedger(
      tx,
      purchase.id,
      paymentRef,
      saleLines({
        amount: purchase.total,
        currency: purchase.currency,
        clearing: 'stripe',
        vendorId: purchase.vendor_id,
        affiliateUserId: purchase.affiliate_user_id,
        split,
      }),
    );
    // Dated when it was paid; the daily rollup follows the update (migration 0033).
    await tx.execute(sql`update ledger_entries set created_at = ${paidAt}
      where purchase_id = ${purchase.id} and payment_ref = ${paymentRef} and created_at > ${paidAt}`);
  });
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
    title: string;
    price_id: string;
    amount: number;
    currency: string;
  }>(
    sql`select p.id, p.title, pr.id as price_id, pr.amount, pr.currency
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
        select ${id}, ${`cs_demo_ref_${options.refId}_${i}`}, ${buyerId}, p.vendor_id, 'stripe', ${`demo-ref:${options.refId}:${i}`}, 'demo', 'paid', 'product',
          p.id, ${product.price_id}, 'one_time', ${product.currency}, ${product.amount}, ${product.amount},
          ${options.refId}, ${options.affiliateUserId}, ${options.commissionBps}, ${at}, ${at}, ${at}, ${at}
        from products p where p.id = ${product.id}
        on conflict do nothing returning id`);
      if (!inserted.rows.length) return;
      const split = splitPayment(product.amount, options.fee, options.commissionBps);
      const ref = `pi_demo_ref_${options.refId}_${i}`;
      await insertLedger(
        tx,
        id,
        ref,
        saleLines({
          amount: product.amount,
          currency: product.currency,
          clearing: 'stripe',
          vendorId: (await vendorOfPurchase(tx, id))!,
          affiliateUserId: options.affiliateUserId,
          split,
        }),
      );
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
    // The sandbox's side of the payment (also for sales a database seeded before it had).
    const seeded = await one<SeededPurchase>(db, sql`select * from purchases where id = ${id}`);
    if (seeded) await seedPaymentOf(db, seeded, product.title, `pi_demo_ref_${options.refId}_${i}`);
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
