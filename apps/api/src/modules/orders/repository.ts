import type { Purchase } from '@tradeshelf/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { entitlementsOfPurchases, type EntitlementView } from '../access/index.ts';
import { itemSummaries } from '../catalog/index.ts';

export async function rows<T>(db: Tx, query: SQL): Promise<T[]> {
  return (await db.execute(query)).rows as T[];
}

export async function one<T>(db: Tx, query: SQL): Promise<T | null> {
  return (await rows<T>(db, query))[0] ?? null;
}

/** The products a coupon (`c`) is limited to, its older single `product_id` included. */
export const couponScopeIds = sql`array(select cp.product_id from coupon_products cp where cp.coupon_id = c.id
      union select c.product_id where c.product_id is not null) as scope_ids`;

export interface CouponRow {
  id: string;
  code: string;
  type: 'percent' | 'amount';
  percent_off: number | null;
  amount_off: number | null;
  currency: string | null;
  product_id: string | null;
  duration: 'once' | 'forever';
  expires_at: string | Date | null;
  max_redemptions: number | null;
  redemptions: number;
  is_active: boolean;
  starts_at: string | Date | null;
  max_per_buyer: number | null;
  /** The products it is limited to (empty: all of the vendor's). */
  scope_ids: string[];
}

export interface PurchaseRow {
  id: string;
  buyer_id: string;
  vendor_id: string;
  status: Purchase['status'];
  item_type: 'product' | 'bundle';
  product_id: string | null;
  bundle_id: string | null;
  scheme: string;
  currency: string;
  total: number;
  renewal_amount: number | null;
  coupon_id: string | null;
  coupon_released: boolean;
  member_discount: number;
  affiliate_user_id: string | null;
  affiliate_bps: number | null;
  trial_days: number | null;
  subscription_id: string | null;
  subscription_status: string | null;
  current_period_end: Date | null;
  disputed_at: Date | null;
}

interface PurchaseView {
  id: string;
  session_id: string | null;
  status: Purchase['status'];
  item_type: 'product' | 'bundle';
  item_id: string;
  vendor_id: string;
  price_id: string;
  scheme: Purchase['scheme'];
  currency: string;
  subtotal: number;
  discount: number;
  total: number;
  refunded: number;
  paid: number;
  renewal_amount: number | null;
  coupon_code: string | null;
  coupon_duration: 'once' | 'forever' | null;
  member_plan: 'premium' | 'pro_plus' | null;
  member_discount: number;
  subscription_status: NonNullable<Purchase['subscription']>['status'] | null;
  current_period_end: Date | string | null;
  receipt_number: string | null;
  created_at: Date | string;
  paid_at: Date | string | null;
  refunded_at: Date | string | null;
  refund_reason: Purchase['refundReason'];
  disputed_at: Date | string | null;
  revoked_at: Date | string | null;
  revoked_reason: string | null;
  buyer_id: string;
}

const iso = (v: Date | string | null): string | null =>
  v === null ? null : new Date(v).toISOString();

/** Charges still to come only while the subscription runs on (not cancelling or ended). */
const charging = new Set(['trialing', 'active', 'past_due']);

function subscriptionOf(r: PurchaseView): NonNullable<Purchase['subscription']> {
  const status = r.subscription_status!;
  const periodEnd = iso(r.current_period_end);
  const renewal = r.renewal_amount ?? r.total;
  // A trial's first charge is the price less any coupon (a first-payment coupon applies to it).
  const next = status === 'trialing' ? r.total : renewal;
  return {
    status,
    currentPeriodEnd: periodEnd,
    renewalAmount: { amount: renewal, currency: r.currency },
    trialEndsAt: status === 'trialing' ? periodEnd : null,
    nextPayment:
      charging.has(status) && periodEnd
        ? { amount: { amount: next, currency: r.currency }, at: periodEnd }
        : null,
  };
}

/**
 * Purchases with their item, vendor and entitlements, newest first: orders' own rows in one query,
 * then the access module's entitlements and the catalogue's names for the whole page (ADR 029).
 */
export async function loadPurchases(db: Tx, where: SQL, limit: number): Promise<Purchase[]> {
  return (await loadWithBuyers(db, where, limit)).map((p) => p.purchase);
}

/** `loadPurchases`, each with its buyer's id (for the vendor's view). */
export async function loadWithBuyers(
  db: Tx,
  where: SQL,
  limit: number,
): Promise<Array<{ purchase: Purchase; buyerId: string }>> {
  const found = await rows<PurchaseView>(
    db,
    sql`select p.id, p.session_id, p.status, p.item_type,
          coalesce(p.product_id, p.bundle_id) as item_id, p.vendor_id, p.price_id,
          p.scheme, p.currency, p.subtotal, p.discount,
          p.total, p.renewal_amount, p.coupon_code, p.coupon_duration, p.member_plan, p.member_discount, p.subscription_status,
          p.current_period_end, p.receipt_number, p.created_at, p.paid_at, p.refunded_at,
          p.refund_reason, p.disputed_at, p.revoked_at, p.revoked_reason, p.buyer_id,
          (select coalesce(sum(l.amount), 0)::int from ledger_entries l
             where l.purchase_id = p.id and l.account_type = 'clearing'
               and l.entry_type = 'refund_reversal' and l.payment_ref like 'refund:%') as refunded,
          (select coalesce(-sum(l.amount), 0)::int from ledger_entries l
             where l.purchase_id = p.id and l.account_type = 'clearing' and l.entry_type = 'sale') as paid
        from purchases p
        where p.session_id is not null and ${where}
        order by p.created_at desc, p.id desc
        limit ${limit}`,
  );
  if (!found.length) return [];
  const granted = await entitlementsOfPurchases(
    db,
    found.map((r) => r.id),
  );
  const items = await itemSummaries(db, [
    ...found.map((r) => ({ type: r.item_type, id: r.item_id })),
    ...granted.map((e) => ({ type: 'product' as const, id: e.productId })),
  ]);
  const byPurchase = new Map<string, EntitlementView[]>();
  for (const e of granted)
    byPurchase.set(e.purchaseId, [...(byPurchase.get(e.purchaseId) ?? []), e]);
  return found.map((r) => {
    const money = (amount: number) => ({ amount, currency: r.currency });
    const item = items.get(`${r.item_type}:${r.item_id}`);
    // A purchase's vendor is its item's: the summary names both in one read.
    const vendor = item?.vendor;
    const entitlements = (byPurchase.get(r.id) ?? [])
      .map((e) => ({ e, product: items.get(`product:${e.productId}`) }))
      .sort(
        (x, y) =>
          (x.product?.title ?? '').localeCompare(y.product?.title ?? '', 'en') ||
          x.e.kind.localeCompare(y.e.kind),
      );
    const purchase: Purchase = {
      id: r.id,
      sessionId: r.session_id!,
      status: r.status,
      item: {
        type: r.item_type,
        id: r.item_id,
        slug: item?.slug ?? '',
        title: item?.title ?? '',
        priceId: r.price_id,
        vendor: { vendorUrl: vendor?.vendorUrl ?? '', displayName: vendor?.displayName ?? '' },
      },
      scheme: r.scheme,
      subtotal: money(r.subtotal),
      discount: money(r.discount),
      total: money(r.total),
      paid: money(r.paid),
      refunded: money(r.refunded),
      coupon:
        r.coupon_code && r.coupon_duration
          ? { code: r.coupon_code, duration: r.coupon_duration }
          : null,
      memberPrice:
        r.member_plan && r.member_discount > 0
          ? { plan: r.member_plan, discount: money(r.member_discount) }
          : null,
      subscription: r.subscription_status ? subscriptionOf(r) : null,
      receiptNumber: r.receipt_number,
      entitlements: entitlements.map(({ e, product }) => ({
        kind: e.kind,
        productId: e.productId,
        productTitle: product?.title ?? '',
        productSlug: product?.slug ?? '',
        status: e.status,
        endsAt: e.endsAt?.toISOString() ?? null,
      })),
      createdAt: iso(r.created_at)!,
      paidAt: iso(r.paid_at),
      refundedAt: iso(r.refunded_at),
      refundReason: r.refund_reason,
      disputedAt: iso(r.disputed_at),
      revoked: r.revoked_at ? { at: iso(r.revoked_at)!, reason: r.revoked_reason ?? '' } : null,
    };
    return { purchase, buyerId: r.buyer_id };
  });
}

// Shared by payment events and refunds (each closes unpaid purchases).
export const closedAt = {
  cancelled: sql`cancelled_at`,
  failed: sql`failed_at`,
  refunded: sql`refunded_at`,
} as const;

/** Closes a purchase that was never paid, giving back the coupon redemption it held. */
export async function closeUnpaid(
  tx: Tx,
  purchase: PurchaseRow,
  status: keyof typeof closedAt,
  at: Date | null = null,
): Promise<void> {
  await tx.execute(sql`update purchases set status = ${status},
      ${closedAt[status]} = ${at ?? sql`now()`},
      coupon_released = coupon_id is not null, updated_at = now()
    where id = ${purchase.id}`);
  if (purchase.coupon_id && !purchase.coupon_released) {
    await tx.execute(
      sql`update coupons set redemptions = greatest(0, redemptions - 1) where id = ${purchase.coupon_id}`,
    );
  }
}
