import {
  memberDiscountOf,
  ordersMessages,
  PLATFORM_VENDOR_URL,
  plans,
  type CheckoutScheme,
  type CouponPreview,
  type Purchase,
} from '@tradeshelf/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import type { PaymentEvent } from '../../integrations/payments/port.ts';
import type { PurchaseRef } from '../../events/types.ts';
import { newId, sha256 } from '../../lib.ts';
import { AppError } from '../../platform/errors.ts';
import { rules } from '../../platform/rate-limit.ts';
import { missingPrerequisites, ownsItem } from '../catalog/index.ts';
import { currentPlan } from '../membership/index.ts';
import {
  couponDiscount,
  splitPayment,
  proportionalShare,
  subscriptionFeePercent,
  type LedgerLine,
} from './pricing.ts';
import { loadPurchases, one, rows, type CouponRow, type PurchaseRow } from './repository.ts';

const rule = (message: string, fields?: Record<string, string>) =>
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

interface PriceRow {
  price_id: string;
  amount: number;
  currency: string;
  scheme: 'one_time' | 'recurring';
  interval: 'week' | 'month' | 'quarter' | 'year' | null;
  trial_days: number | null;
  price_active: boolean;
}

/** The item resolved from a checkout request: one product plan or one bundle. */
interface Item extends PriceRow {
  type: 'product' | 'bundle';
  id: string;
  slug: string;
  title: string;
  is_active: boolean;
  vendor_id: string;
  vendor_url: string;
}

const schemeOf = (p: Pick<PriceRow, 'scheme' | 'interval'>): CheckoutScheme =>
  p.scheme === 'one_time' ? 'one_time' : (p.interval ?? 'month');

async function resolveItem(deps: AppDeps, input: CheckoutInput): Promise<Item> {
  const db = deps.database.db;
  if (input.type === 'bundle') {
    const found = await one<Item>(
      db,
      sql`select 'bundle' as type, b.id, b.slug, b.title, b.is_active, v.id as vendor_id, v.vendor_url,
            pr.id as price_id, pr.amount, pr.currency, pr.scheme, pr.interval, pr.trial_days, pr.is_active as price_active
          from bundles b join vendors v on v.id = b.vendor_id join prices pr on pr.id = b.price_id
          where b.id = ${input.bundleId}`,
    );
    if (!found) throw new AppError('not_found', 'We could not find that bundle.');
    if (!found.is_active) throw rule(ordersMessages.inactive);
    return found;
  }
  // Every price of the product the priceId belongs to; `scheme` may pick a sibling plan.
  const plans = await rows<Item>(
    db,
    sql`select 'product' as type, p.id, p.slug, p.title, p.is_active, v.id as vendor_id, v.vendor_url,
          pr.id as price_id, pr.amount, pr.currency, pr.scheme, pr.interval, pr.trial_days, pr.is_active as price_active
        from prices pr join products p on p.id = pr.product_id join vendors v on v.id = p.vendor_id
        where pr.product_id = (select product_id from prices where id = ${input.priceId})
          and lower(v.vendor_url) = lower(${input.vendorUrl})
        order by pr.position`,
  );
  if (!plans.length)
    throw rule(ordersMessages.unknownPlan, { priceId: ordersMessages.unknownPlan });
  const chosen = input.scheme
    ? plans.find((p) => p.price_active && schemeOf(p) === input.scheme)
    : plans.find((p) => p.price_id === input.priceId && p.price_active);
  if (!chosen) throw rule(ordersMessages.unknownPlan, { scheme: ordersMessages.unknownPlan });
  if (!chosen.is_active) throw rule(ordersMessages.inactive);
  return chosen;
}

async function findCoupon(
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

function previewOf(item: Item, coupon: CouponRow): CouponPreview {
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
    const vendor = await one<{ vendor_url: string }>(
      deps.database.db,
      sql`select v.vendor_url from prices pr join products p on p.id = pr.product_id
          join vendors v on v.id = p.vendor_id where pr.id = ${q.priceId!}`,
    );
    if (!vendor) throw rule(ordersMessages.unknownPlan, { priceId: ordersMessages.unknownPlan });
    item = await resolveItem(deps, {
      type: 'product',
      vendorUrl: vendor.vendor_url,
      priceId: q.priceId!,
    });
  }
  return previewOf(item, await findCoupon(deps, item, q.code));
}

async function assertNotOwned(deps: AppDeps, buyerId: string, item: Item): Promise<void> {
  if (await ownsItem(deps.database.db, buyerId, item)) {
    throw new AppError('conflict', ordersMessages.alreadyOwned);
  }
}

/**
 * Cancels the unpaid checkouts of a coupon that `which` selects (expired ones, or a buyer's older one)
 * and gives their redemptions back.
 */
async function releaseHolds(tx: Tx, couponId: string, which: SQL): Promise<void> {
  await tx.execute(sql`with released as (
      update purchases set status = 'cancelled', cancelled_at = now(), coupon_released = true, updated_at = now()
      where coupon_id = ${couponId} and status = 'pending' and not coupon_released and ${which}
      returning 1)
    update coupons set redemptions = redemptions - (select count(*) from released)
    where id = ${couponId} and (select count(*) from released) > 0`);
}

export interface CheckoutContext {
  buyerId: string;
  idempotencyKey: string | null;
  origin: string;
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
  await assertNotOwned(deps, ctx.buyerId, item);
  if (item.type === 'product') {
    const prereq = await missingPrerequisites(deps, ctx.buyerId, item.id);
    if (!prereq.satisfied) {
      throw rule(
        `${ordersMessages.missingPrerequisite} You need: ${prereq.missing.map((m) => m.title).join(', ')}.`,
      );
    }
  }
  const buyer = await one<{ email: string }>(
    db,
    sql`select email from users where id = ${ctx.buyerId}`,
  );
  if (!buyer) throw new AppError('unauthorized', 'Sign in to continue.');
  if (input.coupon) await findCoupon(deps, item, input.coupon, deps.database.db, false);
  const member = await memberPrice(deps, ctx.buyerId, item, input.coupon);

  // Referrals are best-effort: an unknown, foreign or self-referral id is ignored, never an error.
  const referral = input.refId
    ? await one<{ user_id: string; commission_bps: number }>(
        db,
        sql`select user_id, commission_bps from referral_links
            where ref_id = ${input.refId} and vendor_id = ${item.vendor_id} and user_id <> ${ctx.buyerId}`,
      )
    : null;

  const purchaseId = newId('pur');
  const recurring = item.scheme === 'recurring';
  const inserted = await db
    .transaction(async (tx) => {
      let coupon: CouponRow | null = null;
      if (input.coupon) {
        coupon = await findCoupon(deps, item, input.coupon, tx, false);
        await releaseHolds(tx, coupon.id, sql`expires_at < now()`);
        // A buyer holds at most one redemption per coupon: a new checkout releases their older pending one.
        await releaseHolds(tx, coupon.id, sql`buyer_id = ${ctx.buyerId}`);
        // The conditional increment is the concurrency guard: the row lock serialises redemptions.
        const reserved = await tx.execute(sql`update coupons set redemptions = redemptions + 1
          where id = ${coupon.id} and (max_redemptions is null or redemptions < max_redemptions)
          returning id`);
        if (!reserved.rows.length) {
          throw rule(ordersMessages.couponExhausted, { coupon: ordersMessages.couponExhausted });
        }
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
  return createProviderSession(deps, ctx, purchaseId, item, buyer.email, inserted);
}

class RaceLost extends Error {}

type Plan = keyof typeof plans;

/** A checkout's prices as committed with the pending purchase. */
interface Priced {
  coupon: CouponRow | null;
  discount: number;
  total: number;
  /** Each renewal (subscriptions), null for one-time. */
  renewal: number | null;
  memberDiscount: number;
  memberPlan: Plan | null;
}

const feeRule = (deps: AppDeps) => ({
  bps: deps.config.PLATFORM_FEE_BPS,
  fixed: deps.config.PLATFORM_FEE_FIXED,
});

/**
 * The member price (ADR 027), decided here on the server from the buyer's plan now: the plan's
 * percentage of the price, capped at the platform fee that pays for it. Not for the platform's own
 * products, and not combined with a vendor coupon (the coupon replaces it).
 */
async function memberPrice(
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
async function existingCheckout(
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
  const buyer = await one<{ email: string }>(
    deps.database.db,
    sql`select email from users where id = ${ctx.buyerId}`,
  );
  const coupon = found.coupon_id
    ? await one<CouponRow>(
        deps.database.db,
        sql`select * from coupons where id = ${found.coupon_id}`,
      )
    : null;
  return createProviderSession(deps, ctx, found.id, item, buyer?.email ?? '', {
    coupon,
    discount: found.discount,
    total: found.total,
    renewal: found.renewal_amount,
    memberDiscount: found.member_discount,
    memberPlan: found.member_plan,
  });
}

async function createProviderSession(
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

async function ensureCustomer(
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

/**
 * Applies one provider event exactly once. The event id is recorded in the same transaction as its
 * effects: a concurrent duplicate blocks on that row and then sees it, and a failed attempt leaves no
 * record so the provider's retry runs it again. The purchase row lock orders events of one purchase.
 */
export async function applyPaymentEvent(
  deps: AppDeps,
  received: PaymentEvent,
): Promise<EventOutcome> {
  const event = await withKnownPayment(deps, received);
  const mailIds: string[] = [];
  const refunds: string[] = [];
  const outcome = await deps.database.db.transaction(async (tx) => {
    const fresh = await tx.execute(sql`insert into payment_events (id, provider, type, purchase_id)
      values (${event.id}, ${deps.payments.name}, ${event.type}, ${event.purchaseId})
      on conflict (id) do nothing returning id`);
    if (!fresh.rows.length) return 'duplicate' as const;
    const purchaseId = event.purchaseId ?? (await purchaseOfPayment(tx, event.paymentRef));
    if (!purchaseId) {
      // A refund or dispute of a payment we have not recorded yet: refuse, so it is delivered again.
      throw new AppError(
        'conflict',
        'No purchase for this payment yet; deliver this event again later.',
      );
    }
    const purchase = await one<PurchaseRow>(
      tx,
      sql`select * from purchases where id = ${purchaseId} for update`,
    );
    if (!purchase) return 'ignored' as const;
    // Subscription events can overtake the completed checkout. Refusing them (nothing recorded) makes
    // the provider deliver them again later, after the purchase is paid.
    if (event.type.startsWith('subscription.') && purchase.status === 'pending') {
      throw new AppError(
        'conflict',
        'The purchase is not fulfilled yet; deliver this event again later.',
      );
    }
    switch (event.type) {
      case 'checkout.completed':
        await completeCheckout(deps, tx, purchase, event, mailIds, refunds);
        break;
      case 'checkout.expired':
        if (purchase.status === 'pending') await closeUnpaid(tx, purchase, 'cancelled');
        break;
      case 'payment.failed':
        if (purchase.status === 'pending') await closeUnpaid(tx, purchase, 'failed');
        else if (purchase.status === 'paid' && purchase.subscription_id) {
          await tx.execute(sql`update purchases set subscription_status = 'past_due', updated_at = now()
            where id = ${purchase.id} and subscription_status in ('active', 'trialing')`);
        }
        break;
      case 'subscription.renewed':
        if (purchase.status === 'paid' && purchase.subscription_status !== 'ended') {
          const amount = event.amount ?? purchase.renewal_amount ?? purchase.total;
          await writeSale(deps, tx, purchase, event.paymentRef ?? event.id, amount);
          await tx.execute(sql`update purchases set subscription_status =
              case when subscription_status = 'cancelling' then 'cancelling' else 'active' end,
              current_period_end = coalesce(${event.periodEnd}, current_period_end), updated_at = now()
            where id = ${purchase.id}`);
        }
        break;
      case 'subscription.updated':
        await updateSubscription(tx, purchase, event);
        break;
      case 'subscription.ended':
        await endAccess(deps, tx, purchase, { reason: 'subscription_ended' });
        await tx.execute(sql`update purchases set subscription_status = 'ended', updated_at = now()
          where id = ${purchase.id}`);
        break;
      case 'refund':
        await refund(deps, tx, purchase, event);
        break;
      case 'dispute':
        await tx.execute(sql`update purchases set disputed_at = coalesce(disputed_at, now()), updated_at = now()
          where id = ${purchase.id}`);
        await reverseLedger(tx, purchase, `dispute:${event.paymentRef ?? event.id}`);
        await endAccess(deps, tx, purchase, { reason: 'disputed' });
        break;
    }
    return 'processed' as const;
  });
  await deps.mailer.dispatch(mailIds);
  if (outcome === 'processed') await deps.events.notify();
  // Best effort now; the retry job carries on from the recorded row if the provider is down.
  if (refunds.length) await processAutoRefunds(deps, refunds);
  return outcome;
}

/**
 * A refund or dispute that names a payment we recorded under another reference (a Stripe payment intent
 * of a subscription invoice) is rewritten to that reference. Asked before the transaction: it may call
 * the provider.
 */
async function withKnownPayment(deps: AppDeps, event: PaymentEvent): Promise<PaymentEvent> {
  if (event.purchaseId || !event.paymentRef) return event;
  if (event.type !== 'refund' && event.type !== 'dispute') return event;
  const db = deps.database.db;
  if (await purchaseOfPayment(db, event.paymentRef)) return event;
  for (const alias of await deps.payments.paymentAliases(event.paymentRef)) {
    if (await purchaseOfPayment(db, alias)) return { ...event, paymentRef: alias };
  }
  return event;
}

async function purchaseOfPayment(tx: Tx, paymentRef: string | null): Promise<string | null> {
  if (!paymentRef) return null;
  const found = await one<{ purchase_id: string }>(
    tx,
    sql`select purchase_id from ledger_entries where payment_ref = ${paymentRef} and entry_type = 'sale' limit 1`,
  );
  return found?.purchase_id ?? null;
}

const closedAt = {
  cancelled: sql`cancelled_at`,
  failed: sql`failed_at`,
  refunded: sql`refunded_at`,
} as const;

/** Closes a purchase that was never paid, giving back the coupon redemption it held. */
async function closeUnpaid(
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

const entitlementKind: Record<string, string> = {
  course: 'course_enrolment',
  app: 'licence',
  community: 'discord_role',
};

async function completeCheckout(
  deps: AppDeps,
  tx: Tx,
  purchase: PurchaseRow,
  event: PaymentEvent,
  mailIds: string[],
  refunds: string[],
): Promise<void> {
  if (purchase.status === 'paid') return;
  // A refund that arrived first wins: the purchase stays refunded and grants nothing.
  if (purchase.status === 'refunded') {
    await tx.execute(sql`update purchases set paid_at = coalesce(paid_at, ${event.occurredAt}), updated_at = now()
      where id = ${purchase.id}`);
    return;
  }
  if (purchase.coupon_released && purchase.coupon_id) {
    // Paid after we had released its coupon (an expiry raced the payment): take the redemption back.
    await tx.execute(
      sql`update coupons set redemptions = redemptions + 1 where id = ${purchase.coupon_id}`,
    );
  }
  // One buyer's payments are fulfilled one at a time, so two checkouts paid at once (two tabs) see
  // each other: the second finds the item owned instead of granting it twice.
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`fulfil:${purchase.buyer_id}`}, 0))`,
  );
  const item =
    purchase.item_type === 'product'
      ? { type: 'product' as const, id: purchase.product_id! }
      : { type: 'bundle' as const, id: purchase.bundle_id! };
  const duplicate = await ownsItem(tx, purchase.buyer_id, item);

  const subscription = purchase.scheme !== 'one_time';
  const trial = subscription && (purchase.trial_days ?? 0) > 0;
  await tx.execute(sql`update purchases set status = 'paid', paid_at = ${event.occurredAt},
      coupon_released = false,
      receipt_number = 'TS-' || to_char(now(), 'YYYY') || '-' || lpad(nextval('receipt_number_seq')::text, 6, '0'),
      subscription_id = ${event.subscriptionId}, customer_id = coalesce(${event.customerId}, customer_id),
      subscription_status = ${subscription ? (trial ? 'trialing' : 'active') : null},
      current_period_end = ${subscription ? event.periodEnd : null}, updated_at = now()
    where id = ${purchase.id}`);
  // A trial charges nothing now; the first renewal writes the first sale.
  const charged = event.amount ?? (trial ? 0 : purchase.total);
  const paymentRef = event.paymentRef ?? event.id;
  if (charged > 0) await writeSale(deps, tx, purchase, paymentRef, charged);

  if (duplicate) {
    await refundDuplicate(deps, tx, purchase, charged > 0 ? paymentRef : null, event, mailIds);
    refunds.push(purchase.id);
    return;
  }
  if (purchase.disputed_at) {
    // The dispute overtook the payment: the money is contested from the start, so nothing is granted
    // and the sale is reversed as a dispute would have reversed it.
    await reverseLedger(tx, purchase, `dispute:${paymentRef}`);
    return;
  }

  const granted = await rows<{ id: string; kind: string }>(
    tx,
    purchase.item_type === 'product'
      ? sql`select id, kind from products where id = ${purchase.product_id}`
      : sql`select p.id, p.kind from bundle_items bi join products p on p.id = bi.product_id
            where bi.bundle_id = ${purchase.bundle_id} order by p.title`,
  );
  const grants = granted.flatMap((product) =>
    ['access', ...(entitlementKind[product.kind] ? [entitlementKind[product.kind]!] : [])].map(
      (kind) =>
        sql`(${newId('ent')}, ${purchase.id}, ${purchase.buyer_id}, ${product.id}, ${kind})`,
    ),
  );
  if (grants.length)
    await tx.execute(sql`insert into entitlements (id, purchase_id, user_id, product_id, kind)
      values ${sql.join(grants, sql`, `)}
      on conflict do nothing`);
  // What the buyer owns and the sales count are the catalogue's, kept from this event (ADR 028).
  await deps.events.publish(tx, 'purchase.paid', purchase.id, {
    ...(await purchaseRef(tx, purchase)),
    trial,
  });

  const [full] = await loadPurchases(tx, sql`p.id = ${purchase.id}`, 1);
  const buyer = await one<{ email: string }>(
    tx,
    sql`select email from users where id = ${purchase.buyer_id}`,
  );
  if (full && buyer) mailIds.push(await deps.mailer.enqueue(tx, receiptMail(buyer.email, full)));
}

/**
 * A payment for something the buyer already owned: reversed in the ledger at once, recorded for the
 * provider refund (and the subscription's end) that `processAutoRefunds` carries out, and explained to
 * the buyer. Nothing is granted.
 */
async function refundDuplicate(
  deps: AppDeps,
  tx: Tx,
  purchase: PurchaseRow,
  paymentRef: string | null,
  event: PaymentEvent,
  mailIds: string[],
): Promise<void> {
  if (paymentRef) await reverseLedger(tx, purchase, `refund:${paymentRef}:duplicate`);
  await tx.execute(sql`update purchases set status = 'refunded', refunded_at = now(),
      refund_reason = 'duplicate',
      subscription_status = case when subscription_status is null then null else 'ended' end,
      updated_at = now()
    where id = ${purchase.id}`);
  await tx.execute(sql`insert into auto_refunds (purchase_id, reason, payment_ref, subscription_id)
    values (${purchase.id}, 'duplicate', ${paymentRef}, ${event.subscriptionId})
    on conflict do nothing`);
  const [full] = await loadPurchases(tx, sql`p.id = ${purchase.id}`, 1);
  const buyer = await one<{ email: string }>(
    tx,
    sql`select email from users where id = ${purchase.buyer_id}`,
  );
  if (full && buyer) mailIds.push(await deps.mailer.enqueue(tx, duplicateMail(buyer.email, full)));
}

/** Attempts between retries of a provider refund: 1, 2, 4 … minutes, at most six hours. */
const refundBackoffMinutes = (attempts: number) => Math.min(360, 2 ** Math.max(0, attempts - 1));

/**
 * Carries out owed refunds at the provider: each claimed for a while so two runs do not overlap,
 * retried with backoff on failure. The provider's idempotency keys make a repeat refund nothing.
 * `only` limits the run to some purchases (right after the payment); the job passes none.
 */
export async function processAutoRefunds(deps: AppDeps, only?: string[]): Promise<number> {
  const db = deps.database.db;
  const claimed = await rows<{
    purchase_id: string;
    payment_ref: string | null;
    subscription_id: string | null;
    attempts: number;
  }>(
    db,
    sql`update auto_refunds set attempts = attempts + 1, next_attempt_at = now() + interval '5 minutes'
      where purchase_id in (select purchase_id from auto_refunds
        where status = 'pending' and next_attempt_at <= now()
          ${
            only
              ? sql`and purchase_id in (${sql.join(
                  only.map((id) => sql`${id}`),
                  sql`, `,
                )})`
              : sql``
          }
        order by created_at limit 50 for update skip locked)
      returning purchase_id, payment_ref, subscription_id, attempts`,
  );
  let done = 0;
  for (const r of claimed) {
    try {
      if (r.subscription_id) {
        await deps.payments.cancelSubscription({
          subscriptionId: r.subscription_id,
          idempotencyKey: `dup-cancel:${r.purchase_id}`,
        });
      }
      if (r.payment_ref) {
        await deps.payments.refund({
          paymentRef: r.payment_ref,
          purchaseId: r.purchase_id,
          reason: 'duplicate',
          idempotencyKey: `dup-refund:${r.purchase_id}`,
        });
      }
      await db.execute(sql`update auto_refunds set status = 'done', done_at = now(), last_error = null
        where purchase_id = ${r.purchase_id}`);
      done++;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await db.execute(sql`update auto_refunds set last_error = ${message.slice(0, 500)},
          next_attempt_at = now() + make_interval(mins => ${refundBackoffMinutes(r.attempts)})
        where purchase_id = ${r.purchase_id}`);
    }
  }
  return done;
}

/** One payment's ledger set: the clearing account pays out fee, vendor share and commission. */
async function writeSale(
  deps: AppDeps,
  tx: Tx,
  purchase: PurchaseRow,
  paymentRef: string,
  amount: number,
): Promise<void> {
  // A member-priced payment splits as the full price would, and the platform's fee pays the member
  // discount, so vendor and affiliate get what a non-member's payment gives them. An amount we did
  // not price (not the member price) splits as charged.
  const member =
    purchase.member_discount > 0 &&
    (amount === purchase.total || amount === purchase.renewal_amount)
      ? purchase.member_discount
      : 0;
  const full = splitPayment(
    amount + member,
    feeRule(deps),
    purchase.affiliate_user_id ? purchase.affiliate_bps : null,
  );
  const split = { ...full, platformFee: full.platformFee - member };
  const line = (entry_type: string, account_type: string, account_id: string, value: number) => ({
    entry_type,
    account_type,
    account_id,
    amount: value,
    currency: purchase.currency,
  });
  await insertLedger(tx, purchase.id, paymentRef, [
    line('sale', 'clearing', deps.payments.name, -amount),
    line('platform_fee', 'platform', 'platform', split.platformFee),
    line('vendor_share', 'vendor', purchase.vendor_id, split.vendorShare),
    ...(purchase.affiliate_user_id && split.affiliateCommission > 0
      ? [
          line(
            'affiliate_commission',
            'affiliate',
            purchase.affiliate_user_id,
            split.affiliateCommission,
          ),
        ]
      : []),
  ]);
}

/**
 * Writes one set of ledger lines under a payment reference, in one statement. A set is written once:
 * the unique (purchase, reference, entry type, account type) key makes a repeat change nothing.
 */
async function insertLedger(
  tx: Tx,
  purchaseId: string,
  paymentRef: string,
  lines: Array<LedgerLine & { entry_type: string }>,
): Promise<void> {
  if (!lines.length) return;
  const values = lines.map(
    (l) => sql`(${newId('led')}, ${purchaseId}, ${paymentRef}, ${l.entry_type}, ${l.account_type},
      ${l.account_id}, ${l.amount}, ${l.currency})`,
  );
  await tx.execute(sql`insert into ledger_entries (id, purchase_id, payment_ref, entry_type, account_type,
      account_id, amount, currency)
    values ${sql.join(values, sql`, `)}
    on conflict do nothing`);
}

/**
 * Reverses what is left on the purchase's entries (or on those `scope` picks out), as one set under
 * `ref`: every account's remaining balance back to zero.
 */
async function reverseLedger(
  tx: Tx,
  purchase: PurchaseRow,
  ref: string,
  scope: SQL = sql`true`,
): Promise<void> {
  await tx.execute(sql`insert into ledger_entries (id, purchase_id, payment_ref, entry_type, account_type,
      account_id, amount, currency)
    select 'led_' || md5(${ref} || account_type || account_id), ${purchase.id}, ${ref}, 'refund_reversal',
      account_type, min(account_id), -sum(amount), min(currency)
    from ledger_entries where purchase_id = ${purchase.id} and ${scope}
    group by account_type, account_id having sum(amount) <> 0
    on conflict do nothing`);
}

/** Why access ends, and what the event says: a full refund names the amount that went back. */
type Ending =
  | { reason: 'refunded'; amount: number }
  | { reason: 'disputed' }
  | { reason: 'subscription_ended' };

async function endAccess(deps: AppDeps, tx: Tx, purchase: PurchaseRow, ending: Ending) {
  await tx.execute(sql`update entitlements set status = 'ended', ends_at = least(coalesce(ends_at, now()), now()),
      ended_reason = ${ending.reason}
    where purchase_id = ${purchase.id} and status = 'active'`);
  const ref = await purchaseRef(tx, purchase);
  if (ending.reason === 'refunded')
    await deps.events.publish(tx, 'purchase.refunded', purchase.id, {
      ...ref,
      amount: { amount: ending.amount, currency: purchase.currency },
      full: true,
    });
  else if (ending.reason === 'disputed')
    await deps.events.publish(tx, 'purchase.disputed', purchase.id, ref);
  else await deps.events.publish(tx, 'subscription.ended', purchase.id, ref);
}

/** The event payload naming a purchase and the products it gives (or gave) access to. */
async function purchaseRef(tx: Tx, purchase: PurchaseRow): Promise<PurchaseRef> {
  const granted = await rows<{ product_id: string }>(
    tx,
    sql`select product_id from entitlements
        where purchase_id = ${purchase.id} and kind = 'access' order by product_id`,
  );
  return {
    purchaseId: purchase.id,
    buyerId: purchase.buyer_id,
    vendorId: purchase.vendor_id,
    item:
      purchase.item_type === 'product'
        ? { type: 'product', id: purchase.product_id! }
        : { type: 'bundle', id: purchase.bundle_id! },
    productIds: granted.map((g) => g.product_id),
  };
}

/**
 * A refund of one payment. `event.amount` is the payment's refunded total so far, as providers report
 * it (Stripe's `amount_refunded`); null means all of it. A partial refund reverses that share of the
 * payment's ledger set and keeps access; refunding the whole payment ends access at once. Totals that
 * do not grow (a repeat, or an older event arriving late) change nothing.
 */
async function refund(
  deps: AppDeps,
  tx: Tx,
  purchase: PurchaseRow,
  event: PaymentEvent,
): Promise<void> {
  if (purchase.status === 'refunded') return;
  if (purchase.status !== 'paid') {
    // Before payment (the refund overtook the completed event): nothing to reverse; the purchase
    // stays refunded and the completed event, when it comes, grants nothing.
    await closeUnpaid(tx, purchase, 'refunded', event.occurredAt);
    return;
  }
  const ref = event.paymentRef;
  const payment = ref ? await paymentSet(tx, purchase.id, ref) : [];
  const charged = -(payment.find((e) => e.account_type === 'clearing')?.amount ?? 0);
  if (!ref || charged <= 0) {
    // A payment the ledger does not know (a trial's, or one without a reference): all of it.
    await reverseLedger(tx, purchase, `refund:${ref ?? event.id}`);
    await endRefunded(deps, tx, purchase, event, event.amount ?? 0);
    return;
  }
  const total = Math.min(event.amount ?? charged, charged);
  const before = await refundedOf(tx, purchase.id, ref);
  if (total <= before) return;
  const step = `refund:${ref}:${total}`;
  if (total < charged) {
    const share = proportionalShare(payment, total - before, charged);
    await insertLedger(
      tx,
      purchase.id,
      step,
      share.map((l) => ({ ...l, entry_type: 'refund_reversal' })),
    );
    await tx.execute(sql`update purchases set updated_at = now() where id = ${purchase.id}`);
    return;
  }
  // The rest of this payment, exactly: earlier partial steps may have rounded.
  await reverseLedger(
    tx,
    purchase,
    step,
    sql`(payment_ref = ${ref} or payment_ref like ${`refund:${ref}:%`})`,
  );
  await endRefunded(deps, tx, purchase, event, total);
}

async function endRefunded(
  deps: AppDeps,
  tx: Tx,
  purchase: PurchaseRow,
  event: PaymentEvent,
  amount: number,
): Promise<void> {
  await tx.execute(sql`update purchases set status = 'refunded', refunded_at = ${event.occurredAt},
      subscription_status = case when subscription_status is null then null else 'ended' end,
      updated_at = now()
    where id = ${purchase.id}`);
  await endAccess(deps, tx, purchase, { reason: 'refunded', amount });
}

/** The ledger set one payment wrote (its sale and the shares paid out of it). */
async function paymentSet(tx: Tx, purchaseId: string, ref: string): Promise<LedgerLine[]> {
  return rows<LedgerLine>(
    tx,
    sql`select account_type, account_id, amount, currency from ledger_entries
        where purchase_id = ${purchaseId} and payment_ref = ${ref}`,
  );
}

/** How much of one payment has been refunded so far (what the clearing account got back). */
async function refundedOf(tx: Tx, purchaseId: string, ref: string): Promise<number> {
  const found = await one<{ n: number }>(
    tx,
    sql`select coalesce(sum(amount), 0)::int as n from ledger_entries
        where purchase_id = ${purchaseId} and account_type = 'clearing'
          and payment_ref like ${`refund:${ref}:%`}`,
  );
  return found?.n ?? 0;
}

async function updateSubscription(
  tx: Tx,
  purchase: PurchaseRow,
  event: PaymentEvent,
): Promise<void> {
  if (purchase.status !== 'paid' || purchase.subscription_status === 'ended') return;
  const cancelling = event.cancelAtPeriodEnd === true;
  const periodEnd = event.periodEnd ?? purchase.current_period_end;
  await tx.execute(sql`update purchases set
      subscription_status = ${cancelling ? 'cancelling' : 'active'},
      current_period_end = ${periodEnd}, updated_at = now()
    where id = ${purchase.id}`);
  // Cancellation keeps access to the end of the paid period; resuming clears the end date.
  await tx.execute(sql`update entitlements set ends_at = ${cancelling ? periodEnd : null}
    where purchase_id = ${purchase.id} and status = 'active'`);
}

const mailMoney = (m: { amount: number; currency: string }) =>
  `${(m.amount / 100).toFixed(2)} ${m.currency.toUpperCase()}`;
const mailDate = (iso: string) => iso.slice(0, 10);

function receiptMail(to: string, p: Purchase) {
  const sub = p.subscription;
  const trialing = sub?.status === 'trialing';
  const lines = [
    `Thank you for your purchase from ${p.item.vendor.displayName}.`,
    '',
    `Receipt: ${p.receiptNumber}`,
    `Item: ${p.item.title}${sub ? ` (${p.scheme} plan)` : ''}`,
    `Price: ${mailMoney(p.subtotal)}`,
    ...(p.discount.amount > 0
      ? [
          `Discount (${p.coupon?.code}${p.coupon?.duration === 'once' && sub ? ', first payment' : ''}): -${mailMoney(p.discount)}`,
        ]
      : []),
    ...(p.memberPrice
      ? [
          `${plans[p.memberPrice.plan].name} member price${sub ? ' (every payment)' : ''}: -${mailMoney(p.memberPrice.discount)}`,
        ]
      : []),
    // What moved today: a trial charges nothing until it ends.
    `Paid today: ${mailMoney(p.paid)}`,
    ...(trialing && sub.trialEndsAt ? [`Free trial until ${mailDate(sub.trialEndsAt)}.`] : []),
    ...(sub?.nextPayment
      ? [
          `Next payment: ${mailMoney(sub.nextPayment.amount)} on ${mailDate(sub.nextPayment.at)}, then ${mailMoney(sub.renewalAmount)} every ${p.scheme}. Cancel any time before then from your orders page.`,
        ]
      : []),
    '',
    'What you now have:',
    ...p.entitlements.map((e) => `- ${e.productTitle}: ${e.kind.replace('_', ' ')}`),
  ];
  return {
    to,
    subject: trialing
      ? `Your free trial of ${p.item.title} has started (${p.receiptNumber})`
      : `Your Tradeshelf receipt ${p.receiptNumber}`,
    text: lines.join('\n'),
  };
}

function duplicateMail(to: string, p: Purchase) {
  const money = mailMoney;
  const lines = [
    `You already owned ${p.item.title} from ${p.item.vendor.displayName} when a second payment for it arrived`,
    '(two checkouts paid at the same time, for example in two browser tabs).',
    '',
    p.refunded.amount > 0
      ? `We refunded that payment in full: ${money(p.refunded)}. Your bank usually shows it within 5 to 10 days.`
      : 'Nothing was charged for it, and we cancelled the extra subscription.',
    'Your access is unchanged.',
    '',
    `Reference: ${p.receiptNumber ?? p.id}`,
  ];
  return { to, subject: `Duplicate payment refunded: ${p.item.title}`, text: lines.join('\n') };
}

/* ---------------------------------------------------------------- buyer reads */

/** One of the buyer's own purchases, by checkout session or by id; 404 for anyone else's. */
export async function ownPurchase(
  deps: AppDeps,
  buyerId: string,
  by: { sessionId: string } | { id: string },
): Promise<Purchase> {
  const match = 'sessionId' in by ? sql`p.session_id = ${by.sessionId}` : sql`p.id = ${by.id}`;
  const [found] = await loadPurchases(
    deps.database.db,
    sql`${match} and p.buyer_id = ${buyerId}`,
    1,
  );
  if (!found) throw new AppError('not_found', ordersMessages.purchaseNotFound);
  return found;
}

const encodeCursor = (p: Purchase) =>
  Buffer.from(JSON.stringify([p.createdAt, p.id])).toString('base64url');

/** Newest first; abandoned checkouts (pending past expiry, cancelled) are left out of the list. */
export async function purchaseList(
  deps: AppDeps,
  buyerId: string,
  limit: number,
  cursor: string | undefined,
): Promise<{ purchases: Purchase[]; nextCursor: string | null }> {
  let after = sql`true`;
  if (cursor) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    } catch {
      parsed = null;
    }
    if (
      !Array.isArray(parsed) ||
      typeof parsed[0] !== 'string' ||
      typeof parsed[1] !== 'string' ||
      Number.isNaN(Date.parse(parsed[0]))
    ) {
      throw new AppError('bad_request', 'That page link has expired. Reload the list.');
    }
    after = sql`(p.created_at, p.id) < (${parsed[0]}::timestamptz, ${parsed[1]})`;
  }
  const found = await loadPurchases(
    deps.database.db,
    sql`p.buyer_id = ${buyerId} and p.status <> 'cancelled'
      and not (p.status = 'pending' and p.expires_at < now()) and ${after}`,
    limit + 1,
  );
  const page = found.slice(0, limit);
  return {
    purchases: page,
    nextCursor: found.length > limit ? encodeCursor(page[page.length - 1]!) : null,
  };
}

export async function customerPortal(
  deps: AppDeps,
  buyerId: string,
  vendorUrl: string,
  origin: string,
): Promise<{ url: string }> {
  const found = await one<{ customer_id: string }>(
    deps.database.db,
    sql`select p.customer_id from purchases p join vendors v on v.id = p.vendor_id
        where p.buyer_id = ${buyerId} and lower(v.vendor_url) = lower(${vendorUrl})
          and p.subscription_id is not null and p.customer_id is not null
        order by p.created_at desc limit 1`,
  );
  if (!found) throw rule(ordersMessages.noSubscriptions);
  return deps.payments.createPortal({
    customerId: found.customer_id,
    returnUrl: `${origin}/orders`,
  });
}

/* ---------------------------------------------------------------- vendor payout accounts */

async function vendorOf(deps: AppDeps, userId: string) {
  const vendor = await one<{ id: string; email: string; account_id: string | null }>(
    deps.database.db,
    sql`select v.id, u.email, a.account_id from vendors v join users u on u.id = v.user_id
        left join vendor_payment_accounts a on a.vendor_id = v.id and a.provider = ${deps.payments.name}
        where v.user_id = ${userId}`,
  );
  if (!vendor) throw new AppError('forbidden', ordersMessages.vendorsOnly);
  return vendor;
}

/** The vendor's onboarding link at the provider; creates the connected account the first time. */
export async function connectAccount(
  deps: AppDeps,
  userId: string,
  origin: string,
): Promise<{ url: string }> {
  const vendor = await vendorOf(deps, userId);
  const { accountId, url } = await deps.payments.createConnectOnboarding({
    accountId: vendor.account_id,
    email: vendor.email,
    refreshUrl: `${origin}/account?payouts=refresh`,
    returnUrl: `${origin}/account?payouts=connected`,
  });
  await deps.database.db
    .execute(sql`insert into vendor_payment_accounts (vendor_id, provider, account_id)
    values (${vendor.id}, ${deps.payments.name}, ${accountId}) on conflict do nothing`);
  return { url };
}

/** Reads the account's state back from the provider; checkout routes money to it once enabled. */
export async function connectAccountCallback(
  deps: AppDeps,
  userId: string,
): Promise<{ message: string; chargesEnabled: boolean }> {
  const vendor = await vendorOf(deps, userId);
  if (!vendor.account_id) throw rule(ordersMessages.connectNotStarted);
  const status = await deps.payments.connectAccountStatus(vendor.account_id);
  await deps.database.db
    .execute(sql`update vendor_payment_accounts set charges_enabled = ${status.chargesEnabled}
    where vendor_id = ${vendor.id} and provider = ${deps.payments.name}`);
  return {
    message: status.chargesEnabled ? ordersMessages.connectReady : ordersMessages.connectPending,
    chargesEnabled: status.chargesEnabled,
  };
}

/** The expiry job: unpaid checkouts past their expiry are cancelled and give their coupon holds back. */
export async function expireCheckouts(db: Tx): Promise<number> {
  const res = await db.execute(sql`with expired as (
      update purchases set status = 'cancelled', cancelled_at = now(),
        coupon_released = coupon_id is not null, updated_at = now()
      where status = 'pending' and expires_at < now() and not coupon_released
      returning coupon_id),
    released as (
      update coupons c set redemptions = greatest(0, c.redemptions - x.n)
      from (select coupon_id, count(*)::int as n from expired where coupon_id is not null group by coupon_id) x
      where c.id = x.coupon_id returning 1)
    select (select count(*) from expired)::int as n, (select count(*) from released)::int as coupons`);
  return (res.rows[0] as { n: number }).n;
}

/** How long past a cancelled subscription's period end the provider's own "ended" event gets first. */
export const LAPSE_GRACE_HOURS = 24;

/**
 * Ends access for subscriptions cancelled at period end whose period ended more than a grace period ago
 * without the provider's `subscription.ended` event (lost, or never sent): the local clock behind the
 * provider's. Returns how many purchases it ended.
 */
export async function endLapsedSubscriptions(deps: AppDeps): Promise<number> {
  const ended = await deps.database.db.transaction(async (tx) => {
    const lapsed = await rows<PurchaseRow>(
      tx,
      sql`select * from purchases
          where status = 'paid' and subscription_status = 'cancelling'
            and current_period_end < now() - make_interval(hours => ${LAPSE_GRACE_HOURS})
          order by id
          for update skip locked`,
    );
    for (const purchase of lapsed) {
      await endAccess(deps, tx, purchase, { reason: 'subscription_ended' });
      await tx.execute(sql`update purchases set subscription_status = 'ended', updated_at = now()
        where id = ${purchase.id}`);
    }
    return lapsed.length;
  });
  if (ended) await deps.events.notify();
  return ended;
}
