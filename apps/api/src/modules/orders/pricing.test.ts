import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { couponDiscount, splitPayment } from './pricing.ts';

describe('couponDiscount', () => {
  it('rounds percentages down and never exceeds the subtotal', () => {
    expect(couponDiscount(999, { type: 'percent', percent_off: 10, amount_off: null })).toBe(99);
    expect(couponDiscount(300, { type: 'amount', percent_off: null, amount_off: 500 })).toBe(300);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 0, max: 100 }),
        (s, p) => {
          const d = couponDiscount(s, { type: 'percent', percent_off: p, amount_off: null });
          return Number.isInteger(d) && d >= 0 && d <= s;
        },
      ),
    );
  });
});

describe('splitPayment', () => {
  it('splits 10,000 with 5% + 30 and a 20% commission', () => {
    expect(splitPayment(10_000, { bps: 500, fixed: 30 }, 2000)).toEqual({
      platformFee: 530,
      affiliateCommission: 2000,
      vendorShare: 7470,
    });
  });
  it('always sums to the total with no negative part', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 0, max: 100_000 }),
        fc.option(fc.integer({ min: 0, max: 10_000 })),
        (total, bps, fixed, aff) => {
          const s = splitPayment(total, { bps, fixed }, aff);
          return (
            s.platformFee + s.affiliateCommission + s.vendorShare === total &&
            s.platformFee >= 0 &&
            s.affiliateCommission >= 0 &&
            s.vendorShare >= 0
          );
        },
      ),
    );
  });
});
