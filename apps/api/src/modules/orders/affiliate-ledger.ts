// Use case: an affiliate's side of the ledger (ADR 037). The ledger is orders'; the affiliates module
// reads commission and writes payouts only through these functions, so its SQL stays here.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { newId } from '../../lib.ts';
import { pageOf, type Cursors } from '../../platform/cursor.ts';
import { itemSummaries } from '../catalog/index.ts';
import { availableOf, heldShares } from './ledger.ts';
import { rows } from './repository.ts';
import { afterCursor, encodeCursor } from './purchases.ts';

/** One currency of an affiliate's account, in minor units. */
export interface AffiliateBalance {
  currency: string;
  /** Commission past its hold, less clawbacks, less payouts (returned ones come back). */
  available: number;
  /** Commission still within its hold, less clawbacks. */
  pending: number;
  /** Paid out or on its way, net of returned payouts. */
  withdrawn: number;
  /** Commission earned before any clawback. */
  earned: number;
}

const perPurchase = (userId: string, cutoff: Date) =>
  heldShares(
    { type: 'affiliate', id: userId },
    'affiliate_commission',
    sql`${cutoff.toISOString()}::timestamptz`,
  );

/**
 * The affiliate's balances per currency from the ledger alone. `cutoff`: commission written at or
 * before it is past its hold. Run inside the payout's transaction, it sees that transaction's debit.
 */
export async function affiliateBalances(
  db: Tx,
  userId: string,
  cutoff: Date,
): Promise<AffiliateBalance[]> {
  const found = await rows<{
    currency: string;
    available: number;
    pending: number;
    withdrawn: number;
    earned: number;
  }>(
    db,
    sql`with sales as (${perPurchase(userId, cutoff)}),
      by_currency as (
        select currency, sum(${availableOf}) as available, sum(net - ${availableOf}) as pending,
          sum(earned) as earned
        from sales group by currency),
      moves as (
        select currency, sum(amount) as moved from ledger_entries
        where account_type = 'affiliate' and account_id = ${userId} and purchase_id is null
        group by currency)
      select coalesce(s.currency, m.currency) as currency,
        (coalesce(s.available, 0) + coalesce(m.moved, 0))::int as available,
        coalesce(s.pending, 0)::int as pending,
        (-coalesce(m.moved, 0))::int as withdrawn,
        coalesce(s.earned, 0)::int as earned
      from by_currency s full join moves m on m.currency = s.currency
      order by 1`,
  );
  return found;
}

/** A referred purchase with the commission it earned. */
export interface AffiliateSale {
  purchaseId: string;
  refId: string;
  vendorId: string;
  vendorName: string;
  itemTitle: string;
  currency: string;
  /** What the buyer paid over its payments. */
  paid: number;
  earned: number;
  net: number;
  /** Part of `net` past the hold. */
  available: number;
  lastCommissionAt: Date;
  createdAt: Date;
}

/** The affiliate's referred purchases that earned commission, newest first, a page at a time. */
export async function affiliateSales(
  db: Tx,
  cursors: Cursors,
  userId: string,
  page: { cutoff: Date; limit: number; cursor: string | undefined },
): Promise<{ sales: AffiliateSale[]; nextCursor: string | null }> {
  const found = await rows<{
    id: string;
    ref_id: string | null;
    vendor_id: string;
    item_type: 'product' | 'bundle';
    item_id: string;
    currency: string;
    paid: number;
    earned: number;
    net: number;
    available: number;
    last_commission_at: Date | string;
    created_at: Date | string;
  }>(
    db,
    sql`with sales as (${perPurchase(userId, page.cutoff)})
      select p.id, p.ref_id, p.vendor_id, p.item_type, coalesce(p.product_id, p.bundle_id) as item_id,
        s.currency, s.earned::int, s.net::int, (${availableOf})::int as available,
        s.last_commission_at, p.created_at,
        (select coalesce(-sum(l.amount), 0)::int from ledger_entries l
          where l.purchase_id = p.id and l.account_type = 'clearing' and l.entry_type = 'sale') as paid
      from sales s join purchases p on p.id = s.purchase_id
      where ${afterCursor(cursors, 'referrals', page.cursor)}
      order by p.created_at desc, p.id desc
      limit ${page.limit + 1}`,
  );
  const { page: pageRows, nextCursor } = pageOf(found, page.limit, (last) =>
    encodeCursor(cursors, 'referrals', { createdAt: last.created_at, id: last.id }),
  );
  const items = await itemSummaries(
    db,
    pageRows.map((r) => ({ type: r.item_type, id: r.item_id })),
  );
  const sales = pageRows.map((r) => {
    const item = items.get(`${r.item_type}:${r.item_id}`);
    return {
      purchaseId: r.id,
      refId: r.ref_id ?? '',
      vendorId: r.vendor_id,
      vendorName: item?.vendor.displayName ?? '',
      itemTitle: item?.title ?? '',
      currency: r.currency,
      paid: r.paid,
      earned: r.earned,
      net: r.net,
      available: r.available,
      lastCommissionAt: new Date(r.last_commission_at),
      createdAt: new Date(r.created_at),
    };
  });
  return { sales, nextCursor };
}

/** Commission net of clawbacks per calendar month (UTC) and currency, oldest first. */
export async function affiliateEarnings(
  db: Tx,
  userId: string,
  since: Date,
): Promise<Array<{ month: string; currency: string; amount: number }>> {
  return rows(
    db,
    sql`select to_char(date_trunc('month', created_at at time zone 'UTC'), 'YYYY-MM') as month,
          currency, sum(amount)::int as amount
        from ledger_entries
        where account_type = 'affiliate' and account_id = ${userId} and purchase_id is not null
          and created_at >= ${since.toISOString()}::timestamptz
        group by 1, 2 order by 1, 2`,
  );
}

/** Paid referred purchases per referral id. */
export async function affiliateSaleCounts(
  db: Tx,
  userId: string,
): Promise<Array<{ refId: string; sales: number }>> {
  const found = await rows<{ ref_id: string; sales: number }>(
    db,
    sql`select ref_id, count(*)::int as sales from purchases
        where affiliate_user_id = ${userId} and paid_at is not null and ref_id is not null
        group by ref_id`,
  );
  return found.map((r) => ({ refId: r.ref_id, sales: r.sales }));
}

export interface PayoutEntry {
  payoutId: string;
  userId: string;
  amount: number;
  currency: string;
  /** The provider the transfer goes through: the clearing account that pays it. */
  provider: string;
}

/**
 * Debits a payout from the affiliate's balance, in the caller's transaction: the affiliate's account
 * gives `amount` to the provider's clearing account. Written once per payout (a repeat does nothing).
 */
export async function recordAffiliatePayout(tx: Tx, p: PayoutEntry): Promise<void> {
  await transferSet(tx, `payout:${p.payoutId}`, 'affiliate_payout', p, -p.amount);
}

/** Gives a failed or reversed payout back to the balance; once per payout. */
export async function returnAffiliatePayout(tx: Tx, p: PayoutEntry): Promise<void> {
  await transferSet(tx, `payout:${p.payoutId}:return`, 'affiliate_payout_return', p, p.amount);
}

async function transferSet(
  tx: Tx,
  ref: string,
  entryType: 'affiliate_payout' | 'affiliate_payout_return',
  p: PayoutEntry,
  toAffiliate: number,
): Promise<void> {
  await tx.execute(sql`insert into ledger_entries (id, purchase_id, payment_ref, entry_type,
      account_type, account_id, amount, currency)
    values (${newId('led')}, null, ${ref}, ${entryType}, 'affiliate', ${p.userId}, ${toAffiliate},
        ${p.currency}),
      (${newId('led')}, null, ${ref}, ${entryType}, 'clearing', ${p.provider}, ${-toAffiliate},
        ${p.currency})
    on conflict do nothing`);
}
