import type { Membership } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { currentPlan } from '../orders/index.ts';

// The plan a user holds is decided by orders (it prices checkout by it); membership shows it.
export { currentPlan, type CurrentPlan } from '../orders/index.ts';

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
