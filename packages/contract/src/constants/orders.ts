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

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const REFERRAL_COOKIE = 'referral_id';
export const REFERRAL_WINDOW_DAYS = 30;
