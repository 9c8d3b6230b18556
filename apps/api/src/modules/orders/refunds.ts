// Use case: a provider's refund of one payment, in part or whole.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import type { PaymentEvent } from '../../integrations/payments/port.ts';
import { proportionalShare } from './pricing.ts';
import { closeUnpaid, type PurchaseRow } from './repository.ts';
import { endAccess, grantedRef } from './access-end.ts';
import { insertLedger, paymentSet, refundedOf, reverseLedger } from './ledger.ts';
import { settleVendorRefunds } from './refund-state.ts';

/**
 * A refund of one payment. `event.amount` is the payment's refunded total so far, as providers report
 * it (Stripe's `amount_refunded`); null means all of it. A partial refund reverses that share of the
 * payment's ledger set and keeps access; refunding the whole payment ends access at once. Totals that
 * do not grow (a repeat, or an older event arriving late) change nothing.
 */
export async function refund(
  deps: AppDeps,
  tx: Tx,
  purchase: PurchaseRow,
  event: PaymentEvent,
): Promise<void> {
  if (purchase.status === 'refunded') {
    await settleVendorRefunds(tx, purchase.id, event.paymentRef, event.amount);
    return;
  }
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
    await settleVendorRefunds(tx, purchase.id, null, null);
    return;
  }
  const total = Math.min(event.amount ?? charged, charged);
  const before = await refundedOf(tx, purchase.id, ref);
  await settleVendorRefunds(tx, purchase.id, ref, total);
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
    await deps.events.publish(tx, 'purchase.refunded', purchase.id, {
      ...(await grantedRef(tx, purchase)),
      amount: { amount: total - before, currency: purchase.currency },
      full: false,
    });
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

export async function endRefunded(
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
