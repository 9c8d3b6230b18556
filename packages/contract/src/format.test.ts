import { describe, expect, it } from 'vitest';
import {
  bundlePath,
  coursePath,
  formatMoney,
  groupThousands,
  productPath,
  storefrontPath,
} from './format.ts';

describe('the one money formatter', () => {
  it('writes minor units in each style', () => {
    expect(formatMoney(5000, 'usd')).toBe('$50.00');
    expect(formatMoney(1250, 'eur')).toBe('€12.50');
    expect(formatMoney(5000, 'usd', 'short')).toBe('$50');
    expect(formatMoney(1250, 'usd', 'short')).toBe('$12.50');
    expect(formatMoney(4900, 'usd', 'code')).toBe('49.00 USD');
    expect(formatMoney(-300, 'usd')).toBe('-$3.00');
  });

  it("writes the plans' currencies exactly as Intl does, without it", () => {
    const amounts = [0, 1, 5, 99, 100, 105, 1250, 99_999, 100_000, 123_456_789, 100_000_000_000];
    for (const currency of ['usd', 'eur', 'gbp'])
      for (const amount of [...amounts, ...amounts.filter((a) => a > 0).map((a) => -a)])
        for (const fraction of [0, 2]) {
          const intl = new Intl.NumberFormat('en-US', {
            style: 'currency',
            currency: currency.toUpperCase(),
            minimumFractionDigits: fraction,
          }).format(amount / 100);
          const style = fraction === 2 ? 'exact' : 'short';
          if (style === 'short' && amount % 100 !== 0) continue; // short shows cents then
          expect(formatMoney(amount, currency, style), `${amount} ${currency} ${style}`).toBe(intl);
        }
    for (const n of [0, 7, 999, 1000, 12_345, 1_000_000, -4200])
      expect(groupThousands(n)).toBe(n.toLocaleString('en-US'));
    // Another currency still goes through Intl.
    expect(formatMoney(123_456, 'jpy')).toBe('¥1,234.56');
  });
});

describe('public paths', () => {
  it('escape each part', () => {
    expect(productPath({ id: 'prd_1', slug: 'rsi pro' })).toBe('/p/prd_1/rsi%20pro');
    expect(bundlePath({ id: 'bnd_1', slug: 'kit' })).toBe('/b/bnd_1/kit');
    expect(storefrontPath('alpha/edge')).toBe('/v/alpha%2Fedge');
    expect(coursePath('prd_2')).toBe('/courses/prd_2');
  });
});
