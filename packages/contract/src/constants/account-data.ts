/**
 * Exporting and deleting an account (issue 33, ADR 060). Plain values, so browser code can use them
 * (docs/product.md#account-controls).
 */

/** The reason shown on access and licences a deletion ended. */
export const ACCOUNT_DELETED_REASON = 'Account deleted';

export const accountDataMessages = {
  deleted: 'Your account has been deleted.',
  vendorPendingSales:
    'Your storefront still has sales inside the refund window. Wait until they are paid out, then delete the account.',
  vendorSubscribers: (n: number) =>
    `Your storefront still has ${n} active subscriber${n === 1 ? '' : 's'}. End or let their subscriptions run out first.`,
  vendorRefundsPending:
    'A refund you started is still being processed. Wait until it completes, then delete the account.',
  affiliateBalance:
    'You still have an affiliate balance. Withdraw it from your affiliate page first (or wait for pending commissions), then delete the account.',
  affiliatePayoutPending:
    'An affiliate payout is still on its way. Wait until it arrives, then delete the account.',
} as const;
