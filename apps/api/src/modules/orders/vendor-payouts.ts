// Use case: the vendor's payouts screen: their account at the provider, in words, and their share of
// sales from the ledger (issue 19).
import {
  payoutMessages as m,
  VENDOR_PENDING_DAYS,
  type PayoutAccountStatus,
  type VendorPayouts,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { ConnectAccountStatus } from '../../integrations/payments/port.ts';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../platform/errors.ts';
import { availableOf, heldShares } from './ledger.ts';
import { one, rows } from './repository.ts';

const messages: Record<PayoutAccountStatus, string> = {
  not_started: m.notStarted,
  incomplete: m.incomplete,
  pending_verification: m.pendingVerification,
  active: m.active,
  restricted: m.restricted,
};

/** Where the account stands, from what the provider says about it. */
export function payoutStatusOf(s: ConnectAccountStatus | null): PayoutAccountStatus {
  if (!s) return 'not_started';
  if (s.chargesEnabled && s.payoutsEnabled) return 'active';
  const code = s.disabledCode ?? '';
  if (code.startsWith('rejected') || code === 'platform_paused') return 'restricted';
  if (s.requirements.length === 0 && (s.detailsSubmitted || code.includes('pending_verification')))
    return 'pending_verification';
  return 'incomplete';
}

interface BalanceRow {
  currency: string;
  available: number;
  pending: number;
  refunded: number;
}

/**
 * The vendor's share per currency, per purchase as the affiliate side does it (ADR 037): shares of
 * payments older than the pending window are available, refunds and disputes come off that part
 * first, and what is left is pending.
 */
export async function vendorBalances(db: Tx, vendorId: string): Promise<BalanceRow[]> {
  const cutoff = sql`now() - make_interval(days => ${VENDOR_PENDING_DAYS}::int)`;
  return rows<BalanceRow>(
    db,
    sql`with per_purchase as (${heldShares({ type: 'vendor', id: vendorId }, 'vendor_share', cutoff)}),
      split as (select currency, net, earned, ${availableOf} as available from per_purchase)
      select currency, sum(available)::int as available, sum(net - available)::int as pending,
        sum(earned - net)::int as refunded
      from split group by currency order by currency`,
  );
}

export async function vendorPayouts(
  deps: AppDeps,
  vendorId: string,
): Promise<{ payouts: VendorPayouts }> {
  const db = deps.database.db;
  const account = await one<{ account_id: string; charges_enabled: boolean }>(
    db,
    sql`select account_id, charges_enabled from vendor_payment_accounts
        where vendor_id = ${vendorId} and provider = ${deps.payments.name}`,
  );
  let status: ConnectAccountStatus | null = null;
  if (account) {
    try {
      status = await deps.payments.connectAccountStatus(account.account_id);
    } catch {
      throw new AppError('service_unavailable', m.unavailable);
    }
    // Checkout routes sales to the account once it takes charges: keep that in step with the provider.
    if (status.chargesEnabled !== account.charges_enabled)
      await db.execute(sql`update vendor_payment_accounts set charges_enabled = ${status.chargesEnabled}
        where vendor_id = ${vendorId} and provider = ${deps.payments.name}`);
  }
  const state = payoutStatusOf(status);
  const balances = await vendorBalances(deps.database.db, vendorId);
  // The headline currency: the one with the most money in it (usd when there is none).
  const main = [...balances].sort(
    (a, b) => b.available + b.pending - (a.available + a.pending),
  )[0] ?? { currency: 'usd', available: 0, pending: 0, refunded: 0 };
  return {
    payouts: {
      status: state,
      message: messages[state],
      requirements: status?.requirements ?? [],
      disabledReason: state === 'pending_verification' ? null : (status?.disabledReason ?? null),
      chargesEnabled: status?.chargesEnabled ?? false,
      payoutsEnabled: status?.payoutsEnabled ?? false,
      // Checkout's rule (createProviderSession): the account gets the sale once it takes charges.
      salesNote: status?.chargesEnabled ? m.salesToAccount : m.salesCollected,
      balances,
      available: { amount: main.available, currency: main.currency },
      pending: { amount: main.pending, currency: main.currency },
      pendingDays: VENDOR_PENDING_DAYS,
      payoutNote: m.paidOutByProvider,
    },
  };
}
