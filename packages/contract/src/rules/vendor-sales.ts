// The vendor refund and coupon forms' rules, without zod, so the browser checks a form with the
// messages the API's schemas (`vendor-sales.ts`, `vendor-coupons.ts`) answer. `vendor-rules.test.ts`
// checks that both say the same about the same input.
import {
  COUPON_AMOUNT_MAX,
  COUPON_PRODUCTS_MAX,
  COUPON_REDEMPTIONS_MAX,
  REFUND_REASON_MAX,
  vendorSalesMessages as m,
} from '../constants/vendor-sales.ts';
import { validateCouponCode } from './coupon.ts';
import { hasUnreadableCharacters, UNREADABLE_TEXT } from './text.ts';
import { isStorableTimestamp } from './timestamp.ts';

export type FieldProblems = Record<string, string>;

const isWhole = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n);

/** A refund request's problems: `amount` in minor units (null: the rest) and the reason. */
export function refundProblems(input: { amount: number | null; reason: string }): FieldProblems {
  const problems: FieldProblems = {};
  if (input.amount !== null && (!isWhole(input.amount) || input.amount < 1))
    problems.amount = m.refundAmountWhole;
  if (hasUnreadableCharacters(input.reason, true)) problems.reason = UNREADABLE_TEXT;
  else if (!input.reason.trim()) problems.reason = m.refundReasonRequired;
  else if (input.reason.trim().length > REFUND_REASON_MAX) problems.reason = m.refundReasonTooLong;
  return problems;
}

/** A coupon as its form holds it, numbers parsed (null: empty). */
export interface CouponDraft {
  code: string;
  type: 'percent' | 'amount';
  percentOff: number | null;
  amountOff: number | null;
  currency: string | null;
  scope: 'all' | 'products';
  productIds: string[];
  startsAt: string | null;
  expiresAt: string | null;
  maxRedemptions: number | null;
  maxPerBuyer: number | null;
}

const badLimit = (n: number | null) =>
  n !== null && (!isWhole(n) || n < 1 || n > COUPON_REDEMPTIONS_MAX);

/** A coupon's problems by field, with the API's messages. */
export function couponProblems(c: CouponDraft): FieldProblems {
  const problems: FieldProblems = {};
  const codeProblem = validateCouponCode(c.code.trim());
  if (codeProblem) problems.code = codeProblem;
  if (c.type === 'percent') {
    if (c.percentOff === null || !isWhole(c.percentOff) || c.percentOff < 1 || c.percentOff > 100)
      problems.percentOff = m.couponPercentRange;
  } else {
    if (c.amountOff === null || !isWhole(c.amountOff) || c.amountOff < 1)
      problems.amountOff = m.couponAmountRange;
    else if (c.amountOff > COUPON_AMOUNT_MAX) problems.amountOff = m.couponAmountTooLarge;
    if (!c.currency || !/^[a-z]{3}$/.test(c.currency)) problems.currency = m.couponCurrency;
  }
  if (c.scope === 'products' && c.productIds.length === 0)
    problems.productIds = m.couponProductsRequired;
  if (c.productIds.length > COUPON_PRODUCTS_MAX) problems.productIds = m.couponProductsTooMany;
  if (c.startsAt !== null && !isStorableTimestamp(c.startsAt)) problems.startsAt = m.couponDate;
  if (c.expiresAt !== null && !isStorableTimestamp(c.expiresAt)) problems.expiresAt = m.couponDate;
  else if (c.startsAt && c.expiresAt && Date.parse(c.expiresAt) <= Date.parse(c.startsAt))
    problems.expiresAt = m.couponExpiresBeforeStart;
  if (badLimit(c.maxRedemptions)) problems.maxRedemptions = m.couponLimitRange;
  if (badLimit(c.maxPerBuyer)) problems.maxPerBuyer = m.couponLimitRange;
  else if (
    c.maxRedemptions !== null &&
    c.maxPerBuyer !== null &&
    !problems.maxRedemptions &&
    c.maxPerBuyer > c.maxRedemptions
  )
    problems.maxPerBuyer = m.couponPerBuyerAboveTotal;
  return problems;
}
