/** Pure money rules for checkout: integer minor units throughout, rounding never favours the platform. */

export interface CouponRule {
  type: 'percent' | 'amount';
  percent_off: number | null;
  amount_off: number | null;
}

/** The discount a coupon gives on a subtotal: percentages round down, never more than the subtotal. */
export function couponDiscount(subtotal: number, coupon: CouponRule): number {
  const raw =
    coupon.type === 'percent'
      ? Math.floor((subtotal * (coupon.percent_off ?? 0)) / 100)
      : (coupon.amount_off ?? 0);
  return Math.max(0, Math.min(subtotal, raw));
}

export interface Split {
  platformFee: number;
  affiliateCommission: number;
  vendorShare: number;
}

/**
 * How one payment divides: the platform fee (basis points of the total, rounded down, plus a fixed
 * amount), the affiliate's commission (basis points of the total) and the rest to the vendor. The
 * parts always sum to the total and none is negative.
 */
export function splitPayment(
  total: number,
  fee: { bps: number; fixed: number },
  affiliateBps: number | null,
): Split {
  if (total <= 0) return { platformFee: 0, affiliateCommission: 0, vendorShare: 0 };
  const platformFee = Math.min(total, Math.floor((total * fee.bps) / 10_000) + fee.fixed);
  const affiliateCommission = Math.min(
    total - platformFee,
    affiliateBps ? Math.floor((total * affiliateBps) / 10_000) : 0,
  );
  return {
    platformFee,
    affiliateCommission,
    vendorShare: total - platformFee - affiliateCommission,
  };
}

/** One ledger line as stored: shares are positive, the clearing account's sale negative. */
export type LedgerLine = {
  account_type: string;
  account_id: string;
  amount: number;
  currency: string;
};

/**
 * `part` of a payment of `charged`, taken back from each share in proportion, in whole minor units:
 * largest remainders get the leftover units, so the reversal sums to exactly zero.
 */
export function proportionalShare(
  payment: readonly LedgerLine[],
  part: number,
  charged: number,
): LedgerLine[] {
  const shares = payment.filter((e) => e.account_type !== 'clearing' && e.amount > 0);
  const exact = shares.map((e) => (e.amount * part) / charged);
  const taken = exact.map(Math.floor);
  let left = part - taken.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0]);
  for (const [, i] of order) {
    if (left <= 0) break;
    taken[i]! += 1;
    left -= 1;
  }
  const clearing = payment.find((e) => e.account_type === 'clearing')!;
  return [
    { ...clearing, amount: part },
    ...shares.map((e, i) => ({ ...e, amount: -taken[i]! })).filter((e) => e.amount !== 0),
  ];
}

/**
 * The percentage of each subscription payment that makes the provider's fee the ledger's fee
 * (`platformFee` of a `charged` payment): rounded down to the two decimals Stripe accepts, so the
 * vendor is never paid less than the ledger says. Stripe's fee can then fall short of the ledger's by
 * at most charged / 10 000 plus its own rounding (one minor unit).
 */
export function subscriptionFeePercent(charged: number, platformFee: number): number {
  if (charged <= 0 || platformFee <= 0) return 0;
  return Math.floor((platformFee * 10_000) / charged) / 100;
}
