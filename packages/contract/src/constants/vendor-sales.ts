/** Vendor sales, refunds, customers and coupons: enums, limits and messages (issue 19, ADR 042). */

/** A vendor refund's life: asked of the provider (`pending`), confirmed by its event, or refused. */
export const vendorRefundStatuses = ['pending', 'succeeded', 'failed'] as const;
export type VendorRefundStatus = (typeof vendorRefundStatuses)[number];

/** Sales list filter: a paid sale, one refunded in full, one in part, or one whose access was revoked. */
export const saleFilters = [
  'paid',
  'refunded',
  'partially_refunded',
  'revoked',
  'disputed',
] as const;
export type SaleFilter = (typeof saleFilters)[number];

export const couponTypes = ['percent', 'amount'] as const;
export const couponScopes = ['all', 'products'] as const;
/** What a coupon's dates and limits make of it right now. */
export const couponStates = ['active', 'scheduled', 'expired', 'used_up', 'inactive'] as const;
export type CouponState = (typeof couponStates)[number];

export const REFUND_REASON_MAX = 500;
/** The largest amount one coupon can take off (minor units): $100,000.00. */
export const COUPON_AMOUNT_MAX = 10_000_000;
export const COUPON_REDEMPTIONS_MAX = 1_000_000;
export const COUPON_PRODUCTS_MAX = 100;
export const CUSTOMER_SEARCH_MAX = 100;

export const vendorSalesMessages = {
  saleNotFound: 'We could not find that sale.',
  refundReasonRequired: 'Tell the buyer why you are refunding.',
  refundReasonTooLong: `Keep the reason under ${REFUND_REASON_MAX} characters.`,
  refundAmountWhole: 'Enter an amount greater than zero, to the cent.',
  refundNotPaid: 'Only a paid sale can be refunded.',
  refundAlreadyFull: 'This sale has already been refunded in full.',
  refundDisputed: 'The buyer disputed this payment with their bank, so it cannot be refunded here.',
  refundNothingCharged: 'Nothing was charged for this sale, so there is nothing to refund.',
  refundProviderFailed:
    'The payment provider did not confirm the refund. Try again in a minute: it will not refund twice.',
  refundProviderRefused: 'The payment provider refused this refund.',
  refundOtherProvider:
    'This sale was paid through another payment provider than the one this workspace uses now, so it cannot be refunded here.',
  refundIdempotencyMismatch: 'This Idempotency-Key was already used for a different refund.',
  couponNotFound: 'We could not find that coupon.',
  couponCodeTaken: 'You already have a coupon with this code.',
  couponPercentRange: 'Enter a percentage from 1 to 100.',
  couponAmountRange: 'Enter an amount greater than zero, to the cent.',
  couponAmountTooLarge: 'That amount is too large for a coupon.',
  couponCurrency: 'Choose the currency of the amount.',
  couponProductsRequired: 'Choose at least one product, or apply the coupon to all products.',
  couponProductsTooMany: `Choose at most ${COUPON_PRODUCTS_MAX} products.`,
  couponProductUnknown: 'One of the chosen products is not yours.',
  couponDate: 'Enter a valid date and time.',
  couponExpiresBeforeStart: 'The end must be after the start.',
  couponLimitRange: `Enter a whole number from 1 to ${COUPON_REDEMPTIONS_MAX}, or leave it empty for no limit.`,
  couponLimitBelowUsed: 'This coupon has already been redeemed more times than that.',
  couponPerBuyerAboveTotal: 'The limit per buyer cannot be above the overall limit.',
  couponDeleted: 'Coupon deleted.',
  couponDeactivated: 'Coupon deactivated: it has been used, so it is kept for your records.',
  couponNotStarted: 'That coupon is not active yet.',
  couponBuyerLimit: 'You have already used this coupon as many times as it allows.',
} as const;

/** "Refund at most $12.34: that is what is left of this sale." */
export function refundTooLargeMessage(left: string): string {
  return `You can refund at most ${left}: that is what is left of this payment.`;
}
