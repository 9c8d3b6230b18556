import { planIds, plans, PLATFORM_VENDOR_URL, type Plan } from '@tradeshelf/contract';
import type { AppDeps } from '../../deps.ts';
import { productIdsBySlug } from '../catalog/index.ts';
import { activeAccessTo, type ActiveAccess } from './access.ts';

// The plan a buyer holds is live access to a plan product, which orders knows (purchases and their
// subscriptions). It lives here, not in membership, because checkout prices by it (ADR 027) and
// membership reads orders: one direction between the two (issue 28).

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
