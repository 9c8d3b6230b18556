// Where a sale's refunds stand: what the latest payment charged, what came back, what is pending.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { rows } from './repository.ts';

export interface PaymentState {
  purchaseId: string;
  /** The latest payment's reference (a vendor refund refunds this one). */
  ref: string;
  charged: number;
  /** Refunded so far, as the provider's applied refund events recorded it in the ledger. */
  refunded: number;
  /** Vendor refunds asked of the provider, not yet confirmed. */
  pending: number;
}

/** The latest charged payment of each purchase with its refunds; purchases never charged are absent. */
export async function latestPayments(
  tx: Tx,
  purchaseIds: string[],
): Promise<Map<string, PaymentState>> {
  if (!purchaseIds.length) return new Map();
  const found = await rows<{
    purchase_id: string;
    payment_ref: string;
    charged: number;
    refunded: number;
    pending: number;
  }>(
    tx,
    sql`with pay as (
        select distinct on (purchase_id) purchase_id, payment_ref, -amount as charged
        from ledger_entries
        where purchase_id in (${sql.join(
          purchaseIds.map((id) => sql`${id}`),
          sql`, `,
        )}) and entry_type = 'sale' and account_type = 'clearing'
        order by purchase_id, created_at desc, payment_ref desc)
      select pay.purchase_id, pay.payment_ref, pay.charged::int as charged,
        (select coalesce(sum(l.amount), 0) from ledger_entries l
          where l.purchase_id = pay.purchase_id and l.account_type = 'clearing'
            and l.payment_ref like 'refund:' || pay.payment_ref || ':%')::int as refunded,
        (select coalesce(sum(v.amount), 0) from vendor_refunds v
          where v.purchase_id = pay.purchase_id and v.payment_ref = pay.payment_ref
            and v.status = 'pending')::int as pending
      from pay`,
  );
  return new Map(
    found.map((r) => [
      r.purchase_id,
      {
        purchaseId: r.purchase_id,
        ref: r.payment_ref,
        charged: r.charged,
        refunded: r.refunded,
        pending: r.pending,
      },
    ]),
  );
}

/** What a vendor may still refund of a sale: none once refunded in full or disputed. */
export function refundableOf(
  purchase: { status: string; disputed_at?: Date | string | null },
  pay: PaymentState | undefined,
): number {
  if (!pay || purchase.status !== 'paid' || purchase.disputed_at) return 0;
  return Math.max(0, pay.charged - pay.refunded - pay.pending);
}

/**
 * Settles the vendor refunds a provider refund event confirmed: those whose target (the payment's
 * refunded total they reach) the event's total covers; `total` null settles every pending one.
 */
export async function settleVendorRefunds(
  tx: Tx,
  purchaseId: string,
  ref: string | null,
  total: number | null,
): Promise<void> {
  await tx.execute(sql`update vendor_refunds set status = 'succeeded', completed_at = now()
    where purchase_id = ${purchaseId} and status = 'pending'
      ${ref ? sql`and payment_ref = ${ref}` : sql``}
      ${total !== null ? sql`and target_total <= ${total}` : sql``}`);
}
