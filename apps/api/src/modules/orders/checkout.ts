// Use case: start a hosted checkout (resolve the item, hold a coupon, price for members, idempotent
// per buyer and key, create the provider session). Over ~400 lines: the checkout's steps share one
// transaction's types and reading them in one place is the point.
import { memberDiscountOf, ordersMessages, PLATFORM_VENDOR_URL, plans } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { newId, sha256 } from '../../lib.ts';
import { AppError } from '../../platform/errors.ts';
import { rules } from '../../platform/rate-limit.ts';
import { missingPrerequisites } from '../catalog/index.ts';
import * as users from '../users/index.ts';
import { couponDiscount, splitPayment, subscriptionFeePercent } from './pricing.ts';
import { one, type CouponRow } from './repository.ts';
import { findCoupon, redeemCoupon } from './coupons.ts';
import {
  assertNotOwned,
  resolveItem,
  rule,
  schemeOf,
  type CheckoutInput,
  type Item,
} from './items.ts';
import { currentPlan } from './plans.ts';

/**
 * The affiliate a referral id credits on a vendor's sale, with their commission, or null. The
 * affiliates module answers it (it owns referral links); the wiring hands it in, because affiliates
 * reads orders' ledger and the two must not import each other (issue 28).
 */
export type ReferralLookup = (
  db: Tx,
  refId: string,
  vendorId: string,
  buyerId: string,
) => Promise<{ user_id: string; commission_bps: number } | null>;

export interface CheckoutContext {
  buyerId: string;
  idempotencyKey: string | null;
  origin: string;
  referralFor: ReferralLookup;
}

/**
 * Starts checkout. A pending purchase (holding any coupon redemption) commits first; the provider
 * session is created after, with the purchase id as its idempotency key, so a retry with the same
 * `Idempotency-Key` finds the purchase and gets the same provider session.
 */
export async function startCheckout(
  deps: AppDeps,
  ctx: CheckoutContext,
  input: CheckoutInput,
): Promise<{ url: string; sessionId: string }> {
  const db = deps.database.db;
  const requestHash = sha256(JSON.stringify(input));
  const idempotencyKey = ctx.idempotencyKey ?? newId('idem');

  if (ctx.idempotencyKey) {
    const existing = await existingCheckout(deps, ctx, ctx.idempotencyKey, requestHash, input);
    if (existing) return existing;
  }
  await deps.limiter.consume([{ rule: rules.checkoutUser, key: ctx.buyerId }]);

  const item = await resolveItem(deps, input);
  // A vendor's own purchase would only move money in a circle and inflate "best selling".
  if (item.vendor_user_id === ctx.buyerId) throw rule(ordersMessages.ownItem);
  await assertNotOwned(deps, ctx.buyerId, item);
  if (item.type === 'product') {
    const prereq = await missingPrerequisites(deps, ctx.buyerId, item.id);
    if (!prereq.satisfied) {
      throw rule(
        `${ordersMessages.missingPrerequisite} You need: ${prereq.missing.map((m) => m.title).join(', ')}.`,
      );
    }
  }
  const buyerEmail = await users.emailIn(db, ctx.buyerId);
  if (!buyerEmail) throw new AppError('unauthorized', 'Sign in to continue.');
  if (input.coupon) await findCoupon(deps, item, input.coupon, deps.database.db, false);
  const member = await memberPrice(deps, ctx.buyerId, item, input.coupon);

  // Referrals are best-effort: an unknown, foreign or self-referral id is ignored, never an error.
  const referral = input.refId
    ? await ctx.referralFor(db, input.refId, item.vendor_id, ctx.buyerId)
    : null;

  const purchaseId = newId('pur');
  const recurring = item.scheme === 'recurring';
  const inserted = await db
    .transaction(async (tx) => {
      let coupon: CouponRow | null = null;
      if (input.coupon) {
        coupon = await redeemCoupon(deps, tx, item, input.coupon, {
          id: ctx.buyerId,
          idempotencyKey,
        });
      }
      const discount = coupon ? couponDiscount(item.amount, coupon) : 0;
      // A member price and a coupon never combine, so the member price holds for every payment.
      const memberDiscount = member?.discount ?? 0;
      const total = item.amount - discount - memberDiscount;
      const renewal = recurring
        ? coupon?.duration === 'forever'
          ? total
          : item.amount - memberDiscount
        : null;
      const result = await tx.execute(sql`insert into purchases (id, buyer_id, vendor_id, provider,
        idempotency_key, request_hash, item_type, product_id, bundle_id, price_id, scheme, currency,
        subtotal, discount, total, renewal_amount, coupon_id, coupon_code, coupon_duration,
        ref_id, affiliate_user_id, affiliate_bps, trial_days, member_plan, member_discount, expires_at)
      values (${purchaseId}, ${ctx.buyerId}, ${item.vendor_id}, ${deps.payments.name},
        ${idempotencyKey}, ${requestHash}, ${item.type}, ${item.type === 'product' ? item.id : null},
        ${item.type === 'bundle' ? item.id : null}, ${item.price_id}, ${schemeOf(item)}, ${item.currency},
        ${item.amount}, ${discount}, ${total}, ${renewal}, ${coupon?.id ?? null}, ${coupon?.code ?? null},
        ${coupon?.duration ?? null}, ${referral ? input.refId! : null}, ${referral?.user_id ?? null},
        ${referral?.commission_bps ?? null}, ${recurring ? item.trial_days : null},
        ${member?.plan ?? null}, ${memberDiscount},
        now() + make_interval(mins => ${deps.config.CHECKOUT_EXPIRY_MINUTES}))
      on conflict (buyer_id, idempotency_key) do nothing
      returning id`);
      if (!result.rows.length) throw new RaceLost();
      return { coupon, discount, total, renewal, memberDiscount, memberPlan: member?.plan ?? null };
    })
    .catch((err: unknown) => {
      if (err instanceof RaceLost) return null;
      throw err;
    });
  if (!inserted) {
    // A concurrent request with the same Idempotency-Key committed first: answer with its session.
    const existing = await existingCheckout(deps, ctx, idempotencyKey, requestHash, input);
    if (existing) return existing;
    throw new AppError('conflict', 'This checkout is already being started. Try again.');
  }
  return createProviderSession(deps, ctx, purchaseId, item, buyerEmail, inserted);
}

class RaceLost extends Error {}

export type Plan = keyof typeof plans;

/** A checkout's prices as committed with the pending purchase. */
export interface Priced {
  coupon: CouponRow | null;
  discount: number;
  total: number;
  /** Each renewal (subscriptions), null for one-time. */
  renewal: number | null;
  memberDiscount: number;
  memberPlan: Plan | null;
}

export const feeRule = (deps: AppDeps) => ({
  bps: deps.config.PLATFORM_FEE_BPS,
  fixed: deps.config.PLATFORM_FEE_FIXED,
});

/**
 * The member price (ADR 027), decided here on the server from the buyer's plan now: the plan's
 * percentage of the price, capped at the platform fee that pays for it. Not for the platform's own
 * products, and not combined with a vendor coupon (the coupon replaces it).
 */
export async function memberPrice(
  deps: AppDeps,
  buyerId: string,
  item: Item,
  coupon: string | undefined,
): Promise<{ plan: Plan; discount: number } | null> {
  if (coupon || item.vendor_url.toLowerCase() === PLATFORM_VENDOR_URL) return null;
  const current = await currentPlan(deps, buyerId);
  if (!current) return null;
  const discount = memberDiscountOf(item.amount, current.plan.memberDiscountPercent, feeRule(deps));
  return discount > 0 ? { plan: current.plan.id, discount } : null;
}

/**
 * The checkout an earlier request with this Idempotency-Key started. If that request is still
 * creating its provider session, this one creates it too, under the same provider idempotency key,
 * so both get the one session.
 */
export async function existingCheckout(
  deps: AppDeps,
  ctx: CheckoutContext,
  key: string,
  requestHash: string,
  input: CheckoutInput,
): Promise<{ url: string; sessionId: string } | null> {
  const found = await one<{
    id: string;
    request_hash: string;
    session_id: string | null;
    checkout_url: string | null;
    coupon_id: string | null;
    discount: number;
    total: number;
    renewal_amount: number | null;
    member_plan: Plan | null;
    member_discount: number;
  }>(
    deps.database.db,
    sql`select id, request_hash, session_id, checkout_url, coupon_id, discount, total, renewal_amount,
          member_plan, member_discount from purchases
        where buyer_id = ${ctx.buyerId} and idempotency_key = ${key}`,
  );
  if (!found) return null;
  if (found.request_hash !== requestHash) {
    throw new AppError('conflict', ordersMessages.idempotencyMismatch);
  }
  if (found.session_id && found.checkout_url) {
    return { url: found.checkout_url, sessionId: found.session_id };
  }
  const item = await resolveItem(deps, input);
  const buyerEmail = await users.emailIn(deps.database.db, ctx.buyerId);
  const coupon = found.coupon_id
    ? await one<CouponRow>(
        deps.database.db,
        sql`select * from coupons where id = ${found.coupon_id}`,
      )
    : null;
  return createProviderSession(deps, ctx, found.id, item, buyerEmail ?? '', {
    coupon,
    discount: found.discount,
    total: found.total,
    renewal: found.renewal_amount,
    memberDiscount: found.member_discount,
    memberPlan: found.member_plan,
  });
}

export async function createProviderSession(
  deps: AppDeps,
  ctx: CheckoutContext,
  purchaseId: string,
  item: Item,
  email: string,
  priced: Priced,
): Promise<{ url: string; sessionId: string }> {
  const db = deps.database.db;
  const fee = feeRule(deps);
  // The platform's fee as the ledger records it: on the price before the member discount, less it.
  const feeOn = (charged: number) =>
    charged <= 0
      ? 0
      : splitPayment(charged + priced.memberDiscount, fee, null).platformFee -
        priced.memberDiscount;
  const account = await one<{ account_id: string }>(
    db,
    sql`select account_id from vendor_payment_accounts
        where vendor_id = ${item.vendor_id} and provider = ${deps.payments.name} and charges_enabled`,
  );
  const itemPath = `/${item.type === 'product' ? 'p' : 'b'}/${item.id}/${item.slug}`;
  try {
    const customerId = await ensureCustomer(deps, ctx.buyerId, item.vendor_id, email);
    const session = await deps.payments.createCheckout({
      purchaseId,
      mode: item.scheme === 'recurring' ? 'subscription' : 'payment',
      item: {
        name: item.title,
        amount: item.amount,
        currency: item.currency,
        interval: item.scheme === 'recurring' ? (item.interval ?? 'month') : null,
      },
      discount:
        priced.coupon && priced.discount > 0
          ? {
              amountOff: priced.discount,
              duration: priced.coupon.duration,
              couponId: priced.coupon.id,
            }
          : null,
      trialDays: item.scheme === 'recurring' ? item.trial_days : null,
      buyer: { userId: ctx.buyerId, email, customerId },
      memberDiscount:
        priced.memberPlan && priced.memberDiscount > 0
          ? {
              amountOff: priced.memberDiscount,
              label: `${plans[priced.memberPlan].name} member price`,
            }
          : null,
      connectedAccountId: account?.account_id ?? null,
      applicationFeeAmount: feeOn(priced.total),
      // Stripe applies one percentage to every invoice: the renewals' fee, so the vendor nets what the
      // ledger says (ADR 027).
      applicationFeePercent: subscriptionFeePercent(
        priced.renewal ?? priced.total,
        feeOn(priced.renewal ?? priced.total),
      ),
      successUrl: `${ctx.origin}/orders/status?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${ctx.origin}${itemPath}?checkout=cancelled`,
      idempotencyKey: purchaseId,
    });
    await db.execute(sql`update purchases set session_id = ${session.sessionId},
        checkout_url = ${session.url}, customer_id = ${customerId}, updated_at = now()
      where id = ${purchaseId} and session_id is null`);
    return { url: session.url, sessionId: session.sessionId };
  } catch (err) {
    // Nothing references the purchase yet: remove it and give its coupon redemption back.
    await db.transaction(async (tx) => {
      const removed = await tx.execute(
        sql`delete from purchases where id = ${purchaseId} and session_id is null returning coupon_id`,
      );
      const couponId = (removed.rows[0] as { coupon_id: string | null } | undefined)?.coupon_id;
      if (couponId) {
        await tx.execute(
          sql`update coupons set redemptions = redemptions - 1 where id = ${couponId}`,
        );
      }
    });
    if (err instanceof AppError) throw err;
    throw new AppError(
      'service_unavailable',
      'Payments are unavailable right now. Try again shortly.',
    );
  }
}

export async function ensureCustomer(
  deps: AppDeps,
  userId: string,
  vendorId: string,
  email: string,
): Promise<string> {
  const db = deps.database.db;
  const lookup = sql`select customer_id from payment_customers
    where user_id = ${userId} and provider = ${deps.payments.name} and vendor_id = ${vendorId}`;
  const found = await one<{ customer_id: string }>(db, lookup);
  if (found) return found.customer_id;
  const customerId = await deps.payments.ensureCustomer({
    userId,
    vendorId,
    email,
    customerId: null,
  });
  await db.execute(sql`insert into payment_customers (user_id, provider, vendor_id, customer_id)
    values (${userId}, ${deps.payments.name}, ${vendorId}, ${customerId}) on conflict do nothing`);
  return (await one<{ customer_id: string }>(db, lookup))!.customer_id;
}

/* ---------------------------------------------------------------- webhooks and fulfilment */

export type EventOutcome = 'processed' | 'duplicate' | 'ignored';
