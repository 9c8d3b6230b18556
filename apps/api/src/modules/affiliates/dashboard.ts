// Use case: the affiliate's dashboard: referred sales with their commission state, balances from the
// ledger, earnings per month, clicks and sales per link, and payouts.
import {
  affiliateMessages,
  belowMinimumMessage,
  type AffiliateStats,
  type Payout,
  type ReferralSale,
  formatMoney,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import * as orders from '../orders/index.ts';
import { DAY_MS, holdNow } from './clock.ts';
import { payoutAccountOf } from './connect.ts';
import { payoutCurrency, payoutsOf } from './payouts.ts';

/** Months the earnings chart covers, this one included. */
const CHART_MONTHS = 12;

export function saleView(sale: orders.AffiliateSale, holdDays: number): ReferralSale {
  const money = (amount: number) => ({ amount, currency: sale.currency });
  const state =
    sale.earned > 0 && sale.net <= 0
      ? 'clawed_back'
      : sale.available < sale.net
        ? 'pending'
        : 'available';
  return {
    id: sale.purchaseId,
    refId: sale.refId,
    vendorId: sale.vendorId,
    vendorName: sale.vendorName,
    itemTitle: sale.itemTitle,
    sale: money(sale.paid),
    commission: money(sale.earned),
    clawedBack: money(Math.max(0, sale.earned - sale.net)),
    state,
    availableAt: new Date(sale.lastCommissionAt.getTime() + holdDays * DAY_MS).toISOString(),
    createdAt: sale.createdAt.toISOString(),
  };
}

/** `YYYY-MM` of the last `n` months (UTC), oldest first. */
export function lastMonths(now: Date, n: number): string[] {
  const out: string[] = [];
  for (let i = n - 1; i >= 0; i--) {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1));
    out.push(d.toISOString().slice(0, 7));
  }
  return out;
}

export async function affiliateOverview(
  deps: AppDeps,
  userId: string,
  page: { limit: number; cursor?: string | undefined },
): Promise<{
  referrals: ReferralSale[];
  stats: AffiliateStats;
  withdrawals: Payout[];
  nextCursor: string | null;
}> {
  const db = deps.database.db;
  const hold = await holdNow(deps, db);
  const now = new Date();
  const months = lastMonths(now, CHART_MONTHS);
  const since = new Date(`${months[0]}-01T00:00:00Z`);
  const [balances, sales, earnings, saleCounts, links, withdrawals, account] = await Promise.all([
    orders.affiliateBalances(db, userId, hold.cutoff),
    orders.affiliateSales(db, deps.cursors, userId, {
      cutoff: hold.cutoff,
      ...page,
      cursor: page.cursor,
    }),
    orders.affiliateEarnings(db, userId, since),
    orders.affiliateSaleCounts(db, userId),
    db.execute<{ ref_id: string; vendor_id: string; clicks: number }>(
      sql`select l.ref_id, l.vendor_id,
            (select count(*)::int from affiliate_clicks c where c.ref_id = l.ref_id) as clicks
          from referral_links l where l.user_id = ${userId}
          order by l.created_at, l.ref_id`,
    ),
    payoutsOf(db, userId),
    payoutAccountOf(db, userId, deps.payments.name),
  ]);

  const primary = payoutCurrency(balances);
  const currency = primary?.currency ?? 'usd';
  const money = (amount: number) => ({ amount, currency });
  const available = Math.max(0, primary?.available ?? 0);
  const minimum = deps.config.AFFILIATE_MIN_PAYOUT;
  const payoutAccount = !account ? 'none' : account.payouts_enabled ? 'ready' : 'pending';
  const blocked =
    payoutAccount === 'none'
      ? affiliateMessages.connectFirst
      : payoutAccount === 'pending'
        ? affiliateMessages.connectPending
        : available <= 0
          ? affiliateMessages.nothingAvailable
          : available < minimum
            ? belowMinimumMessage(formatMoney(minimum, currency), formatMoney(available, currency))
            : null;
  const salesByRef = new Map(saleCounts.map((s) => [s.refId, s.sales]));
  const monthly = new Map(
    earnings.filter((e) => e.currency === currency).map((e) => [e.month, e.amount]),
  );

  const stats: AffiliateStats = {
    availableBalance: money(available),
    pendingBalance: money(primary?.pending ?? 0),
    totalWithdrawn: money(primary?.withdrawn ?? 0),
    totalEarned: money(primary?.earned ?? 0),
    clicks: links.rows.reduce((n, l) => n + l.clicks, 0),
    sales: saleCounts.reduce((n, s) => n + s.sales, 0),
    holdDays: deps.config.AFFILIATE_HOLD_DAYS,
    minimumPayout: money(minimum),
    payoutAccount,
    payoutAccountName: account
      ? `${deps.payments.name === 'stripe' ? 'Stripe' : 'Sandbox'} account ••••${account.account_id.slice(-4)}`
      : null,
    canRequestPayout: blocked === null,
    payoutBlockedReason: blocked,
    balances: balances.map((b) => ({
      currency: b.currency,
      available: Math.max(0, b.available),
      pending: b.pending,
      withdrawn: b.withdrawn,
    })),
    earnings: months.map((month) => ({ month, amount: monthly.get(month) ?? 0 })),
    links: links.rows.map((l) => ({
      refId: l.ref_id,
      vendorId: l.vendor_id,
      clicks: l.clicks,
      sales: salesByRef.get(l.ref_id) ?? 0,
    })),
  };
  return {
    referrals: sales.sales.map((s) => saleView(s, hold.days)),
    stats,
    withdrawals,
    nextCursor: sales.nextCursor,
  };
}
