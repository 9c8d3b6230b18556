// Use case: a coupon for a price or bundle, found and previewed (live validation on product pages).
import { ordersMessages, type CouponPreview } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { couponDiscount } from './pricing.ts';
import { one, type CouponRow } from './repository.ts';
import * as catalog from '../catalog/index.ts';
import { type Item, resolveItem, rule } from './checkout.ts';

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
          max_redemptions, redemptions, is_active
        from coupons where vendor_id = ${item.vendor_id} and upper(code) = upper(${code})`,
  );
  const field = (message: string) => rule(message, { coupon: message });
  if (!coupon || !coupon.is_active) throw field(ordersMessages.couponInvalid);
  if (coupon.expires_at && new Date(coupon.expires_at) <= new Date()) {
    throw field(ordersMessages.couponExpired);
  }
  if (coupon.product_id && (item.type !== 'product' || coupon.product_id !== item.id)) {
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
