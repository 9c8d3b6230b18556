import { describe, expect, it } from 'vitest';
import { vendorSalesMessages as m } from '../constants/vendor-sales.ts';
import { couponInput } from '../vendor-coupons.ts';
import { vendorRefundBody } from '../vendor-sales.ts';
import { couponMessages } from './coupon.ts';
import { couponProblems, refundProblems, type CouponDraft } from './vendor-sales.ts';

// The browser's rules and the API's schemas must say the same thing about the same input.
const fieldsOf = (issues: Array<{ path: PropertyKey[]; message: string }>) => {
  const out: Record<string, string> = {};
  for (const i of issues) out[String(i.path[0] ?? 'body')] ??= i.message;
  return out;
};

const base: CouponDraft = {
  code: 'SPRING',
  type: 'percent',
  percentOff: 20,
  amountOff: null,
  currency: null,
  scope: 'all',
  productIds: [],
  startsAt: null,
  expiresAt: null,
  maxRedemptions: null,
  maxPerBuyer: null,
};

describe('coupon rules agree with the schema', () => {
  it.each<[string, Partial<CouponDraft>, Record<string, string>]>([
    ['a valid percent coupon', {}, {}],
    [
      'a valid amount coupon',
      { type: 'amount', percentOff: null, amountOff: 500, currency: 'usd' },
      {},
    ],
    ['a bad code', { code: 'no spaces' }, { code: couponMessages.characters }],
    ['an empty code', { code: '' }, { code: couponMessages.empty }],
    ['0 percent', { percentOff: 0 }, { percentOff: m.couponPercentRange }],
    ['no percent', { percentOff: null }, { percentOff: m.couponPercentRange }],
    [
      'a fraction of a cent',
      { type: 'amount', amountOff: 1.5, currency: 'usd' },
      { amountOff: m.couponAmountRange },
    ],
    [
      'too large an amount',
      { type: 'amount', amountOff: 10_000_001, currency: 'usd' },
      { amountOff: m.couponAmountTooLarge },
    ],
    [
      'an amount without currency',
      { type: 'amount', amountOff: 100 },
      { currency: m.couponCurrency },
    ],
    ['no chosen products', { scope: 'products' }, { productIds: m.couponProductsRequired }],
    ['a bad date', { startsAt: '2030-13-45' }, { startsAt: m.couponDate }],
    // Times PostgreSQL refuses (issue 26): year 0000, offsets past ±15:59, year 10000 in UTC.
    ['year 0000', { startsAt: '0000-01-01T00:00:00Z' }, { startsAt: m.couponDate }],
    [
      'an offset of 16 hours',
      { startsAt: '2030-01-01T00:00:00+16:00' },
      { startsAt: m.couponDate },
    ],
    ['past 9999 in UTC', { expiresAt: '9999-12-31T23:00:00-05:00' }, { expiresAt: m.couponDate }],
    [
      'an end before the start',
      { startsAt: '2030-01-02T00:00:00Z', expiresAt: '2030-01-01T00:00:00Z' },
      { expiresAt: m.couponExpiresBeforeStart },
    ],
    ['a zero limit', { maxRedemptions: 0 }, { maxRedemptions: m.couponLimitRange }],
    [
      'a per-buyer limit above the total',
      { maxRedemptions: 2, maxPerBuyer: 3 },
      { maxPerBuyer: m.couponPerBuyerAboveTotal },
    ],
  ])('%s', (_name, change, expected) => {
    const draft = { ...base, ...change };
    expect(couponProblems(draft)).toEqual(expected);
    // The API: the schema field by field, then the same rules on what it parsed.
    const parsed = couponInput.safeParse(draft);
    expect(parsed.success ? couponProblems(parsed.data) : fieldsOf(parsed.error.issues)).toEqual(
      expected,
    );
  });
});

describe('refund rules agree with the schema', () => {
  it.each<[string, { amount: number | null; reason: string }, Record<string, string>]>([
    ['the rest', { amount: null, reason: 'Asked for it' }, {}],
    ['a part', { amount: 250, reason: 'Asked for it' }, {}],
    ['no reason', { amount: null, reason: '  ' }, { reason: m.refundReasonRequired }],
    ['a long reason', { amount: null, reason: 'x'.repeat(501) }, { reason: m.refundReasonTooLong }],
    ['zero', { amount: 0, reason: 'ok' }, { amount: m.refundAmountWhole }],
    ['a fraction', { amount: 2.5, reason: 'ok' }, { amount: m.refundAmountWhole }],
  ])('%s', (_name, input, expected) => {
    expect(refundProblems(input)).toEqual(expected);
    const parsed = vendorRefundBody.safeParse(input);
    expect(parsed.success ? {} : fieldsOf(parsed.error.issues)).toEqual(expected);
  });
});
