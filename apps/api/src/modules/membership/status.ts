import {
  planIds,
  plans,
  PLATFORM_VENDOR_URL,
  type Membership,
  type Plan,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { productIdsBySlug } from '../catalog/index.ts';
import { activeAccessTo, type ActiveAccess } from '../orders/index.ts';

/** The plans' product ids per app (they never change once found; not cached while missing). */
const planProducts = new WeakMap<AppDeps, Map<string, Plan>>();

async function planByProduct(deps: AppDeps): Promise<Map<string, Plan>> {
  const known = planProducts.get(deps);
  if (known) return known;
  const ids = await productIdsBySlug(
    deps,
    PLATFORM_VENDOR_URL,
    planIds.map((id) => plans[id].slug),
  );
  const byProduct = new Map<string, Plan>();
  for (const id of planIds) {
    const productId = ids.get(plans[id].slug);
    if (productId) byProduct.set(productId, plans[id]);
  }
  if (byProduct.size === planIds.length) planProducts.set(deps, byProduct);
  return byProduct;
}

export interface CurrentPlan {
  plan: Plan;
  access: ActiveAccess;
}

/**
 * The plan a user holds now: live access (an active entitlement from a paid, undisputed, unrefunded
 * purchase whose subscription has not ended) to a plan product. Pro Plus wins over Premium.
 */
export async function currentPlan(deps: AppDeps, userId: string): Promise<CurrentPlan | null> {
  const byProduct = await planByProduct(deps);
  const access = await activeAccessTo(deps, userId, [...byProduct.keys()]);
  let best: CurrentPlan | null = null;
  for (const a of access) {
    const plan = byProduct.get(a.productId)!;
    if (!best || plan.memberDiscountPercent > best.plan.memberDiscountPercent)
      best = { plan, access: a };
  }
  return best;
}

const renewing = new Set(['active', 'trialing', 'past_due']);

/** What the account page shows: the plan, its dates, its grants and the saved searches used. */
export async function membershipOf(deps: AppDeps, userId: string): Promise<Membership | null> {
  const current = await currentPlan(deps, userId);
  if (!current) return null;
  const { plan, access } = current;
  const status = access.subscriptionStatus as Membership['status'];
  const periodEnd = access.currentPeriodEnd?.toISOString() ?? null;
  const counted = await deps.database.db.execute(
    sql`select count(*)::int as n from saved_searches where user_id = ${userId}`,
  );
  return {
    plan: plan.id,
    name: plan.name,
    status,
    renewsAt: status && renewing.has(status) ? periodEnd : null,
    endsAt: access.endsAt?.toISOString() ?? (status === 'cancelling' ? periodEnd : null),
    purchaseId: access.purchaseId,
    vendorUrl: access.vendorUrl,
    grants: {
      memberDiscountPercent: plan.memberDiscountPercent,
      savedSearches: plan.savedSearches,
      alertMailsPerDay: plan.alertMailsPerDay,
      supportReplyHours: plan.supportReplyHours,
    },
    platformFee: { bps: deps.config.PLATFORM_FEE_BPS, fixed: deps.config.PLATFORM_FEE_FIXED },
    savedSearchCount: (counted.rows[0] as { n: number }).n,
  };
}
