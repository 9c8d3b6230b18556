// Use case: the affiliate's payout account at the provider (Stripe Connect onboarding and its state).
// Vendors keep theirs in orders; any signed-in user who affiliates gets one here (ADR 037).
import { affiliateMessages } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../platform/errors.ts';
import * as users from '../users/index.ts';

export type PayoutAccountRow = {
  account_id: string;
  payouts_enabled: boolean;
};

export async function payoutAccountOf(
  db: Tx,
  userId: string,
  provider: string,
): Promise<PayoutAccountRow | null> {
  const found = await db.execute<PayoutAccountRow>(
    sql`select account_id, payouts_enabled from affiliate_payout_accounts
        where user_id = ${userId} and provider = ${provider}`,
  );
  return found.rows[0] ?? null;
}

const unavailable = () =>
  new AppError(
    'service_unavailable',
    'The payment provider did not answer. Try again in a minute.',
  );

/** The onboarding link; the connected account is created the first time and kept. */
export async function connectPayoutAccount(
  deps: AppDeps,
  userId: string,
  origin: string,
): Promise<{ url: string }> {
  const db = deps.database.db;
  const email = await users.emailIn(db, userId);
  if (!email) throw new AppError('unauthorized', 'Sign in to continue.');
  const account = await payoutAccountOf(db, userId, deps.payments.name);
  let onboarding: { accountId: string; url: string };
  try {
    onboarding = await deps.payments.createConnectOnboarding({
      accountId: account?.account_id ?? null,
      email,
      refreshUrl: `${origin}/affiliate/connected?refresh=1`,
      returnUrl: `${origin}/affiliate/connected`,
    });
  } catch {
    throw unavailable();
  }
  // Two first attempts at once: the first account stored wins; the other is never used.
  await db.execute(sql`insert into affiliate_payout_accounts (user_id, provider, account_id)
    values (${userId}, ${deps.payments.name}, ${onboarding.accountId}) on conflict do nothing`);
  return { url: onboarding.url };
}

/** After onboarding: reads whether the provider can pay the account out yet. */
export async function payoutAccountCallback(
  deps: AppDeps,
  userId: string,
): Promise<{ message: string; chargesEnabled: boolean; payoutsEnabled: boolean }> {
  const db = deps.database.db;
  const account = await payoutAccountOf(db, userId, deps.payments.name);
  if (!account) throw new AppError('business_rule', affiliateMessages.connectFirst);
  let status: { chargesEnabled: boolean; payoutsEnabled: boolean };
  try {
    status = await deps.payments.connectAccountStatus(account.account_id);
  } catch {
    throw unavailable();
  }
  await db.execute(sql`update affiliate_payout_accounts set payouts_enabled = ${status.payoutsEnabled},
      updated_at = now()
    where user_id = ${userId} and provider = ${deps.payments.name}`);
  return {
    message: status.payoutsEnabled
      ? affiliateMessages.connectReady
      : affiliateMessages.connectPending,
    chargesEnabled: status.chargesEnabled,
    payoutsEnabled: status.payoutsEnabled,
  };
}
