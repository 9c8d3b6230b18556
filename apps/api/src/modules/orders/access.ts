import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { liveAccess } from '../access/index.ts';
import { vendorSummaries } from '../catalog/index.ts';
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
 * The buyer's live access to any of `productIds` (the access module's entitlements) with the
 * subscription behind each, newest purchase first.
 */
export async function activeAccessTo(
  deps: AppDeps,
  userId: string,
  productIds: readonly string[],
): Promise<ActiveAccess[]> {
  const db = deps.database.db;
  const live = await liveAccess(db, userId, productIds);
  if (!live.length) return [];
  const purchases = await rows<{
    id: string;
    vendor_id: string;
    subscription_status: string | null;
    current_period_end: Date | string | null;
  }>(
    db,
    sql`select id, vendor_id, subscription_status, current_period_end from purchases
        where id = any(${sql.param(live.map((e) => e.purchaseId))}::text[])
        order by created_at desc, id desc`,
  );
  const vendors = await vendorSummaries(
    db,
    purchases.map((p) => p.vendor_id),
  );
  const rank = new Map(purchases.map((p, i) => [p.id, { p, i }]));
  return live
    .filter((e) => rank.has(e.purchaseId))
    .sort((a, b) => rank.get(a.purchaseId)!.i - rank.get(b.purchaseId)!.i)
    .map((e) => {
      const { p } = rank.get(e.purchaseId)!;
      return {
        productId: e.productId,
        purchaseId: e.purchaseId,
        vendorUrl: vendors.get(p.vendor_id)?.vendorUrl ?? '',
        subscriptionStatus: p.subscription_status,
        currentPeriodEnd: p.current_period_end === null ? null : new Date(p.current_period_end),
        endsAt: e.endsAt,
      };
    });
}
