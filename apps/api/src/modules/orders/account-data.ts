// The orders module's part of exporting and deleting an account (ADR 060): the buyer's orders, the
// ledger lines of the account's own balances, a vendor's sales summary, what must settle before a
// deletion, and ending a deleted buyer's access through the revocation path.
import { accountDataMessages, ACCOUNT_DELETED_REASON } from '@tradeshelf/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { keysetPages } from '../../db/pages.ts';
import { processAutoRefunds } from './auto-refunds.ts';
import { rows, type PurchaseRow } from './repository.ts';
import { endPurchaseAccess } from './revoke.ts';
import { vendorBalances } from './vendor-payouts.ts';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const money = (amount: number, currency: string) => ({ amount, currency });

interface OrderRow extends Record<string, unknown> {
  id: string;
  receipt_number: string | null;
  status: string;
  vendor_id: string;
  item_type: string;
  product_id: string | null;
  bundle_id: string | null;
  scheme: string;
  currency: string;
  subtotal: number;
  discount: number;
  total: number;
  coupon_code: string | null;
  subscription_status: string | null;
  created_at: Date;
  paid_at: Date | null;
  refunded_at: Date | null;
  revoked_at: Date | null;
  revoked_reason: string | null;
}

/**
 * The buyer's orders (checkouts never paid too: they are theirs), a page at a time. The columns
 * are never null: `nulls first` only spells the order as `purchases_buyer_created_idx` gives it
 * read backwards, so a page is a range of that index instead of a sort of every order.
 */
export function orderPages(db: Tx, userId: string) {
  return keysetPages(
    db,
    { at: sql`created_at`, id: sql`id` },
    (after, limit) => sql`select id, receipt_number, status, vendor_id, item_type, product_id,
      bundle_id, scheme, currency, subtotal, discount, total, coupon_code, subscription_status,
      created_at, paid_at, refunded_at, revoked_at, revoked_reason,
      created_at::text as page_at, id as page_id
    from purchases where buyer_id = ${userId} ${after}
    order by created_at nulls first, id nulls first limit ${limit}`,
    (o: OrderRow) => ({
      id: o.id,
      receiptNumber: o.receipt_number,
      status: o.status,
      vendorId: o.vendor_id,
      itemType: o.item_type,
      productId: o.product_id,
      bundleId: o.bundle_id,
      scheme: o.scheme,
      subtotal: money(o.subtotal, o.currency),
      discount: money(o.discount, o.currency),
      total: money(o.total, o.currency),
      couponCode: o.coupon_code,
      subscriptionStatus: o.subscription_status,
      createdAt: iso(o.created_at)!,
      paidAt: iso(o.paid_at),
      refundedAt: iso(o.refunded_at),
      revokedAt: iso(o.revoked_at),
      revokedReason: o.revoked_reason,
    }),
  );
}

/**
 * The ledger lines of the account's own balances (as an affiliate, and as a vendor), a page at a
 * time: each side read through its own index, the two merged in (created_at, id) order.
 */
export function ledgerPages(db: Tx, userId: string, vendorId: string | null) {
  const side = (accountType: string, accountId: string, after: SQL, limit: number) =>
    sql`(select id, purchase_id, entry_type, account_type, amount, currency, created_at
      from ledger_entries where account_type = ${accountType} and account_id = ${accountId} ${after}
      order by created_at, id limit ${limit})`;
  return keysetPages(
    db,
    { at: sql`created_at`, id: sql`id` },
    (after, limit) => sql`select *, created_at::text as page_at, id as page_id from (
        ${side('affiliate', userId, after, limit)}
        union all ${side('vendor', vendorId ?? '', after, limit)}
      ) lines order by created_at, id limit ${limit}`,
    (l: {
      purchase_id: string | null;
      entry_type: string;
      account_type: string;
      amount: number;
      currency: string;
      created_at: Date;
    }) => ({
      purchaseId: l.purchase_id,
      entryType: l.entry_type,
      accountType: l.account_type,
      amount: money(l.amount, l.currency),
      createdAt: iso(l.created_at)!,
    }),
  );
}

/** Paid sales per currency: how many, and what buyers paid before refunds. */
export async function vendorSalesExport(db: Tx, vendorId: string) {
  const found = await rows<{ currency: string; count: number; gross: number }>(
    db,
    sql`select currency, count(*)::int as count, coalesce(sum(total), 0)::int as gross
    from purchases where vendor_id = ${vendorId} and paid_at is not null
    group by currency order by currency`,
  );
  return found.map((r) => ({
    currency: r.currency,
    count: r.count,
    gross: money(r.gross, r.currency),
  }));
}

/**
 * What must settle before the account can go, as sentences; none means it may. A vendor: sales
 * still inside the pending (refund) window, subscribers who could still be charged, a refund still
 * at the provider. An affiliate: any balance, or a payout on its way.
 */
export async function deletionBlockers(
  db: Tx,
  userId: string,
  vendorId: string | null,
): Promise<string[]> {
  const blockers: string[] = [];
  if (vendorId) {
    const balances = await vendorBalances(db, vendorId);
    if (balances.some((b) => b.pending > 0)) blockers.push(accountDataMessages.vendorPendingSales);
    const [subs] = await rows<{ n: number }>(
      db,
      sql`select count(*)::int as n from purchases where vendor_id = ${vendorId}
        and revoked_at is null
        and subscription_status in ('trialing', 'active', 'past_due', 'cancelling')`,
    );
    if (subs && subs.n > 0) blockers.push(accountDataMessages.vendorSubscribers(subs.n));
    const [refunds] = await rows<{ n: number }>(
      db,
      sql`select count(*)::int as n from vendor_refunds where vendor_id = ${vendorId}
        and status = 'pending'`,
    );
    if (refunds && refunds.n > 0) blockers.push(accountDataMessages.vendorRefundsPending);
  }
  // Everything earned, less refunds taken back and payouts made: pending or available, it is theirs.
  const [affiliate] = await rows<{ n: number }>(
    db,
    sql`select count(*)::int as n from (select currency from ledger_entries
        where account_type = 'affiliate' and account_id = ${userId}
        group by currency having sum(amount) > 0) b`,
  );
  if (affiliate && affiliate.n > 0) blockers.push(accountDataMessages.affiliateBalance);
  const [payouts] = await rows<{ n: number }>(
    db,
    sql`select count(*)::int as n from affiliate_payouts where user_id = ${userId}
      and status = 'requested'`,
  );
  if (payouts && payouts.n > 0) blockers.push(accountDataMessages.affiliatePayoutPending);
  return blockers;
}

/**
 * In the deleting transaction: every paid purchase of the buyer not already ended is revoked with
 * the reason "Account deleted", through the vendors' revocation path (ADR 035), so access,
 * licences, ownership and roles end through their subscribers and a subscription that could charge
 * is cancelled at the provider. Answers the purchases whose subscription is being cancelled.
 */
export async function endBuyerAccess(deps: AppDeps, tx: Tx, userId: string): Promise<string[]> {
  const live = await rows<PurchaseRow & { revoked_at: Date | null; paid_at: Date | null }>(
    tx,
    sql`select * from purchases where buyer_id = ${userId} and status = 'paid'
      and paid_at is not null and revoked_at is null order by id for update`,
  );
  const cancelling: string[] = [];
  for (const purchase of live) {
    if (await endPurchaseAccess(deps, tx, purchase, ACCOUNT_DELETED_REASON, userId))
      cancelling.push(purchase.id);
  }
  return cancelling;
}

/** After the commit: ask the provider to end those subscriptions now (the job retries otherwise). */
export async function cancelEndedSubscriptions(deps: AppDeps, purchaseIds: string[]) {
  if (purchaseIds.length) await processAutoRefunds(deps, purchaseIds).catch(() => 0);
}
