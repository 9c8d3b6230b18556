import type { Purchase } from '@tradeshelf/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';

export async function rows<T>(db: Tx, query: SQL): Promise<T[]> {
  return (await db.execute(query)).rows as T[];
}

export async function one<T>(db: Tx, query: SQL): Promise<T | null> {
  return (await rows<T>(db, query))[0] ?? null;
}

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
  item_slug: string;
  item_title: string;
  price_id: string;
  vendor_url: string;
  vendor_name: string;
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
  entitlements: Array<{
    kind: Purchase['entitlements'][number]['kind'];
    product_id: string;
    title: string;
    slug: string;
    status: 'active' | 'ended';
    ends_at: string | null;
  }> | null;
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

/** Purchases with their item, vendor and entitlements, in one query; newest first. */
export async function loadPurchases(db: Tx, where: SQL, limit: number): Promise<Purchase[]> {
  const found = await rows<PurchaseView>(
    db,
    sql`select p.id, p.session_id, p.status, p.item_type,
          coalesce(pr.id, b.id) as item_id, coalesce(pr.slug, b.slug) as item_slug,
          coalesce(pr.title, b.title) as item_title, p.price_id,
          v.vendor_url, v.display_name as vendor_name, p.scheme, p.currency, p.subtotal, p.discount,
          p.total, p.renewal_amount, p.coupon_code, p.coupon_duration, p.member_plan, p.member_discount, p.subscription_status,
          p.current_period_end, p.receipt_number, p.created_at, p.paid_at, p.refunded_at,
          p.refund_reason, p.disputed_at,
          (select coalesce(sum(l.amount), 0)::int from ledger_entries l
             where l.purchase_id = p.id and l.account_type = 'clearing'
               and l.entry_type = 'refund_reversal' and l.payment_ref like 'refund:%') as refunded,
          (select coalesce(-sum(l.amount), 0)::int from ledger_entries l
             where l.purchase_id = p.id and l.account_type = 'clearing' and l.entry_type = 'sale') as paid,
          (select json_agg(json_build_object('kind', e.kind, 'product_id', e.product_id, 'title', ep.title,
                  'slug', ep.slug, 'status', e.status, 'ends_at', e.ends_at) order by ep.title, e.kind)
             from entitlements e join products ep on ep.id = e.product_id
             where e.purchase_id = p.id) as entitlements
        from purchases p
        join vendors v on v.id = p.vendor_id
        left join products pr on pr.id = p.product_id
        left join bundles b on b.id = p.bundle_id
        where p.session_id is not null and ${where}
        order by p.created_at desc, p.id desc
        limit ${limit}`,
  );
  return found.map((r) => {
    const money = (amount: number) => ({ amount, currency: r.currency });
    return {
      id: r.id,
      sessionId: r.session_id!,
      status: r.status,
      item: {
        type: r.item_type,
        id: r.item_id,
        slug: r.item_slug,
        title: r.item_title,
        priceId: r.price_id,
        vendor: { vendorUrl: r.vendor_url, displayName: r.vendor_name },
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
      entitlements: (r.entitlements ?? []).map((e) => ({
        kind: e.kind,
        productId: e.product_id,
        productTitle: e.title,
        productSlug: e.slug,
        status: e.status,
        endsAt: iso(e.ends_at),
      })),
      createdAt: iso(r.created_at)!,
      paidAt: iso(r.paid_at),
      refundedAt: iso(r.refunded_at),
      refundReason: r.refund_reason,
      disputedAt: iso(r.disputed_at),
    };
  });
}
