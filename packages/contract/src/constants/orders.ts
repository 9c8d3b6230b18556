/** Checkout and order enums, header and cookie names, messages: plain values, no zod. */

/** A checkout's life: pending until the provider reports an outcome. */
export const purchaseStatuses = ['pending', 'paid', 'failed', 'cancelled', 'refunded'] as const;
export type PurchaseStatus = (typeof purchaseStatuses)[number];

export const subscriptionStatuses = [
  'trialing',
  'active',
  'past_due',
  /** Cancelled by the buyer; access runs to the end of the paid period. */
  'cancelling',
  'ended',
] as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];

/**
 * Refunds the platform makes on its own: a payment for something the buyer already owned, or for a
 * superseded checkout whose coupon had no redemptions left when it was paid.
 */
export const refundReasons = ['duplicate', 'coupon_limit'] as const;
export type RefundReason = (typeof refundReasons)[number];

export const entitlementKinds = ['access', 'course_enrolment', 'licence', 'discord_role'] as const;

/** The longest reason a vendor can give when revoking a buyer's access. */
export const REVOKE_REASON_MAX = 500;

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const REFERRAL_COOKIE = 'referral_id';
export const REFERRAL_WINDOW_DAYS = 30;

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
