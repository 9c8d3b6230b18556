// What checkout sells and the coupon rules share: the request, the resolved item and holds on a
// coupon. Its own file so checkout.ts and coupons.ts need not import each other (issue 28).
import { ordersMessages, type CheckoutScheme } from '@tradeshelf/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../platform/errors.ts';
import * as catalog from '../catalog/index.ts';
import { ownsItem } from '../catalog/index.ts';

export const rule = (message: string, fields?: Record<string, string>) =>
  new AppError('business_rule', message, fields);

/** What a buyer asked to check out. */
export type CheckoutInput =
  | {
      type: 'product';
      vendorUrl: string;
      priceId: string;
      scheme?: CheckoutScheme | undefined;
      coupon?: string | undefined;
      refId?: string | undefined;
    }
  | { type: 'bundle'; bundleId: string; coupon?: string | undefined; refId?: string | undefined };

/** The item resolved from a checkout request: one product plan or one bundle (the catalogue's row). */
export type Item = catalog.CheckoutItemRow;

export const schemeOf = (p: Pick<Item, 'scheme' | 'interval'>): CheckoutScheme =>
  p.scheme === 'one_time' ? 'one_time' : (p.interval ?? 'month');

export async function resolveItem(deps: AppDeps, input: CheckoutInput): Promise<Item> {
  const db = deps.database.db;
  if (input.type === 'bundle') {
    const found = await catalog.bundleForCheckout(db, input.bundleId);
    if (!found) throw new AppError('not_found', 'We could not find that bundle.');
    if (!found.is_active) throw rule(ordersMessages.inactive);
    return found;
  }
  // Every price of the product the priceId belongs to; `scheme` may pick a sibling plan.
  const plans = await catalog.plansForCheckout(db, input.priceId, input.vendorUrl);
  if (!plans.length)
    throw rule(ordersMessages.unknownPlan, { priceId: ordersMessages.unknownPlan });
  const chosen = input.scheme
    ? plans.find((p) => p.price_active && schemeOf(p) === input.scheme)
    : plans.find((p) => p.price_id === input.priceId && p.price_active);
  if (!chosen) throw rule(ordersMessages.unknownPlan, { scheme: ordersMessages.unknownPlan });
  if (!chosen.is_active) throw rule(ordersMessages.inactive);
  return chosen;
}

export async function assertNotOwned(deps: AppDeps, buyerId: string, item: Item): Promise<void> {
  if (await ownsItem(deps.database.db, buyerId, item)) {
    throw new AppError('conflict', ordersMessages.alreadyOwned);
  }
}

/** Cancels the unpaid checkouts of a coupon that `which` selects and gives their redemptions back. */
export async function releaseHolds(tx: Tx, couponId: string, which: SQL): Promise<void> {
  await tx.execute(sql`with released as (
      update purchases set status = 'cancelled', cancelled_at = now(), coupon_released = true, updated_at = now()
      where coupon_id = ${couponId} and status = 'pending' and not coupon_released and ${which}
      returning 1)
    update coupons set redemptions = redemptions - (select count(*) from released)
    where id = ${couponId} and (select count(*) from released) > 0`);
}
