// Use case: apply a provider's payment event (deduplicated, in one transaction with its effects).
import type { RefundReason } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import type { PaymentEvent } from '../../integrations/payments/port.ts';
import { AppError } from '../../platform/errors.ts';
import { publicOrigin } from '../../platform/origin.ts';
import { deliveriesOf } from '../access/index.ts';
import { ownsItem, productsOfItem } from '../catalog/index.ts';
import * as users from '../users/index.ts';
import { closeUnpaid, loadPurchases, one, type PurchaseRow } from './repository.ts';
import { endAccess, grantedRef, itemOf, purchaseRef } from './access-end.ts';
import { processAutoRefunds } from './auto-refunds.ts';
import { type EventOutcome } from './checkout.ts';
import { takeRedemption } from './coupons.ts';
import { reverseLedger, writeSale } from './ledger.ts';
import { couponLimitMail, duplicateMail, receiptMail } from './receipts.ts';
import { refund } from './refunds.ts';
import { updateSubscription } from './subscriptions.ts';

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
  let queued = false;
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
    // A subscription event for a one-time purchase (signed, but not about a subscription we sold):
    // acknowledged and recorded, so it is not delivered again, and changes nothing (the route logs
    // it); a renewal applied here would be a second sale of something bought once.
    if (event.type.startsWith('subscription.') && purchase.scheme === 'one_time') {
      return 'ignored' as const;
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
          const periodEnd = event.periodEnd ?? purchase.current_period_end;
          await deps.events.publish(tx, 'subscription.renewed', purchase.id, {
            ...(await grantedRef(tx, purchase)),
            periodEnd: periodEnd ? new Date(periodEnd).toISOString() : null,
          });
        }
        break;
      case 'subscription.updated':
        await updateSubscription(deps, tx, purchase, event);
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
    if (deps.events.queuedIn(tx)) queued = true;
    return 'processed' as const;
  });
  await deps.mailer.dispatch(mailIds);
  await deps.events.notify(queued);
  // Best effort now; the retry job carries on from the recorded row if the provider is down.
  if (refunds.length) await processAutoRefunds(deps, refunds);
  return outcome;
}

/**
 * A refund or dispute that names a payment we recorded under another reference (a Stripe payment intent
 * of a subscription invoice) is rewritten to that reference. Asked before the transaction: it may call
 * the provider.
 */
export async function withKnownPayment(deps: AppDeps, event: PaymentEvent): Promise<PaymentEvent> {
  if (event.purchaseId || !event.paymentRef) return event;
  if (event.type !== 'refund' && event.type !== 'dispute') return event;
  const db = deps.database.db;
  if (await purchaseOfPayment(db, event.paymentRef)) return event;
  for (const alias of await deps.payments.paymentAliases(event.paymentRef)) {
    if (await purchaseOfPayment(db, alias)) return { ...event, paymentRef: alias };
  }
  return event;
}

export async function purchaseOfPayment(tx: Tx, paymentRef: string | null): Promise<string | null> {
  if (!paymentRef) return null;
  const found = await one<{ purchase_id: string }>(
    tx,
    sql`select purchase_id from ledger_entries where payment_ref = ${paymentRef} and entry_type = 'sale' limit 1`,
  );
  return found?.purchase_id ?? null;
}

export async function completeCheckout(
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
  // Paid after we had released its coupon: an expiry raced the payment, or the buyer started a newer
  // checkout with the coupon (another tab) and then paid this older one too. The redemption is taken
  // back only within the coupon's limits; past them the payment is refunded and nothing is granted.
  const overLimit =
    purchase.coupon_released && purchase.coupon_id ? !(await retakeCoupon(tx, purchase)) : false;
  // One buyer's payments are fulfilled one at a time, so two checkouts paid at once (two tabs) see
  // each other: the second finds the item owned instead of granting it twice.
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`fulfil:${purchase.buyer_id}`}, 0))`,
  );
  const duplicate = await ownsItem(tx, purchase.buyer_id, itemOf(purchase));

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

  if (duplicate || overLimit) {
    await refundDuplicate(deps, tx, purchase, charged > 0 ? paymentRef : null, event, mailIds, {
      reason: duplicate ? 'duplicate' : 'coupon_limit',
    });
    refunds.push(purchase.id);
    return;
  }
  if (purchase.disputed_at) {
    // The dispute overtook the payment: the money is contested from the start, so nothing is granted
    // and the sale is reversed as a dispute would have reversed it.
    await reverseLedger(tx, purchase, `dispute:${paymentRef}`);
    return;
  }

  // What the buyer owns, the sales count and the entitlements are the catalogue's and the access
  // module's, kept from this event in this transaction (ADR 028).
  const granting = await productsOfItem(tx, itemOf(purchase));
  await deps.events.publish(tx, 'purchase.paid', purchase.id, {
    ...purchaseRef(purchase, {
      productIds: granting.map((p) => p.id).sort(),
      deliveries: await deliveriesOf(tx, granting),
    }),
    trial,
    products: granting,
  });

  const [full] = await loadPurchases(tx, sql`p.id = ${purchase.id}`, 1);
  const buyerEmail = await users.emailIn(tx, purchase.buyer_id);
  if (full && buyerEmail)
    mailIds.push(
      await deps.mailer.enqueue(tx, receiptMail(buyerEmail, full, publicOrigin(deps.config))),
    );
}

/**
 * Takes back the coupon redemption of a checkout paid after its hold was released, under the coupon's
 * row lock (the lock checkout's `redeemCoupon` takes) and within its overall and per-buyer limits.
 * False when a limit is reached: other checkouts took the redemptions in the meantime.
 */
async function retakeCoupon(tx: Tx, purchase: PurchaseRow): Promise<boolean> {
  const coupon = await one<{ max_per_buyer: number | null }>(
    tx,
    sql`select max_per_buyer from coupons where id = ${purchase.coupon_id} for update`,
  );
  if (!coupon) return true;
  // This purchase is released, so the per-buyer count does not include it.
  return (
    (await takeRedemption(tx, purchase.coupon_id!, purchase.buyer_id, coupon.max_per_buyer)) ===
    'taken'
  );
}

/**
 * A payment the platform refunds on its own (`duplicate`: for something the buyer already owned;
 * `coupon_limit`: a superseded checkout whose coupon had no redemptions left): reversed in the ledger
 * at once, recorded for the provider refund (and the subscription's end) that `processAutoRefunds`
 * carries out, and explained to the buyer. Nothing is granted.
 */
export async function refundDuplicate(
  deps: AppDeps,
  tx: Tx,
  purchase: PurchaseRow,
  paymentRef: string | null,
  event: PaymentEvent,
  mailIds: string[],
  { reason }: { reason: RefundReason } = { reason: 'duplicate' },
): Promise<void> {
  if (paymentRef) await reverseLedger(tx, purchase, `refund:${paymentRef}:${reason}`);
  await tx.execute(sql`update purchases set status = 'refunded', refunded_at = now(),
      refund_reason = ${reason},
      subscription_status = case when subscription_status is null then null else 'ended' end,
      updated_at = now()
    where id = ${purchase.id}`);
  await tx.execute(sql`insert into auto_refunds (purchase_id, reason, payment_ref, subscription_id)
    values (${purchase.id}, 'duplicate', ${paymentRef}, ${event.subscriptionId})
    on conflict do nothing`);
  const [full] = await loadPurchases(tx, sql`p.id = ${purchase.id}`, 1);
  const buyerEmail = await users.emailIn(tx, purchase.buyer_id);
  if (full && buyerEmail)
    mailIds.push(
      await deps.mailer.enqueue(
        tx,
        reason === 'duplicate'
          ? duplicateMail(buyerEmail, full)
          : couponLimitMail(buyerEmail, full),
      ),
    );
}
