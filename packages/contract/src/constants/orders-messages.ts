/** The longest reason a vendor can give when revoking a buyer's access. */
export const REVOKE_REASON_MAX = 500;

/** What checkout, orders and sales say, in words (the API's answers and the pages read them). */
export const ordersMessages = {
  unknownPlan: 'That plan is not available for this product.',
  inactive: 'This product is not for sale right now.',
  alreadyOwned: 'You already own this.',
  ownItem: 'This is yours: vendors cannot buy what they sell.',
  missingPrerequisite: 'Buy the required product first.',
  couponInvalid: 'That coupon code is not valid.',
  couponExpired: 'That coupon has expired.',
  couponExhausted: 'That coupon has been fully redeemed.',
  couponNotApplicable: 'That coupon does not apply to this item.',
  couponHeld:
    'You already have a checkout open with this coupon. Finish paying there, or try again once it has expired.',
  purchaseNotFound: 'We could not find that order.',
  noSubscriptions: 'You have no subscriptions with this vendor.',
  idempotencyMismatch: 'This Idempotency-Key was already used for a different checkout.',
  vendorsOnly: 'Only vendors can connect a payout account.',
  connectNotStarted: 'Connect your payout account first.',
  connectReady: 'Your payout account is connected. Sales now pay out to it.',
  duplicateRefunded:
    'You already owned this when this payment arrived, so we refunded it in full. Nothing else changes.',
  revokeVendorsOnly: 'Only vendors can see sales and revoke access.',
  revokeNotPaid: 'Only a paid purchase with access can be revoked.',
  revokeReasonRequired: 'Tell the buyer why their access ends.',
  revokeReasonTooLong: `Keep the reason under ${REVOKE_REASON_MAX} characters.`,
  revokeProviderFailed:
    'The payment provider did not cancel the subscription, so access was not revoked. Try again in a minute.',
  connectPending: 'The payment provider still needs details before your account can take payments.',
} as const;
