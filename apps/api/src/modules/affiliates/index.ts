// The affiliates module's public entry (docs/architecture.md#boundaries): other modules import this file only.
export { referralFor } from './referrals.ts';
export { connectPayoutAccount, payoutAccountCallback } from './connect.ts';
export { applyTransferEvent, retryPayouts } from './payouts.ts';
export { openReferralWindows } from './programme.ts';
export { affiliateExport, forgetAffiliate } from './account-data.ts';
