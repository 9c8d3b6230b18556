import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { couponDiscount, proportionalShare, splitPayment } from './pricing.ts';

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

describe('proportionalShare', () => {
  it('takes back exactly the part, zero-sum, each share within one unit of its exact part', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5_000_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 5_000 }),
        fc.integer({ min: 0, max: 3_000 }),
        (charged, bps, fixed, affiliateBps, partPerMille) => {
          const split = splitPayment(charged, { bps, fixed }, affiliateBps);
          const line = (account_type: string, amount: number) => ({
            account_type,
            account_id: account_type,
            amount,
            currency: 'usd',
          });
          const payment = [
            line('clearing', -charged),
            line('platform', split.platformFee),
            line('vendor', split.vendorShare),
            line('affiliate', split.affiliateCommission),
          ];
          const part = Math.max(1, Math.floor((charged * Math.min(partPerMille, 1000)) / 1000));
          const back = proportionalShare(payment, part, charged);
          const total = back.reduce((n, l) => n + l.amount, 0);
          const clearing = back.find((l) => l.account_type === 'clearing')!.amount;
          return (
            total === 0 &&
            clearing === part &&
            back.every((l) => {
              if (l.account_type === 'clearing') return true;
              const share = payment.find((p) => p.account_type === l.account_type)!.amount;
              const exact = (share * part) / charged;
              return (
                Number.isInteger(l.amount) && -l.amount <= share && Math.abs(-l.amount - exact) < 1
              );
            })
          );
        },
      ),
    );
  });
});
