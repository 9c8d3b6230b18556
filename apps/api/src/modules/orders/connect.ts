// Use case: a vendor's payout account at the provider (onboarding link and state).
import { ordersMessages } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../platform/errors.ts';
import { one } from './repository.ts';
import { rule } from './checkout.ts';

export async function vendorOf(deps: AppDeps, userId: string) {
  const vendor = await one<{ id: string; email: string; account_id: string | null }>(
    deps.database.db,
    sql`select v.id, u.email, a.account_id from vendors v join users u on u.id = v.user_id
        left join vendor_payment_accounts a on a.vendor_id = v.id and a.provider = ${deps.payments.name}
        where v.user_id = ${userId}`,
  );
  if (!vendor) throw new AppError('forbidden', ordersMessages.vendorsOnly);
  return vendor;
}

/** The vendor's onboarding link at the provider; creates the connected account the first time. */
export async function connectAccount(
  deps: AppDeps,
  userId: string,
  origin: string,
): Promise<{ url: string }> {
  const vendor = await vendorOf(deps, userId);
  const { accountId, url } = await deps.payments.createConnectOnboarding({
    accountId: vendor.account_id,
    email: vendor.email,
    refreshUrl: `${origin}/account?payouts=refresh`,
    returnUrl: `${origin}/account?payouts=connected`,
  });
  await deps.database.db
    .execute(sql`insert into vendor_payment_accounts (vendor_id, provider, account_id)
    values (${vendor.id}, ${deps.payments.name}, ${accountId}) on conflict do nothing`);
  return { url };
}

/** Reads the account's state back from the provider; checkout routes money to it once enabled. */
export async function connectAccountCallback(
  deps: AppDeps,
  userId: string,
): Promise<{ message: string; chargesEnabled: boolean }> {
  const vendor = await vendorOf(deps, userId);
  if (!vendor.account_id) throw rule(ordersMessages.connectNotStarted);
  const status = await deps.payments.connectAccountStatus(vendor.account_id);
  await deps.database.db
    .execute(sql`update vendor_payment_accounts set charges_enabled = ${status.chargesEnabled}
    where vendor_id = ${vendor.id} and provider = ${deps.payments.name}`);
  return {
    message: status.chargesEnabled ? ordersMessages.connectReady : ordersMessages.connectPending,
    chargesEnabled: status.chargesEnabled,
  };
}
