// Use case: a vendor's payout account at the provider (onboarding link and state).
import { ordersMessages, type ConnectPurpose } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../platform/errors.ts';
import { vendorIdOfUser } from '../catalog/index.ts';
import * as users from '../users/index.ts';
import { one } from './repository.ts';
import { rule } from './items.ts';

/** The caller's vendor and payout account, for a connect call made as a vendor (403 otherwise). */
async function payoutVendor(deps: AppDeps, userId: string) {
  const db = deps.database.db;
  const vendorId = await vendorIdOfUser(db, userId);
  const email = vendorId && (await users.emailIn(db, userId));
  if (!vendorId || !email) throw new AppError('forbidden', ordersMessages.vendorsOnly);
  const account = await one<{ account_id: string }>(
    db,
    sql`select account_id from vendor_payment_accounts
        where vendor_id = ${vendorId} and provider = ${deps.payments.name}`,
  );
  return { id: vendorId, email, account_id: account?.account_id ?? null };
}

/** Whose payout account a connect call is for: as asked, else a vendor's for vendors. */
export async function connectPurpose(
  deps: AppDeps,
  userId: string,
  asked: ConnectPurpose | undefined,
): Promise<ConnectPurpose> {
  if (asked) return asked;
  return (await vendorIdOfUser(deps.database.db, userId)) ? 'vendor' : 'affiliate';
}

/** The vendor's onboarding link at the provider; creates the connected account the first time. */
export async function connectAccount(
  deps: AppDeps,
  userId: string,
  origin: string,
): Promise<{ url: string }> {
  const vendor = await payoutVendor(deps, userId);
  const { accountId, url } = await deps.payments.createConnectOnboarding({
    accountId: vendor.account_id,
    email: vendor.email,
    // The workspace's payouts screen reads the account's state when the vendor comes back.
    refreshUrl: `${origin}/vendor/payouts?onboarding=later`,
    returnUrl: `${origin}/vendor/payouts?onboarding=done`,
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
  const vendor = await payoutVendor(deps, userId);
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
