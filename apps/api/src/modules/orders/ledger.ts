// The ledger: zero-sum sets per payment (sale, platform fee, vendor share, commission) and reversals.
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { newId } from '../../lib.ts';
import { splitPayment, type LedgerLine } from './pricing.ts';
import { one, rows, type PurchaseRow } from './repository.ts';
import { feeRule } from './checkout.ts';

/** One payment's ledger set: the clearing account pays out fee, vendor share and commission. */
export async function writeSale(
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
  await insertLedger(
    tx,
    purchase.id,
    paymentRef,
    saleLines({
      amount,
      currency: purchase.currency,
      clearing: deps.payments.name,
      vendorId: purchase.vendor_id,
      affiliateUserId: purchase.affiliate_user_id,
      split,
    }),
  );
}

/** A payment's zero-sum set: the clearing account pays the fee, the vendor's share and any commission. */
export function saleLines(sale: {
  amount: number;
  currency: string;
  /** The payment provider whose clearing account took the money. */
  clearing: string;
  vendorId: string;
  affiliateUserId: string | null;
  split: { platformFee: number; vendorShare: number; affiliateCommission: number };
}): Array<LedgerLine & { entry_type: string }> {
  const { split, currency } = sale;
  const line = (entry_type: string, account_type: string, account_id: string, amount: number) => ({
    entry_type,
    account_type,
    account_id,
    amount,
    currency,
  });
  return [
    line('sale', 'clearing', sale.clearing, -sale.amount),
    line('platform_fee', 'platform', 'platform', split.platformFee),
    line('vendor_share', 'vendor', sale.vendorId, split.vendorShare),
    ...(sale.affiliateUserId && split.affiliateCommission > 0
      ? [line('affiliate_commission', 'affiliate', sale.affiliateUserId, split.affiliateCommission)]
      : []),
  ];
}

/**
 * Writes one set of ledger lines under a payment reference, in one statement. A set is written once:
 * the unique (purchase, reference, entry type, account type) key makes a repeat change nothing.
 */
export async function insertLedger(
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
export async function reverseLedger(
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

/** The ledger set one payment wrote (its sale and the shares paid out of it). */
export async function paymentSet(tx: Tx, purchaseId: string, ref: string): Promise<LedgerLine[]> {
  return rows<LedgerLine>(
    tx,
    sql`select account_type, account_id, amount, currency from ledger_entries
        where purchase_id = ${purchaseId} and payment_ref = ${ref}`,
  );
}

/** How much of one payment has been refunded so far (what the clearing account got back). */
export async function refundedOf(tx: Tx, purchaseId: string, ref: string): Promise<number> {
  const found = await one<{ n: number }>(
    tx,
    sql`select coalesce(sum(amount), 0)::int as n from ledger_entries
        where purchase_id = ${purchaseId} and account_type = 'clearing'
          and payment_ref like ${`refund:${ref}:%`}`,
  );
  return found?.n ?? 0;
}

/**
 * Per purchase of one ledger account: `earned` (its share entries of `entryType`), `matured` (those
 * written at or before `cutoff`) and `net` (after refunds and clawbacks). A clawback comes off the
 * matured part first, so money still on hold never becomes payable through a refund of an older
 * payment. The affiliate's commission and the vendor's share (vendor-payouts.ts) are held alike.
 */
export const heldShares = (
  account: { type: 'affiliate' | 'vendor'; id: string },
  entryType: 'affiliate_commission' | 'vendor_share',
  cutoff: SQL,
) => sql`
  select purchase_id, currency,
    coalesce(sum(amount) filter (where entry_type = ${entryType}), 0) as earned,
    coalesce(sum(amount) filter (where entry_type = ${entryType} and created_at <= ${cutoff}), 0)
      as matured,
    sum(amount) as net,
    max(created_at) filter (where entry_type = ${entryType}) as last_commission_at
  from ledger_entries
  where account_type = ${account.type} and account_id = ${account.id} and purchase_id is not null
  group by purchase_id, currency`;

/** Of a `heldShares` row: the part that may be paid out (a negative net is owed back at once). */
export const availableOf = sql`case when net < 0 then net else greatest(0, matured + (net - earned)) end`;
