// Use case: a coupon for a price or bundle, found and previewed (live validation on product pages).
import { ordersMessages, vendorSalesMessages, type CouponPreview } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { couponDiscount } from './pricing.ts';
import { couponScopeIds, one, type CouponRow } from './repository.ts';
import * as catalog from '../catalog/index.ts';
import { type Item, releaseHolds, resolveItem, rule } from './items.ts';

export async function findCoupon(
  deps: AppDeps,
  item: Item,
  code: string,
  db: Tx = deps.database.db,
  /** Checkout leaves the limit to its conditional increment, after releasing stale holds. */
  checkLimit = true,
): Promise<CouponRow> {
  const coupon = await one<CouponRow>(
    db,
    sql`select id, code, type, percent_off, amount_off, currency, product_id, duration, expires_at,
          max_redemptions, redemptions, is_active, starts_at, max_per_buyer, ${couponScopeIds}
        from coupons c where vendor_id = ${item.vendor_id} and upper(code) = upper(${code})`,
  );
  const field = (message: string) => rule(message, { coupon: message });
  if (!coupon || !coupon.is_active) throw field(ordersMessages.couponInvalid);
  if (coupon.starts_at && new Date(coupon.starts_at) > new Date()) {
    throw field(vendorSalesMessages.couponNotStarted);
  }
  if (coupon.expires_at && new Date(coupon.expires_at) <= new Date()) {
    throw field(ordersMessages.couponExpired);
  }
  // A coupon for chosen products applies to those products only (not to bundles).
  if (coupon.scope_ids.length && (item.type !== 'product' || !coupon.scope_ids.includes(item.id))) {
    throw field(ordersMessages.couponNotApplicable);
  }
  if (coupon.type === 'amount' && coupon.currency && coupon.currency !== item.currency) {
    throw field(ordersMessages.couponNotApplicable);
  }
  if (
    checkLimit &&
    coupon.max_redemptions !== null &&
    coupon.redemptions >= coupon.max_redemptions
  ) {
    throw field(ordersMessages.couponExhausted);
  }
  return coupon;
}

export function previewOf(item: Item, coupon: CouponRow): CouponPreview {
  const discount = couponDiscount(item.amount, coupon);
  const money = (amount: number) => ({ amount, currency: item.currency });
  return {
    code: coupon.code,
    type: coupon.type,
    percentOff: coupon.percent_off,
    amountOff: coupon.amount_off,
    duration: coupon.duration,
    subtotal: money(item.amount),
    discount: money(discount),
    total: money(item.amount - discount),
  };
}

/** Checks a coupon for a price or bundle without reserving it (live validation on the product page). */
export async function previewCoupon(
  deps: AppDeps,
  q: { code: string; priceId?: string | undefined; bundleId?: string | undefined },
): Promise<CouponPreview> {
  let item: Item;
  if (q.bundleId) {
    item = await resolveItem(deps, { type: 'bundle', bundleId: q.bundleId });
  } else {
    const vendorUrl = await catalog.vendorUrlOfPrice(deps.database.db, q.priceId!);
    if (!vendorUrl) throw rule(ordersMessages.unknownPlan, { priceId: ordersMessages.unknownPlan });
    item = await resolveItem(deps, {
      type: 'product',
      vendorUrl,
      priceId: q.priceId!,
    });
  }
  return previewOf(item, await findCoupon(deps, item, q.code));
}

/**
 * Takes one redemption of a coupon for a buyer's new checkout, inside its transaction. The coupon's
 * row lock comes first, so every redemption of one coupon queues here and the checks after it (the
 * coupon as it is now, stale holds, the buyer's live checkout and count, the overall limit) read what
 * the previous one committed: the last redemption taken twice at once goes to one buyer, and one
 * buyer's checkouts opened at once make one checkout.
 */
export async function redeemCoupon(
  deps: AppDeps,
  tx: Tx,
  item: Item,
  code: string,
  buyer: { id: string; idempotencyKey: string },
): Promise<CouponRow> {
  const buyerId = buyer.id;
  const seen = await findCoupon(deps, item, code, tx, false);
  await tx.execute(sql`select id from coupons where id = ${seen.id} for update`);
  // Read again under the lock: the vendor may have changed it while this waited.
  const coupon = await findCoupon(deps, item, code, tx, false);
  await releaseHolds(tx, coupon.id, sql`expires_at < now()`);
  const field = (message: string) => rule(message, { coupon: message });
  // A buyer holds at most one live checkout per limited coupon: a second is refused until the first
  // is paid, cancelled or expired. Releasing the first instead left its provider session payable, so
  // checkouts opened at once were all charged and all but one refunded (ADR 042). A checkout with
  // the same Idempotency-Key is this request's own, left to the insert's conflict.
  if (coupon.max_per_buyer !== null || coupon.max_redemptions !== null) {
    const live = await one<{ n: number }>(
      tx,
      sql`select count(*)::int as n from purchases
        where coupon_id = ${coupon.id} and buyer_id = ${buyerId} and status = 'pending'
          and not coupon_released and idempotency_key <> ${buyer.idempotencyKey}`,
    );
    if (live?.n) throw field(ordersMessages.couponHeld);
  }
  const taken = await takeRedemption(tx, coupon.id, buyerId, coupon.max_per_buyer);
  if (taken === 'buyer_limit') throw field(vendorSalesMessages.couponBuyerLimit);
  if (taken === 'exhausted') throw field(ordersMessages.couponExhausted);
  return coupon;
}

/**
 * One redemption of a coupon whose row lock the caller holds, within its per-buyer and overall
 * limits: checkout's reservation and a late payment's retake count the same way.
 */
export async function takeRedemption(
  tx: Tx,
  couponId: string,
  buyerId: string,
  maxPerBuyer: number | null,
): Promise<'taken' | 'buyer_limit' | 'exhausted'> {
  if (maxPerBuyer !== null) {
    const used = await one<{ n: number }>(
      tx,
      sql`select count(*)::int as n from purchases
        where coupon_id = ${couponId} and buyer_id = ${buyerId} and not coupon_released
          and status in ('pending', 'paid', 'refunded')`,
    );
    if ((used?.n ?? 0) >= maxPerBuyer) return 'buyer_limit';
  }
  const reserved = await tx.execute(sql`update coupons set redemptions = redemptions + 1
    where id = ${couponId} and (max_redemptions is null or redemptions < max_redemptions)
    returning id`);
  return reserved.rows.length ? 'taken' : 'exhausted';
}
