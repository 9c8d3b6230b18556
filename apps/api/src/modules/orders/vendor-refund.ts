// Use case: a vendor refunds one of their sales, in whole or in part, through the payments port.
import {
  refundTooLargeMessage,
  vendorSalesMessages,
  type VendorRefund,
  type VendorRefundBody,
  type VendorSaleDetail,
  formatMoney,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { RefundRefusedError } from '../../integrations/payments/port.ts';
import { newId, sha256 } from '../../lib.ts';
import { AppError } from '../../platform/errors.ts';
import { processAutoRefunds } from './auto-refunds.ts';
import { rule } from './items.ts';
import { latestPayments } from './refund-state.ts';
import { one, type PurchaseRow } from './repository.ts';
import { refundView, saleDetail, saleNotFound, type VendorRefundRow } from './vendor-sale.ts';

/** Subscriptions the provider may still charge. */
const CHARGING = ['trialing', 'active', 'past_due', 'cancelling'];

/**
 * Refunds the sale's latest payment (ADR 042). The decision is taken under the purchase's row lock
 * and recorded as a pending `vendor_refunds` row that holds its amount, so two refunds at once never
 * exceed what is left; the provider is asked after commit with the row's id as its idempotency key,
 * and its `refund` event (applied by `refund()`) reverses the ledger, settles the row and, when the
 * payment is refunded in full, ends access. A repeated request (same `Idempotency-Key`, or without
 * one the same body before anything else was refunded) answers the first refund and refunds once.
 */
export async function vendorRefund(
  deps: AppDeps,
  userId: string,
  vendorId: string,
  purchaseId: string,
  body: VendorRefundBody,
  idempotencyKey: string | null,
): Promise<{ sale: VendorSaleDetail; refund: VendorRefund }> {
  const db = deps.database.db;
  const reason = body.reason.trim();
  const amountAsked = body.amount ?? null;
  const requestHash = sha256(JSON.stringify([purchaseId, amountAsked, reason]));

  const decided = await db.transaction(async (tx) => {
    // The row lock orders this against a concurrent refund of the same sale and the provider's events.
    const purchase = await one<PurchaseRow & { paid_at: Date | null; provider: string }>(
      tx,
      sql`select * from purchases where id = ${purchaseId} and vendor_id = ${vendorId} for update`,
    );
    if (!purchase || !purchase.paid_at) throw saleNotFound();
    const pay = (await latestPayments(tx, [purchase.id])).get(purchase.id);
    // Without a header, the key is the request plus what was refunded when it came: a double click
    // answers the first refund, while the same refund asked again later is a new one.
    const key =
      idempotencyKey ??
      `derived:${sha256(`${requestHash}:${pay?.ref ?? ''}:${pay?.refunded ?? 0}`)}`;
    const existing = await one<VendorRefundRow>(
      tx,
      sql`select * from vendor_refunds where vendor_id = ${vendorId} and idempotency_key = ${key}`,
    );
    if (existing) {
      if (existing.request_hash !== requestHash)
        throw new AppError('conflict', vendorSalesMessages.refundIdempotencyMismatch);
      return { row: existing, ask: existing.status === 'pending', cancel: false };
    }
    if (purchase.status === 'refunded') throw rule(vendorSalesMessages.refundAlreadyFull);
    if (purchase.status !== 'paid') throw rule(vendorSalesMessages.refundNotPaid);
    if (purchase.disputed_at) throw rule(vendorSalesMessages.refundDisputed);
    // Another provider's payment is unknown to this one: refuse now rather than wait on it for ever.
    if (purchase.provider !== deps.payments.name)
      throw rule(vendorSalesMessages.refundOtherProvider);
    if (!pay || pay.charged <= 0) throw rule(vendorSalesMessages.refundNothingCharged);
    const left = pay.charged - pay.refunded - pay.pending;
    if (left <= 0) throw rule(vendorSalesMessages.refundAlreadyFull);
    const amount = amountAsked ?? left;
    if (amount > left) {
      const message = refundTooLargeMessage(formatMoney(left, purchase.currency));
      throw rule(message, { amount: message });
    }
    const whole = amount === left;
    const [row] = (
      await tx.execute(sql`insert into vendor_refunds (id, purchase_id, vendor_id, payment_ref, amount,
          currency, target_total, reason, idempotency_key, request_hash, requested_by)
        values (${newId('vref')}, ${purchase.id}, ${vendorId}, ${pay.ref}, ${amount}, ${purchase.currency},
          ${pay.refunded + pay.pending + amount}, ${reason}, ${key}, ${requestHash}, ${userId})
        returning *`)
    ).rows as unknown as VendorRefundRow[];
    // A whole refund ends access; a subscription that could still charge is cancelled with it, through
    // the outbox the revocation uses (retried until the provider takes it).
    const cancel =
      whole &&
      purchase.subscription_id !== null &&
      CHARGING.includes(purchase.subscription_status ?? '');
    if (cancel)
      await tx.execute(sql`insert into auto_refunds (purchase_id, reason, subscription_id)
        values (${purchase.id}, 'revoked', ${purchase.subscription_id}) on conflict do nothing`);
    return { row: row!, ask: true, cancel };
  });

  let row = decided.row;
  if (decided.ask) {
    try {
      await deps.payments.refund({
        paymentRef: row.payment_ref,
        purchaseId,
        amount: row.amount,
        reason: 'vendor',
        note: row.reason,
        idempotencyKey: `vendor-refund:${row.id}`,
      });
    } catch (err) {
      if (!(err instanceof RefundRefusedError)) {
        // Unknown outcome: the row stays pending (its amount held); the same request asks again
        // under the same provider key, which refunds at most once.
        throw new AppError('service_unavailable', vendorSalesMessages.refundProviderFailed);
      }
      await db.execute(sql`update vendor_refunds set status = 'failed', failure = ${err.message.slice(0, 500)},
          completed_at = now()
        where id = ${row.id} and status = 'pending'`);
      throw rule(`${vendorSalesMessages.refundProviderRefused} ${err.message}`);
    }
  }
  if (decided.cancel) await processAutoRefunds(deps, [purchaseId]).catch(() => 0);
  row =
    (await one<VendorRefundRow>(db, sql`select * from vendor_refunds where id = ${row.id}`)) ?? row;
  if (row.status === 'failed')
    throw rule(`${vendorSalesMessages.refundProviderRefused} ${row.failure ?? ''}`.trim());
  return { sale: await saleDetail(db, vendorId, purchaseId), refund: refundView(row) };
}
