import { describe, expect, it } from 'vitest';
import {
  memberDiscountOf,
  planFeatures,
  planOfPath,
  plans,
  platformFeeOf,
} from './constants/membership.ts';
import { createSavedSearchRequest } from './membership.ts';

const demoFee = { bps: 500, fixed: 30 };

describe('member discount', () => {
  it("is the plan's percentage rounded down, and never more than the platform fee that pays for it", () => {
    expect(memberDiscountOf(10_000, 3, demoFee)).toBe(300);
    expect(memberDiscountOf(10_000, 5, demoFee)).toBe(500);
    expect(memberDiscountOf(1_999, 3, demoFee)).toBe(59);
    // A cheaper fee caps it: 1 % of $100 is all the platform takes.
    expect(memberDiscountOf(10_000, 5, { bps: 100, fixed: 0 })).toBe(100);
    expect(memberDiscountOf(10_000, 5, { bps: 0, fixed: 0 })).toBe(0);
    expect(memberDiscountOf(0, 5, demoFee)).toBe(0);
    for (const amount of [1, 7, 99, 101, 1_234, 49_999, 10_000_000])
      for (const plan of Object.values(plans)) {
        const d = memberDiscountOf(amount, plan.memberDiscountPercent, demoFee);
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThanOrEqual(platformFeeOf(amount, demoFee));
        expect(d).toBeLessThan(amount);
      }
  });
});

describe('plans', () => {
  it('list exactly the grants the API enforces, with their numbers', () => {
    expect(planOfPath('/premium')).toBe(plans.premium);
    expect(planOfPath('/pro-plus')).toBe(plans.pro_plus);
    expect(planOfPath('/elsewhere')).toBeNull();
    const lines = planFeatures(plans.premium).join('\n');
    expect(lines).toContain('3 % member price');
    expect(lines).toContain('up to 10 searches');
    expect(lines).toContain('at most 3 alert e-mails a day');
    expect(lines).toContain('within 24 hours');
    expect(lines).not.toMatch(/watchlist|real-time|API access|early access/i);
  });

  it('a saved search needs words or a filter', () => {
    expect(createSavedSearchRequest.safeParse({ q: '' }).success).toBe(false);
    expect(createSavedSearchRequest.safeParse({ q: ' rsi ' }).data).toMatchObject({ q: 'rsi' });
    expect(createSavedSearchRequest.safeParse({ q: '', platform: 'mt5' }).success).toBe(true);
  });
});
