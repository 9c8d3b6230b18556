import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { rows } from './repository.ts';

/** A buyer's live access to a product, with the purchase that grants it. */
export interface ActiveAccess {
  productId: string;
  purchaseId: string;
  vendorUrl: string;
  subscriptionStatus: string | null;
  currentPeriodEnd: Date | null;
  /** Set when access ends at a known time (a subscription cancelled at period end). */
  endsAt: Date | null;
}

/**
 * The buyer's active `access` entitlements to any of `productIds`, newest purchase first. Ended,
 * refunded, disputed and lapsed access is not here: those end the entitlement (or pass `ends_at`).
 */
export async function activeAccessTo(
  deps: AppDeps,
  userId: string,
  productIds: readonly string[],
): Promise<ActiveAccess[]> {
  if (!productIds.length) return [];
  const found = await rows<{
    product_id: string;
    purchase_id: string;
    vendor_url: string;
    subscription_status: string | null;
    current_period_end: Date | string | null;
    ends_at: Date | string | null;
  }>(
    deps.database.db,
    sql`select e.product_id, e.purchase_id, v.vendor_url, p.subscription_status, p.current_period_end,
          e.ends_at
        from entitlements e join purchases p on p.id = e.purchase_id join vendors v on v.id = p.vendor_id
        where e.user_id = ${userId} and e.kind = 'access' and e.status = 'active'
          and (e.ends_at is null or e.ends_at > now())
          and e.product_id = any(${sql.param([...productIds])}::text[])
        order by p.created_at desc, p.id desc`,
  );
  const date = (v: Date | string | null) => (v === null ? null : new Date(v));
  return found.map((r) => ({
    productId: r.product_id,
    purchaseId: r.purchase_id,
    vendorUrl: r.vendor_url,
    subscriptionStatus: r.subscription_status,
    currentPeriodEnd: date(r.current_period_end),
    endsAt: date(r.ends_at),
  }));
}
