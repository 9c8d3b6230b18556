// The affiliates module's public entry (ARCHITECTURE §2): other modules import this file only.
export { referralFor } from './referrals.ts';
export { connectPayoutAccount, payoutAccountCallback } from './connect.ts';
export { applyTransferEvent, retryPayouts } from './payouts.ts';
export { openReferralWindows } from './programme.ts';
